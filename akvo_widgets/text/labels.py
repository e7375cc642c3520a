"""French labels of the engine's actions, built from the engine's own names.

The engine speaks short English action strings (``shoot surfeur``, ``rune P``); the pages
show a French sentence per action. Character, Ultime and rune names come from
:mod:`akvo.rules` and :mod:`akvo.match.board`, never retyped here; shots, Ultimes, runes,
rerolls are worded by :func:`akvo.coach.words.action_words`, the coach's own phrases.
"""

from __future__ import annotations

from akvo.coach.words import action_words, capitalised
from akvo.match import MatchState
from akvo.match.board import CHAR_LABELS, CHAR_NAMES
from akvo.rules import CHARACTERS, rune

from .formatting import french

DICE_FACES = "⚀⚁⚂⚃⚄⚅"
#: The two sides of the rulebook's score sheet, one per camp.
SHEET_SIDES = ("Porte du Ciel", "Bord de Mer")
SHIP_LABEL = "navire"

#: The ship's double token (akvo.match.actions.SHIP_TOKENS) in French.
SHIP_TOKEN_LABELS = {
    "AA": "AA : le navire avance deux fois",
    "TT": "TT : le Barreur et le Lanceur tirent",
    "AT-B": "AT : le navire avance, le Barreur tire",
    "AT-L": "AT : le navire avance, le Lanceur tire",
}
LATERAL_LABELS = {"A": "Avancer", "T": "Tirer"}
#: The lanes of the four lateral tokens, in the order of an ``orders`` action.
LATERAL_CHARACTERS = ("pedalair", "kitesurfeur", "surfeur", "plongeur")


def face(value: int) -> str:
    """A die face as its Unicode picture: 3 → ``⚂``."""
    return DICE_FACES[value - 1]


def faces(action: str) -> str:
    """The dice of a chance action ``roll 3516`` as faces with their values."""
    digits = action.removeprefix("roll ")
    return " ".join(f"{face(int(d))}\u00a0{d}" for d in digits)


def character(name: str) -> str:
    """``"surfeur"`` → ``"Surfeur"`` (the rulebook's French name)."""
    return CHAR_LABELS[CHAR_NAMES.index(name)]


def unit(name: str) -> str:
    return f"le {SHIP_LABEL}" if name == SHIP_LABEL else f"le {character(name)}"


def ultime_of(name: str) -> str:
    """The Ultime of a character by its engine name: ``"barreur"`` → ``"Égide"``."""
    return CHARACTERS[CHAR_NAMES.index(name)].ultime.name


def rune_label(state: MatchState, letter: str) -> str:
    found = rune(letter, state.rules)
    category = found.category.label
    named = found.name if found.name == category else f"{found.name}, {category}"
    return f"rune {letter} ({named})"


def orders_label(text: str) -> str:
    """``"AATT AT-B"`` → the four lateral orders and the ship's token in French."""
    lateral, ship = text.split()
    lanes = ", ".join(
        f"{character(name)} {LATERAL_LABELS[token].lower()}"
        for name, token in zip(LATERAL_CHARACTERS, lateral, strict=True)
    )
    return f"{lanes} ; navire {SHIP_TOKEN_LABELS[ship]}"


_FIXED = {
    "hold": "Ne pas tirer",
    "no rune": "Pas de rune",
    "no move": "Tirer sans bouger",
    "advance": "Avancer d’une case",
    "keep": "Garder les dés",
    "trident": "Déclarer Trident (jusqu’à 3 tirs)",
    "no trident": "Tirer sans Trident",
    "rouleau": "Déclarer Rouleau",
    "no rouleau": "Sans Rouleau",
    "shoot again": "Tirer encore (Trident)",
    "stop": "S’arrêter là",
    "move first": "Avancer d’abord, puis tirer",
    "shot first": "Tirer d’abord, puis avancer",
    "first barreur": "Le Barreur tire en premier",
    "first lanceur": "Le Lanceur tire en premier",
}


def action_label(state: MatchState, action: str) -> str:
    """The French button text of one legal action of ``state`` (French spacing)."""
    return french(_raw_label(state, action))


#: The verbs whose label is :func:`akvo.coach.words.action_words`' phrase, capitalised (the
#: coach's explanations and the buttons then name these actions alike); the others keep a
#: button's shorter wording (the orders' grid, « Pas de rune », « Avancer de 2 cases »…).
WORDS_VERBS = frozenset({"shoot", "ultime", "reroll", "move", "recover"})


def _raw_label(state: MatchState, action: str) -> str:
    if action in _FIXED:
        return _FIXED[action]
    verb, _, rest = action.partition(" ")
    if verb in WORDS_VERBS or (verb == "rune" and " " not in rest):
        side = state.side if state.side in (0, 1) else 0
        return capitalised(action_words(action, side, state.rules))
    if verb == "orders":
        return "Ordres : " + orders_label(rest)
    if verb == "activate":
        return f"Activer {unit(rest)}"
    if verb == "rune" and " " in rest:
        letter, name = rest.split()
        return f"Jouer la {rune_label(state, letter)} : rendre {ultime_of(name)}"
    if verb == "advance":
        return f"Avancer de 2 cases avec la {rune_label(state, rest.lstrip('+'))}"
    if verb == "rouleau":  # variant rouleau_mouvement (R20)
        letter = rest.lstrip("+")
        return f"Déclarer Rouleau avec la {rune_label(state, letter)} : avancer de 2 cases"
    return action
