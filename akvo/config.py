"""One rules-configuration object: every variant named in RULINGS.md is a field here.

Designers compare interpretations by building another :class:`RulesConfig`; the default
instance follows the first option of each ruling.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, Literal

from akvo.errors import RulesError

WeatherRule = Literal["bag", "coin"]
ProdigeRule = Literal["four", "all"]
GrimoireReading = Literal["standard", "swapped"]
RuneURule = Literal["restores_ultime", "names_only"]

_CHOICES: dict[str, tuple[str, ...]] = {
    "weather": ("bag", "coin"),
    "prodige": ("four", "all"),
    "grimoire": ("standard", "swapped"),
    "rune_u": ("restores_ultime", "names_only"),
}


@dataclass(frozen=True, slots=True)
class RulesConfig:
    """The rules variants in force.

    - ``weather`` (R8): ``"bag"`` of 8 tokens drawn without replacement, or a fair ``"coin"``.
    - ``prodige`` (R13): only ``"four"`` dice showing one face, or ``"all"`` dice (≥ 2) equal.
    - ``grimoire`` (R19): ``"standard"`` reads @ as Confusion and # as Relance; ``"swapped"``
      reads them the other way round.
    - ``rune_u`` (R22): spending rune U ``"restores_ultime"`` of its holder, or is
      ``"names_only"`` (no effect).
    """

    weather: WeatherRule = "bag"
    prodige: ProdigeRule = "four"
    grimoire: GrimoireReading = "standard"
    rune_u: RuneURule = "restores_ultime"

    def __post_init__(self) -> None:
        for name, allowed in _CHOICES.items():
            value = getattr(self, name)
            if value not in allowed:
                raise RulesError(
                    f"rules variant {name}={value!r} is unknown; choose one of {allowed}"
                )

    def with_(self, **changes: Any) -> RulesConfig:
        """A copy with some variants changed (validated like the constructor)."""
        return replace(self, **changes)

    def to_dict(self) -> dict[str, str]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, data: dict[str, str]) -> RulesConfig:
        unknown = set(data) - set(_CHOICES)
        if unknown:
            raise RulesError(f"unknown rules variant(s): {', '.join(sorted(unknown))}")
        return cls(**data)  # type: ignore[arg-type]


DEFAULT_RULES = RulesConfig()
