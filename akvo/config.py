"""One rules-configuration object: every variant of ``docs/rulings.md`` is a field here.

Designers compare interpretations by building another :class:`RulesConfig`; the default
instance follows the first option of each ruling.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, Literal, get_args, get_type_hints

from akvo.errors import (
    RulesError,
    choice_index,
    choose_among,
    did_you_mean,
    excerpt,
    require_choice,
    require_text,
)

#: The longest ``--rules`` text read (every variant spelled out fits in a fifth of it).
MAX_TEXT_LENGTH = 1000

# Each variant's options, the default first: the one place they are spelled.
WeatherRule = Literal["bag", "coin"]
ProdigeRule = Literal["four", "all"]
GrimoireReading = Literal["standard", "swapped"]
RuneURule = Literal["restores_ultime", "names_only"]
MouvementRule = Literal["is_the_rune", "separate"]
ShipAdvanceRule = Literal["one", "per_order"]
RouleauMouvementRule = Literal["no_rune", "plus_one"]


@dataclass(frozen=True, slots=True)
class RulesConfig:
    """The rules variants in force, one field per variant of ``docs/rulings.md`` (its options
    are the field's Literal, the default first: :data:`CHOICES`)."""

    weather: WeatherRule = "bag"
    """R8: a ``"bag"`` of 8 tokens drawn without replacement, or a fair ``"coin"``."""
    prodige: ProdigeRule = "four"
    """R13: only ``"four"`` dice showing one face, or ``"all"`` dice (≥ 2) equal."""
    grimoire: GrimoireReading = "standard"
    """R19: ``"standard"`` reads @ as Confusion and # as Relance; ``"swapped"`` the other way
    round."""
    rune_u: RuneURule = "restores_ultime"
    """R22: spending rune U ``"restores_ultime"`` of its holder, or is ``"names_only"`` (no
    effect)."""
    mouvement_rune: MouvementRule = "is_the_rune"
    """R18 with R20: a Mouvement rune played just before a shot ``"is_the_rune"`` of its side
    for that resolution, or is ``"separate"``: the rulebook's « une seule rune par camp
    pendant une même résolution » can be read as starting with the target, so the shooter may
    still play an attack rune."""
    ship_advance_runes: ShipAdvanceRule = "one"
    """R20 with the ship's double token: an Avancer/Avancer order takes ``"one"`` Mouvement
    rune for its 2-cell move, or one ``"per_order"`` (two 1-cell steps, each may take a
    rune)."""
    rouleau_mouvement: RouleauMouvementRule = "no_rune"
    """R20 with R24: Rouleau's advance is not an « action Avancer », so by default
    ``"no_rune"`` is played on it; ``"plus_one"`` reads the grimoire's « +1 case pendant un
    déplacement » as letting the Surfeur (or the bonus) play one Mouvement rune on it, for 2
    cells. Rouleau follows the shot's outcome and prodiges (R23), outside the resolution, so
    R18's one rune per side does not limit it."""

    def __post_init__(self) -> None:
        for name, allowed in CHOICES.items():  # each value kept as the plain option string
            value = getattr(self, name)
            index = choice_index(value, allowed)
            if index < 0:
                hint = did_you_mean(value, allowed)
                raise RulesError(
                    f"rules variant {name}={excerpt(value)} is unknown"
                    + choose_among(hint, ", ".join(map(repr, allowed)))
                )
            object.__setattr__(self, name, allowed[index])

    def with_(self, **changes: Any) -> RulesConfig:
        """A copy with some variants changed (validated like the constructor)."""
        for key in changes:
            require_choice("rules variant", key, CHOICES, RulesError)
        return replace(self, **changes)

    def to_dict(self) -> dict[str, str]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, data: object) -> RulesConfig:
        """From ``{"weather": "coin", …}``; missing variants keep their default."""
        if not isinstance(data, dict):
            raise RulesError(f"rules must be a dict of variants, got {type(data).__name__}")
        variants: dict[str, Any] = {}
        for key, value in data.items():
            name = require_choice("rules variant", key, CHOICES, RulesError)
            variants[name] = require_text(f"rules variant {name}", value, RulesError)
        return cls(**variants)

    @classmethod
    def from_text(cls, text: object) -> RulesConfig:
        """From ``"weather=coin,prodige=all"`` (the command line's ``--rules``)."""
        text = require_text("rules text", text, RulesError, MAX_TEXT_LENGTH)
        data: dict[str, str] = {}
        for item in filter(None, (part.strip() for part in text.split(","))):
            key, sep, value = item.partition("=")
            if not sep:
                raise RulesError(f"rules item {excerpt(item)} is not variant=value")
            if key.strip() in data:
                raise RulesError(f"rules variant {excerpt(key.strip())} is given twice")
            data[key.strip()] = value.strip()
        return cls.from_dict(data)

    def to_text(self) -> str:
        return ",".join(f"{k}={v}" for k, v in self.to_dict().items())


def _choices() -> dict[str, tuple[str, ...]]:
    """Every variant and its options (default first), read from the fields' Literals."""
    hints = get_type_hints(RulesConfig)
    table = {field.name: get_args(hints[field.name]) for field in fields(RulesConfig)}
    for field in fields(RulesConfig):
        if table[field.name][0] != field.default:  # a variant's default is its first option
            raise RulesError(f"rules variant {field.name}: the default must come first")
    return table


#: Every variant and its options, the default first.
CHOICES: dict[str, tuple[str, ...]] = _choices()
DEFAULT_RULES = RulesConfig()
