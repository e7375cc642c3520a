"""The rules switches, each declared once: its ruling, its French readings and where the
engine counts the moments it comes into play.

A switch is a field of :class:`~akvo.config.RulesConfig` (its options, default first, are
the field's ``Literal``, :data:`akvo.config.CHOICES`). Its :class:`Switch` here says which
ruling of ``docs/rulings.md`` it belongs to, how a player reads each option (the variants
page, the lab's tables), what « la règle a joué » means for it, and the engine function that
counts those moments (``rule_played(s, "<field>")`` in :mod:`akvo.match`, into the state's
``uses``): the lab's coverage reads the counts, it never re-derives a trigger. The command
lines' ``--rules`` help is :func:`rules_help`. ``docs/adding-a-switch.md`` walks through
adding one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

from akvo.config import CHOICES
from akvo.errors import RulesError


@dataclass(frozen=True, slots=True)
class Switch:
    """One rules switch: ``field`` of :class:`~akvo.config.RulesConfig`, its ``ruling`` id,
    the French label of each option (``readings``, in the field's order, default first),
    the French label of the moments it came into play (``played``, the lab's column) and
    ``counted_in``, the ``module:function`` of the engine that counts them; ``topic``, the
    rule's short French name for menus (at most :data:`TOPIC_LENGTH` characters, so that a
    drop-down shows it whole on a 390 px phone)."""

    field: str
    ruling: str
    readings: tuple[str, ...]
    played: str
    counted_in: str
    topic: str = ""

    @property
    def options(self) -> tuple[str, ...]:
        return CHOICES[self.field]

    def reading(self, option: str) -> str:
        """The French label of one option."""
        return self.readings[self.options.index(option)]


#: The longest topic a menu shows whole at 390 px.
TOPIC_LENGTH: Final = 40


def _declare(*switches: Switch) -> Mapping[str, Switch]:
    table = {switch.field: switch for switch in switches}
    for switch in switches:
        if switch.field not in CHOICES or len(switch.readings) != len(CHOICES[switch.field]):
            raise RulesError(f"switch {switch.field}: one French reading per option")
        if not 0 < len(switch.topic) <= TOPIC_LENGTH:
            raise RulesError(f"switch {switch.field}: a topic of 1 to {TOPIC_LENGTH} characters")
    if set(table) != set(CHOICES):
        raise RulesError(f"every rules variant needs a switch: {sorted(set(CHOICES) ^ set(table))}")
    return MappingProxyType({field: table[field] for field in CHOICES})  # the config's order


#: Every rules switch, in :class:`~akvo.config.RulesConfig`'s field order.
SWITCHES: Final[Mapping[str, Switch]] = _declare(
    Switch(
        "weather",
        "R8",
        ("Sac de 8 jetons (4 par camp)", "Pile ou face à chaque tour"),
        "R8 : tours où le sac compte (ou que la pièce déséquilibre)",
        "akvo.match.flow:weather",
        topic="R8 : sac de jetons ou pièce",
    ),
    Switch(
        "prodige",
        "R13",
        (
            "Prodige : exactement 4 dés identiques",
            "Prodige : tous les dés lancés identiques (2 ou plus)",
        ),
        "R13 : jets de 2 ou 3 dés identiques",
        "akvo.match.shooting:make_roll",
        topic="R13 : ce qu’est un prodige",
    ),
    Switch(
        "grimoire",
        "R19",
        ("@ Confusion, # Relance", "@ Relance, # Confusion"),
        "R19 : runes @ ou # jouées",
        "akvo.match.flow:spend",
        topic="R19 : les runes @ et #",
    ),
    Switch(
        "rune_u",
        "R22",
        ("La rune U rend l’Ultime de son porteur", "La rune U ne fait rien (elle sert aux noms)"),
        "R22 : rune U jouée",
        "akvo.match.ultimes:restore_ultime",
        topic="R22 : la rune U",
    ),
    Switch(
        "mouvement_rune",
        "R18",
        (
            "Le Mouvement avant un tir est la rune du tireur",
            "Le Mouvement avant un tir s’ajoute à une rune de tir",
        ),
        "R18 : Mouvement joué juste avant un tir",
        "akvo.match.shooting:decide_pre_shot",
        topic="R18 : Mouvement avant un tir",
    ),
    Switch(
        "ship_advance_runes",
        "R20",
        (
            "Navire (AA) : une rune de Mouvement en tout",
            "Navire (AA) : une rune de Mouvement par ordre",
        ),
        "R20 : Mouvement joué sur Avancer/Avancer du navire",
        "akvo.match.flow:decide_advance",
        topic="R20 : Mouvement et Avancer du navire",
    ),
    Switch(
        "rouleau_mouvement",
        "R20",
        (
            "Rouleau : pas de rune de Mouvement sur son avance",
            "Rouleau : une rune de Mouvement pour 2 cases",
        ),
        "R20 : Rouleau qui pourrait prendre une rune de Mouvement",
        "akvo.match.shooting:after_shot",
        topic="R20 : Rouleau et rune de Mouvement",
    ),
)

#: Each switch's ruling id.
RULINGS: Final[Mapping[str, str]] = MappingProxyType(
    {field: switch.ruling for field, switch in SWITCHES.items()}
)


def rules_help() -> str:
    """The ``--rules`` help of the command lines: every switch, its ruling and options."""
    items = ", ".join(
        f"{field} ({switch.ruling}: {'|'.join(switch.options)})"
        for field, switch in SWITCHES.items()
    )
    return f"rules variants as field=option,... (default first): {items}"
