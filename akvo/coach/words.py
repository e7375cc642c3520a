"""Any engine action, roll or number in French: what the coach writes never shows a code.

The engine speaks short English action strings (``shoot surfeur``, ``rune P``, ``orders
TTTA AA``); a player reads French. :func:`action_words` turns every action of the
vocabulary (:mod:`akvo.match.actions`) into a French phrase built from the engine's own
names (characters :data:`~akvo.match.board.CHAR_LABELS`, Ultimes and runes from
:mod:`akvo.rules`); :func:`percent` and :func:`points` write numbers with a decimal comma.
The pages' button labels (``akvo_widgets/text/labels.py``) say the same things and can delegate
here.
"""

from __future__ import annotations

from typing import Final

from akvo.coach.errors import CoachError
from akvo.config import DEFAULT_RULES, RulesConfig
from akvo.errors import AkvoError, excerpt
from akvo.match.actions import (
    SHIP_TOKENS,
    Activate,
    Choice,
    DeclareUltime,
    OrdersAction,
    PlayRune,
    Reroll,
    RestoreUltime,
    Roll,
    ShootAt,
    Weather,
    parse_action,
)
from akvo.match.board import CHAR_LABELS, CHEST, SHIP, SIDE_NAMES, UNITS
from akvo.rules import CHARACTERS, rune

NBSP: Final = "\u00a0"
#: The choices without arguments (:data:`akvo.match.actions.CHOICES`) in French.
CHOICE_WORDS: Final = {
    "keep": "garder les dés",
    "no rune": "ne jouer aucune rune",
    "no move": "tirer sans bouger",
    "advance": "avancer d’une case",
    "hold": "ne pas tirer",
    "no target": "ne pas tirer (aucune cible à portée)",
    "trident": "déclarer Trident (jusqu’à trois tirs)",
    "no trident": "tirer sans Trident",
    "rouleau": "déclarer Rouleau",
    "no rouleau": "ne pas déclarer Rouleau",
    "shoot again": "tirer encore (Trident)",
    "stop": "s’arrêter là",
    "move first": "avancer d’abord, puis tirer",
    "shot first": "tirer d’abord, puis avancer",
    "first barreur": "le Barreur tire en premier",
    "first lanceur": "le Lanceur tire en premier",
}
#: The ship's double token (:data:`akvo.match.actions.SHIP_TOKENS`) in French.
SHIP_TOKEN_WORDS: Final = (
    "avance deux fois",
    "tire deux fois (Barreur et Lanceur)",
    "avance et le Barreur tire",
    "avance et le Lanceur tire",
)
#: The lateral units of an ``orders`` action, in its order (units 0, 1, 3, 4).
LATERAL_UNITS: Final = (0, 1, 3, 4)
#: A lateral unit's only character (the ship, unit 2, has two).
_CHARACTER_OF_UNIT: Final = {0: 0, 1: 1, 3: 4, 4: 5}


def percent(p: float) -> str:
    """``0.4763`` → ``"47,6 %"`` (one decimal, decimal comma, no-break space)."""
    return f"{p * 100:.1f}".replace(".", ",") + f"{NBSP}%"


def points(x: float) -> str:
    """A win-chance difference in points (1 point = 1 %): ``0.123`` → ``"12,3 points"``."""
    sign = "−" if x < 0 else ""
    return (
        f"{sign}{abs(x) * 100:.1f}".replace(".", ",")
        + f"{NBSP}point"
        + ("s" if abs(x) >= 0.02 else "")
    )


def number(x: float, digits: int = 2) -> str:
    """A plain number with a decimal comma: ``0.35`` → ``"0,35"``."""
    return f"{x:.{digits}f}".replace(".", ",")


def side_words(side: int) -> str:
    return SIDE_NAMES[side]


def character_words(character: int) -> str:
    """The rulebook's name of a character: 4 → ``"Surfeur"``."""
    return CHAR_LABELS[character]


def unit_words(unit: int) -> str:
    """``"le Navire"`` or ``"le Surfeur"`` (a lateral unit is its one mage)."""
    return "le Navire" if unit == SHIP else f"le {CHAR_LABELS[_CHARACTER_OF_UNIT[unit]]}"


def mage_words(side: int, character: int) -> str:
    """``"le Surfeur de B"``."""
    return f"le {CHAR_LABELS[character]} de {SIDE_NAMES[side]}"


def ultime_words(character: int) -> str:
    """The Ultime of a character: 2 → ``"Égide"``."""
    return CHARACTERS[character].ultime.name


def rune_words(letter: str, rules: RulesConfig = DEFAULT_RULES) -> str:
    """``"la rune P (Pression, Attaque)"``; a letter outside the grimoire by itself."""
    try:
        found = rune(letter, rules)
    except AkvoError:
        return f"la rune {letter}"
    category = found.category.label
    named = found.name if found.name == category else f"{found.name}, {category}"
    return f"la rune {letter} ({named})"


def orders_words(orders: tuple[int, ...]) -> str:
    """A programme of orders: each lateral mage's token, then the ship's."""
    lateral = ", ".join(
        f"{unit_words(unit)} {'tire' if orders[unit] else 'avance'}" for unit in LATERAL_UNITS
    )
    return f"{lateral} ; le Navire {SHIP_TOKEN_WORDS[orders[SHIP]]}"


def action_words(action: str, side: int, rules: RulesConfig = DEFAULT_RULES) -> str:
    """An action of the engine's vocabulary as a French phrase (no capital, no final
    stop), ``side`` being the side that plays it (for « le Surfeur de B »).

    Raises :class:`~akvo.coach.errors.CoachError` for a string that is not an action."""
    try:
        parsed = parse_action(action)
    except AkvoError:
        raise CoachError(f"{excerpt(action)} is not an action of the engine") from None
    if isinstance(parsed, Choice):
        return CHOICE_WORDS[parsed.name]
    if isinstance(parsed, OrdersAction):
        return "les ordres : " + orders_words(parsed.orders)
    if isinstance(parsed, Activate):
        return f"activer {unit_words(parsed.unit)}"
    if isinstance(parsed, DeclareUltime):
        return f"déclarer l’Ultime {ultime_words(parsed.character)}"
    if isinstance(parsed, RestoreUltime):
        return (
            f"jouer la rune U pour rendre l’Ultime {ultime_words(parsed.character)} "
            f"({character_words(parsed.character)})"
        )
    if isinstance(parsed, PlayRune):
        return _rune_action(parsed, rules)
    if isinstance(parsed, ShootAt):
        souffle = f" avec {ultime_words(0)}" if parsed.souffle else ""
        if parsed.target == CHEST:
            return f"tirer sur le coffre{souffle}"
        return f"tirer sur {mage_words(1 - side, parsed.target)}{souffle}"
    if isinstance(parsed, Reroll):
        return f"relancer le dé n°{NBSP}{parsed.die}"
    if isinstance(parsed, Weather):
        return f"la météo favorise {SIDE_NAMES[parsed.side]}"
    assert isinstance(parsed, Roll)
    return roll_words(parsed.faces)


def _rune_action(parsed: PlayRune, rules: RulesConfig) -> str:
    named = rune_words(parsed.letter, rules)
    if parsed.kind == "rune":
        return f"jouer {named}"
    if parsed.kind == "move":
        return f"jouer {named} : avancer d’une case, puis tirer"
    if parsed.kind == "advance":
        return f"avancer de deux cases avec {named}"
    if parsed.kind == "rouleau":
        return f"déclarer Rouleau avec {named} : avancer de deux cases"
    return f"récupérer {named}"  # recover (prodige, R23)


def roll_words(faces: tuple[int, ...]) -> str:
    """The dice of a roll: ``(3, 5, 1)`` → ``"les dés 3, 5 et 1"``."""
    if len(faces) == 1:
        return f"le dé {faces[0]}"
    head = ", ".join(map(str, faces[:-1]))
    return f"les dés {head} et {faces[-1]}"


def capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


__all__ = [
    "CHOICE_WORDS",
    "SHIP_TOKENS",
    "UNITS",
    "action_words",
    "capitalised",
    "character_words",
    "mage_words",
    "number",
    "orders_words",
    "percent",
    "points",
    "roll_words",
    "rune_words",
    "side_words",
    "ultime_words",
    "unit_words",
]
