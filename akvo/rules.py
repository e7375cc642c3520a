"""The rulebook's data, typed once: the Attack/Defence matrix, the wind schedule, the six
characters with their Ultimes, the 26-rune grimoire and the annex's preset teams.

Rulings are cited by id (see ``docs/rulings.md``).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from types import MappingProxyType
from typing import NamedTuple

from akvo.config import DEFAULT_RULES, RulesConfig
from akvo.errors import RulesError, excerpt, require_instance, require_int

TIERS = (1, 2, 3, 4)
DISTANCES = (1, 2, 3, 4)
TURNS = tuple(range(1, 9))
TIE_BREAK_TURNS = (9, 10)
LANES = tuple(range(1, 7))
ROWS = tuple(range(1, 9))
CRITICAL_MARGIN = 4  # R12: a critical beats the threshold by 4
MAX_RESILIENCE = 3
TIER_NUMERALS = {1: "I", 2: "II", 3: "III", 4: "IV"}


def critical_threshold(threshold: int) -> int:
    """R12: the total a roll needs for a critical (threshold + 4)."""
    return threshold + CRITICAL_MARGIN


def miles(distance: int) -> str:
    """A distance in the book's words (« 1 mile », « 3 miles »): a board cell is a mile."""
    return f"{distance} mile" + ("s" if distance > 1 else "")


class Thresholds(NamedTuple):
    """Thresholds read in the matrix: X (attack) and U (defence / interception)."""

    attack: int
    defence: int


# The matrix as printed ("X 12 U 12" …), rows by tier I–IV, columns by distance 1–4 miles.
_MATRIX: dict[int, tuple[Thresholds, ...]] = {
    1: (Thresholds(12, 12), Thresholds(14, 10), Thresholds(16, 8), Thresholds(18, 6)),
    2: (Thresholds(10, 14), Thresholds(12, 12), Thresholds(14, 10), Thresholds(16, 8)),
    3: (Thresholds(8, 16), Thresholds(10, 14), Thresholds(12, 12), Thresholds(14, 10)),
    4: (Thresholds(6, 18), Thresholds(8, 16), Thresholds(10, 14), Thresholds(12, 12)),
}


def _check_int(name: str, value: object, allowed: tuple[int, ...]) -> int:
    number = require_int(name, value, RulesError)
    if number not in allowed:
        raise RulesError(
            f"{name} {number} is outside the rulebook's range {allowed[0]}–{allowed[-1]}"
        )
    return number


def thresholds(tier: int, distance: int) -> Thresholds:
    """(attack, defence) thresholds for wind tier 1–4 and shot distance 1–4."""
    _check_int("tier", tier, TIERS)
    _check_int("distance", distance, DISTANCES)
    return _MATRIX[tier][distance - 1]


def tier_for_turn(turn: int) -> int:
    """Wind tier of a turn (R7): lighthouse level = turn, tier = ⌈level/2⌉; turns 9–10 are IV."""
    _check_int("turn", turn, TURNS + TIE_BREAK_TURNS)
    return 4 if turn > 8 else (turn + 1) // 2


def lighthouse_level(turn: int) -> int:
    """Lighthouse level of a turn (R7): turn t sets level t; tie-break turns stay at 8."""
    _check_int("turn", turn, TURNS + TIE_BREAK_TURNS)
    return min(turn, 8)


# --- Characters and Ultimes -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Ultime:
    """A character's once-per-match power (R24)."""

    name: str
    timing: str
    effect: str


class Character(enum.Enum):
    """The six characters, valued by their lane (R1)."""

    PEDALAIR = 1
    KITESURFEUR = 2
    BARREUR = 3
    LANCEUR = 4
    SURFEUR = 5
    PLONGEUR = 6

    @property
    def lane(self) -> int:
        return int(self.value)

    @property
    def label(self) -> str:
        """French name, as printed in the rulebook."""
        return _CHARACTER_LABELS[self]

    @property
    def role(self) -> str:
        """Name on the score sheet (Aérologue, Kiteur…)."""
        return _CHARACTER_ROLES[self]

    @property
    def ultime(self) -> Ultime:
        return ULTIMES[self]

    @property
    def is_central(self) -> bool:
        """Barreur and Lanceur share the ship (R1)."""
        return self in (Character.BARREUR, Character.LANCEUR)

    @classmethod
    def from_lane(cls, lane: int) -> Character:
        _check_int("lane", lane, LANES)
        return cls(lane)

    @classmethod
    def from_name(cls, name: str) -> Character:
        """Look a character up by enum name, French label or score-sheet role, any case."""
        wanted = _fold(str.__str__(name)) if isinstance(name, str) else None
        for character in cls:
            if wanted in {_fold(character.name), _fold(character.label), _fold(character.role)}:
                return character
        raise RulesError(f"unknown character {excerpt(name)}; expected one of {_names(cls)}")


def fold(text: str) -> str:
    """Lower case without French accents: the key form of a name (``Égide`` → ``egide``)."""
    table = str.maketrans("éèêàâôûîçö", "eeeaaouico")
    return text.strip().lower().translate(table)


_fold = fold


def _names(cls: type[Character]) -> str:
    return ", ".join(c.label for c in cls)


_CHARACTER_LABELS = {
    Character.PEDALAIR: "Pédalair",
    Character.KITESURFEUR: "Kitesurfeur",
    Character.BARREUR: "Barreur",
    Character.LANCEUR: "Lanceur",
    Character.SURFEUR: "Surfeur",
    Character.PLONGEUR: "Plongeur",
}
_CHARACTER_ROLES = {
    Character.PEDALAIR: "Aérologue",
    Character.KITESURFEUR: "Kiteur",
    Character.BARREUR: "Capitaine",
    Character.LANCEUR: "Elfe",
    Character.SURFEUR: "Surfeur",
    Character.PLONGEUR: "Atlante",
}
CHARACTERS: tuple[Character, ...] = tuple(Character)
CENTRAL_CHARACTERS = (Character.BARREUR, Character.LANCEUR)

ULTIMES: MappingProxyType[Character, Ultime] = MappingProxyType(
    {
        Character.PEDALAIR: Ultime(
            "Souffle portant",
            "just before an allied shot",
            "the shot's distance is reduced by 2 (minimum 1)",
        ),
        Character.KITESURFEUR: Ultime(
            "Tourbillon",
            "when its side is about to activate a unit; until the end of the turn",
            "any opponent attacking the Kitesurfeur or defending against its shot"
            " rolls 1 die fewer",
        ),
        Character.BARREUR: Ultime(
            "Égide",
            "when its side is about to activate a unit; until the end of the turn",
            "all allies get +1 to defence",
        ),
        Character.LANCEUR: Ultime(
            "Vigie",
            "when its side is about to activate a unit; until the end of the turn",
            "all allies get +1 to attack",
        ),
        Character.SURFEUR: Ultime(
            "Rouleau",
            "when the Surfeur's shot pushes the enemy Surfeur of its lane",
            "the Surfeur may advance 1 cell at once",
        ),
        Character.PLONGEUR: Ultime(
            "Trident",
            "when the Plongeur activates with a Tirer order",
            "up to 3 shots instead of 1, at mages only",
        ),
    }
)


# --- Runes --------------------------------------------------------------------------------


class RuneCategory(enum.Enum):
    """What a rune does (R19–R20)."""

    ATTAQUE = "attaque"
    DEFENSE = "defense"
    CONFUSION = "confusion"
    RELANCE = "relance"
    MOUVEMENT = "mouvement"
    ULTIME = "ultime"

    @property
    def label(self) -> str:
        return _CATEGORY_LABELS[self]


_CATEGORY_LABELS = {
    RuneCategory.ATTAQUE: "Attaque",
    RuneCategory.DEFENSE: "Défense",
    RuneCategory.CONFUSION: "Confusion",
    RuneCategory.RELANCE: "Relance",
    RuneCategory.MOUVEMENT: "Mouvement",
    RuneCategory.ULTIME: "Ultime",
}


@dataclass(frozen=True, slots=True)
class Rune:
    """One rune of the grimoire: its letter, name, printed symbol and category."""

    letter: str
    name: str
    symbol: str
    category: RuneCategory


# The grimoire as printed: letter → (name, symbol).
_GRIMOIRE: dict[str, tuple[str, str]] = {
    "A": ("Accalmie", "U"),
    "B": ("Bouée", "U"),
    "C": ("Coquillage", "U"),
    "D": ("Dépression", "U"),
    "E": ("Egide", "U"),
    "F": ("Feu d’Anthelme", "@"),
    "G": ("Glaciation", "@"),
    "H": ("Houle", "@"),
    "I": ("Ignacorpe", "#"),
    "J": ("Jalon", "#"),
    "K": ("Karma", "#"),
    "L": ("Laminaire", "#"),
    "M": ("Maelstörm", "#"),
    "N": ("Narval", "X"),
    "O": ("Opacité", "X"),
    "P": ("Pression", "X"),
    "Q": ("Queue de poisson", "X"),
    "R": ("Rafale", "X"),
    "S": ("Siphon", "@"),
    "T": ("Thermique", "@"),
    "U": ("Ultime", "O"),
    "V": ("Volirune", "→"),
    "W": ("Winch", "→"),
    "X": ("Xénope", "→"),
    "Y": ("Ychtus", "→"),
    "Z": ("Zéphyr", "→"),
}
LETTERS = tuple(_GRIMOIRE)

# R19: X and U are the matrix's own letters; @/# is a reading, swappable as a variant.
_STANDARD_SYMBOLS = {
    "X": RuneCategory.ATTAQUE,
    "U": RuneCategory.DEFENSE,
    "@": RuneCategory.CONFUSION,
    "#": RuneCategory.RELANCE,
    "→": RuneCategory.MOUVEMENT,
    "O": RuneCategory.ULTIME,
}
_SYMBOL_CATEGORY = {
    "standard": _STANDARD_SYMBOLS,
    "swapped": {**_STANDARD_SYMBOLS, "@": RuneCategory.RELANCE, "#": RuneCategory.CONFUSION},
}


def _build_grimoire(reading: str) -> MappingProxyType[str, Rune]:
    categories = _SYMBOL_CATEGORY[reading]
    return MappingProxyType(
        {
            letter: Rune(letter, name, symbol, categories[symbol])
            for letter, (name, symbol) in _GRIMOIRE.items()
        }
    )


_GRIMOIRES = {reading: _build_grimoire(reading) for reading in _SYMBOL_CATEGORY}
GRIMOIRE = _GRIMOIRES["standard"]


def grimoire(rules: RulesConfig = DEFAULT_RULES) -> MappingProxyType[str, Rune]:
    """Letter → :class:`Rune` under the R19 reading chosen in ``rules``."""
    return _GRIMOIRES[require_instance("rules", rules, RulesConfig, RulesError).grimoire]


def rune(letter: str, rules: RulesConfig = DEFAULT_RULES) -> Rune:
    """The rune of a letter (any case)."""
    wanted = str.__str__(letter).upper() if isinstance(letter, str) else ""
    if wanted not in _GRIMOIRE:
        raise RulesError(f"{excerpt(letter)} is not a rune letter (A–Z)")
    return grimoire(rules)[wanted]


def runes_in(category: RuneCategory, rules: RulesConfig = DEFAULT_RULES) -> tuple[Rune, ...]:
    """All runes of a category, in alphabetical order."""
    category = require_instance("category", category, RuneCategory, RulesError)
    return tuple(r for r in grimoire(rules).values() if r.category is category)


# --- Preset teams (annex) ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PresetTeam:
    """A team of the annex, as printed (see R28 for the three identical lists)."""

    key: str
    name: str
    strategy: str
    team_list: str


PRESET_TEAMS: MappingProxyType[str, PresetTeam] = MappingProxyType(
    {
        t.key: t
        for t in (
            PresetTeam(
                "perrockiss",
                "Équipe Perrockiss",
                "stratégie offensive",
                "L E G S / V U N F / J A C K / Z B I M / P Y T H / D R O X + Q W",
            ),
            PresetTeam(
                "tortues-carets",
                "Équipe des Tortues Carets",
                "stratégie défensive",
                "F L E X / C R O Q / M Y T H / B I D Z / P U N K / J A W S + V G",
            ),
            PresetTeam(
                "foufous",
                "Équipe des Foufous",
                "stratégie de confusion",
                "F L E X / C R O Q / M Y T H / B I D Z / P U N K / J A W S + V G",
            ),
            PresetTeam(
                "iragwak",
                "Équipe Iragwak",
                "stratégie mobile",
                "F L E X / C R O Q / M Y T H / B I D Z / P U N K / J A W S + V G",
            ),
            PresetTeam(
                "fish-tank",
                "Fish Tank",
                "défense aérienne",
                "FISH\nTANK\nCLOX\nBEWZ\nGUYD\nPJQV",
            ),
            PresetTeam(
                "pink-star",
                "Pink Star",
                "attaque sous-marine",
                "GYMB\nCHUL\nFOQZ\nDEJV\nPINK\nSTAR",
            ),
        )
    }
)
# R28: the annex prints one list under three strategies — a probable misprint.
DUPLICATED_PRESETS = ("tortues-carets", "foufous", "iragwak")
