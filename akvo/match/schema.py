"""The match state's schema, declared once: every field of a state, a shot and a roll, with
its kind and its range.

The compiled classes take their slots from it (:mod:`akvo.match.core`), copying and JSON
walk it, saved states and records are checked against it (:mod:`akvo.match.records`) and
the scenario builder writes through it (:mod:`akvo.match.scenario`). Adding a field means a
line here and its default in the class's ``__init__``.

Compact layout (public, stable): ``rows[side * UNITS + unit]`` (:func:`unit_slot`),
``res[side * CHARS + character]`` and ``ult_uses`` likewise (:func:`mage_slot`),
``spent[side]`` and ``ult_used[side]`` bit masks (letter A = bit 0; character c = bit c),
``effects[side]`` bits of the turn-long Ultimes, ``bag`` = weather tokens left (A, B).
"""

from __future__ import annotations

from typing import Final

from akvo.config import CHOICES
from akvo.match.board import CHARS, FIRST_ROW, LAST_ROW, UNITS
from akvo.match.phases import Phase
from akvo.match.weather import TOKENS_PER_SIDE
from akvo.resolution import CHEST_OUTCOMES, DEFAULT_DICE, MAGE_OUTCOMES, MAX_RANGE, TRIDENT_SHOTS
from akvo.rules import LETTERS, MAX_RESILIENCE, TIE_BREAK_TURNS, TURNS, RuneCategory

CHANCE: Final = -1
TERMINAL: Final = -2
#: Every rune letter's bit (a ``spent`` mask).
ALL_LETTERS: Final = (1 << len(LETTERS)) - 1
#: The ends of a match (``reason``; empty while it goes on).
REASONS: Final = ("", "score", "half", "draw")
#: Outcome keys of a resolution (empty before the first).
OUTCOMES: Final = ("", *MAGE_OUTCOMES, *CHEST_OUTCOMES[1:])
#: Most points a side may hold in a saved state, most runes it may have played.
MAX_SCORE: Final = 999
MAX_RUNES_PLAYED: Final = 9999
#: Most times one Ultime can be used: once, then once per rune U (there is one per team).
MAX_ULTIME_USES: Final = 27
#: Ultime-effect bits, per side, for the current turn (R24).
EFFECT_TOURBILLON, EFFECT_EGIDE, EFFECT_VIGIE = 1, 2, 4
ALL_EFFECTS: Final = EFFECT_TOURBILLON | EFFECT_EGIDE | EFFECT_VIGIE

# --- the state -----------------------------------------------------------------------------
#: One int each: name → (lowest, highest).
STATE_INTS: Final = {
    "turn": (TURNS[0], TIE_BREAK_TURNS[-1]),
    "phase": (0, max(Phase)),
    "player": (TERMINAL, 1),  # 0 A, 1 B, CHANCE, TERMINAL
    "favoured": (-1, 1),  # the side the weather favours this turn, -1 before the draw
    "side": (-1, 1),  # the side activating (or programming) now
    "unit": (-1, UNITS - 1),  # the unit being activated
    "shots_done": (0, TRIDENT_SHOTS),  # shots taken in this activation
    "winner": (-1, 2),  # 0 A, 1 B, 2 draw, -1 not over
}
#: Lists of ints: name → (length, lowest, highest).
STATE_INT_LISTS: Final = {
    "rows": (2 * UNITS, FIRST_ROW, LAST_ROW),
    "res": (2 * CHARS, 0, MAX_RESILIENCE),  # Résilience
    "spent": (2, 0, ALL_LETTERS),  # spent rune letters, a bit mask per side
    "ult_used": (2, 0, (1 << CHARS) - 1),  # characters whose Ultime is not available
    "ult_uses": (2 * CHARS, 0, MAX_ULTIME_USES),  # how many times each Ultime was used
    "effects": (2, 0, ALL_EFFECTS),  # EFFECT_* bits active until the end of the turn
    "bag": (2, 0, TOKENS_PER_SIDE),  # weather tokens left favouring A, B (R8)
    "activated": (2, 0, (1 << UNITS) - 1),  # units activated this turn, a bit mask
    "scores": (2, 0, MAX_SCORE),
    "runes_spent_count": (2, 0, MAX_RUNES_PLAYED),  # runes played so far (statistics)
}
#: Short texts: name → the values allowed.
STATE_TEXTS: Final = {"reason": REASONS, "last_outcome": OUTCOMES}
#: Lists of texts (``legal`` is kept as a tuple): name → most entries.
STATE_TEXT_LISTS: Final = {"events": 100_000, "history": 100_000, "legal": 200}
STATE_BOOLS: Final = ("trident", "log")
#: Fields of their own shape, each read and written by name where it is used: the rules and
#: teams (saved as their text), the activation's ``orders`` and ``tasks``, the ``shot``, a
#: scenario's ``origin``; the ``rosters`` are derived from the teams and never saved.
STATE_STRUCTURED: Final = ("rules", "teams", "rosters", "orders", "tasks", "shot", "origin")
#: What the play used, counted where the engine decides and read by the lab's coverage
#: (:mod:`akvo.lab.coverage`): ``uses``, one list of ints laid out as below. Copied with the
#: state, never saved: a loaded or built state starts it at zero.
STATE_TALLIES: Final = ("uses",)
#: ``uses[USES_RUNES + side * RUNE_KINDS + category]``: runes played per side and category
#: (:data:`akvo.match.roster.CATEGORY_OF`; the rune U is the category Ultime).
USES_RUNES: Final = 0
RUNE_KINDS: Final = len(RuneCategory)
#: ``uses[USES_FAVOURED + side]``: regular turns (1–8) the weather favoured each side.
USES_FAVOURED: Final = 2 * RUNE_KINDS
#: ``uses[USES_SWITCHES + i]``: the moments the two readings of the rules switch ``i``
#: (:data:`akvo.config.CHOICES` order) part (:func:`akvo.match.core.rule_played`).
USES_SWITCHES: Final = USES_FAVOURED + 2
USES_LENGTH: Final = USES_SWITCHES + len(CHOICES)
STATE_FIELDS: Final = (
    *STATE_INTS,
    *STATE_INT_LISTS,
    *STATE_TEXTS,
    *STATE_TEXT_LISTS,
    *STATE_BOOLS,
    *STATE_STRUCTURED,
    *STATE_TALLIES,
)
#: Copied by reference (ints, texts, tuples, immutable objects, a scenario's setup).
SHARED_FIELDS: Final = (
    *STATE_INTS,
    *STATE_TEXTS,
    *STATE_BOOLS,
    "legal",
    "rules",
    "teams",
    "rosters",
    "origin",
)
#: Copied as new lists (their items are ints, strings, tuples or None).
COPIED_LISTS: Final = (*STATE_INT_LISTS, "events", "history", "orders", "tasks", *STATE_TALLIES)
#: Saved as they are (ints, texts, booleans), and saved as JSON lists.
SAVED_VALUES: Final = (*STATE_INTS, *STATE_TEXTS, *STATE_BOOLS)
SAVED_LISTS: Final = (*STATE_INT_LISTS, *STATE_TEXT_LISTS)
#: Names kept for the tests that list the fields by kind.
INT_FIELDS: Final = tuple(STATE_INTS)
LIST_FIELDS: Final = tuple(STATE_INT_LISTS)

# --- a shot and its rolls ------------------------------------------------------------------
SHOT_INTS: Final = {
    "side": (0, 1),
    "shooter": (0, CHARS - 1),
    "target": (-1, CHARS),  # 0–5 a mage, CHEST (6), -1 not chosen yet
    "distance": (0, MAX_RANGE),
    "defender": (-1, CHARS - 1),  # the defending mage (target or interceptor); -1 none
    "idist": (0, LAST_ROW),  # interception distance (chest shots)
    "att_cat": (-1, 5),  # the category of the rune played (akvo.match.roster), -1 none
    "def_cat": (-1, 5),
    "stage": (0, 1),  # 0 attack roll, 1 defence roll
    "relanced": (-1, DEFAULT_DICE),  # 0 undecided, i > 0 the die to reroll, -1 done
}
#: A rune letter, or empty.
SHOT_LETTERS: Final = ("att_rune", "def_rune")
SHOT_BOOLS: Final = ("souffle", "rouleau")
#: Of their own shape: the dice being rolled, the two finished rolls, the outcome key, the
#: prodiges to resolve as (side, character).
SHOT_STRUCTURED: Final = ("dice", "attack", "defence", "outcome", "pending")
SHOT_FIELDS: Final = (*SHOT_INTS, *SHOT_LETTERS, *SHOT_BOOLS, *SHOT_STRUCTURED)

ROLL_INTS: Final = {"total": (1, 60), "threshold": (1, 30)}
ROLL_BOOLS: Final = ("success", "critical", "prodige")
ROLL_FIELDS: Final = ("dice", *ROLL_INTS, *ROLL_BOOLS)


def unit_slot(side: int, unit: int) -> int:
    """Where a side's unit stands in ``rows``."""
    return side * UNITS + unit


def mage_slot(side: int, character: int) -> int:
    """Where a side's mage stands in ``res`` and ``ult_uses``."""
    return side * CHARS + character
