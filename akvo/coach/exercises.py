"""Exercises made from a player's own mistakes, on a spaced schedule (« Vos erreurs »).

:func:`mistake_exercises` turns every « erreur » and « gaffe » of one side in a review
(:mod:`akvo.coach.review`) into an :class:`Exercise`: the position (the record up to it),
the options that beat the mistake by at least :data:`~akvo.coach.rating.SMALLEST_LOSS`
(any of them is a right answer), the best one and the refutation in French.

The schedule is pure: a :class:`Card` per exercise says when it is due; a right answer
sends it :data:`INTERVALS` days further (1, then 3, then 7), a wrong one back to tomorrow,
and it retires once answered right :data:`RIGHT_TO_RETIRE` times. :func:`merge` joins two
sets of one player (two browsers, or a browser and the server's copy) without losing an
exercise or an answer. :func:`export_json` /
:func:`import_json` keep both in a file; an import checks everything (sizes, types, dates,
the record replayed by the engine, the answers legal at the position) and refuses hostile
input with :class:`~akvo.coach.errors.CoachError` or the engine's
:class:`~akvo.errors.RecordError`, nothing half-read.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from dataclasses import dataclass, fields, replace
from typing import Any, Final

from akvo.coach.errors import CoachError
from akvo.coach.rating import SMALLEST_LOSS
from akvo.coach.review import Review
from akvo.errors import excerpt
from akvo.match.state import MatchState, replay

#: Days until an exercise comes back after its 1st, 2nd, 3rd… right answer.
INTERVALS: Final = (1, 3, 7)
RIGHT_TO_RETIRE: Final = 2
#: The verdicts that make an exercise.
MISTAKES: Final = ("erreur", "gaffe")
FORMAT: Final = "akvo-exercices-1"
MAX_FILE_CHARS: Final = 2_000_000
MAX_EXERCISES: Final = 500


@dataclass(frozen=True, slots=True)
class Exercise:
    """One mistake to find again: ``record`` leads to the position (its actions stop just
    before the mistake), ``better`` are the right answers, ``refutation`` says why."""

    id: str
    coup: int
    side: int
    verdict: str
    record: dict[str, Any]
    chosen: str
    best: str
    better: tuple[str, ...]
    question: str
    refutation: str

    def position(self) -> MatchState:
        """The position to play from (the engine replays the record)."""
        return replay(self.record, log=False)

    def is_right(self, action: str) -> bool:
        return action in self.better

    def to_dict(self) -> dict[str, Any]:
        """Every field, as the exported file spells it: the side as its letter, ``better``
        as a list (:func:`import_json` reads it back)."""
        fields_ = {f.name: getattr(self, f.name) for f in fields(self)}
        return {**fields_, "side": "AB"[self.side], "better": list(self.better)}


@dataclass(frozen=True, slots=True)
class Card:
    """When exercise ``id`` is due, how many right answers it has, and its step."""

    id: str
    due: dt.date
    right: int = 0
    step: int = 0

    @property
    def retired(self) -> bool:
        return self.right >= RIGHT_TO_RETIRE

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "due": self.due.isoformat(), "right": self.right, "step": self.step}


def exercise_id(record: dict[str, Any], coup: int) -> str:
    """An exercise's identity: its position (the record up to it and the decision's number)."""
    text = json.dumps(record, sort_keys=True, ensure_ascii=True) + f"#{coup}"
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def mistake_exercises(done: Review, side: object) -> tuple[Exercise, ...]:
    """The « erreur » and « gaffe » decisions of ``side`` ("A" or "B") as exercises."""
    if side not in ("A", "B"):
        raise CoachError(f"side must be 'A' or 'B', got {excerpt(side)}")
    index = "AB".index(str(side))
    out = []
    for row in done.decisions:
        if row.side != index or row.verdict not in MISTAKES:
            continue
        chosen = row.values[row.chosen]
        better = tuple(o.action for o in row.values if o.p - chosen.p >= SMALLEST_LOSS)
        prefix = {**done.record, "actions": done.record["actions"][: row.coup - 1]}
        question = (
            f"Tour {row.turn}, camp {side} : vous aviez choisi « {chosen.words} ». "
            "Trouvez une meilleure option."
        )
        out.append(
            Exercise(
                exercise_id(prefix, row.coup),
                row.coup,
                index,
                str(row.verdict),
                prefix,
                row.chosen,
                row.best,
                better,
                question,
                row.explanation(),
            )
        )
    return tuple(out)


# --- the schedule ---------------------------------------------------------------------------


def new_cards(exercises: tuple[Exercise, ...], today: dt.date) -> tuple[Card, ...]:
    """A card per exercise, each due ``today``."""
    return tuple(Card(exercise.id, today) for exercise in exercises)


def due(cards: tuple[Card, ...], today: dt.date) -> tuple[str, ...]:
    """The ids of the cards due on ``today`` (or overdue), not retired."""
    return tuple(card.id for card in cards if not card.retired and card.due <= today)


def answer(cards: tuple[Card, ...], exercise: str, right: bool, today: dt.date) -> tuple[Card, ...]:
    """The cards once ``exercise`` is answered on ``today``: right → due
    :data:`INTERVALS`\\ [step] days later (one more right answer, one step further); wrong →
    due tomorrow, back to the first step."""
    if not any(card.id == exercise for card in cards):
        raise CoachError(f"no exercise {excerpt(exercise)} in this schedule")
    out = []
    for card in cards:
        if card.id != exercise:
            out.append(card)
        elif right:
            days = INTERVALS[min(card.step, len(INTERVALS) - 1)]
            out.append(
                Card(card.id, today + dt.timedelta(days=days), card.right + 1, card.step + 1)
            )
        else:
            out.append(replace(card, due=today + dt.timedelta(days=1), step=0))
    return tuple(out)


# --- two sets of one player -----------------------------------------------------------------

#: A player's set: the exercises and their cards.
Kept = tuple[tuple[Exercise, ...], tuple[Card, ...]]


def progress(card: Card) -> tuple[int, dt.date, int]:
    """How far a card has come: more right answers first, then the later due date (every
    answer moves the date past the day it was given), then the step."""
    return card.right, card.due, card.step


def merge(first: Kept, second: Kept, limit: int = MAX_EXERCISES) -> Kept:
    """One set from two of the same player: every exercise of either (one exercise per
    position: where both hold it, the one whose file text sorts first, so that the order of
    the two sets does not matter) with its more advanced card (:func:`progress`).

    The result is canonical (exercises by id, cards by due date then id), so the merge is
    commutative, associative and idempotent. Beyond ``limit`` exercises (an import's cap),
    retired ones leave first, then the highest ids."""
    exercises: dict[str, Exercise] = {}
    for exercise in (*first[0], *second[0]):
        held = exercises.setdefault(exercise.id, exercise)
        if held != exercise and _text_of(exercise) < _text_of(held):
            exercises[exercise.id] = exercise
    cards: dict[str, Card] = {}
    for card in (*first[1], *second[1]):
        held_card = cards.setdefault(card.id, card)
        if progress(card) > progress(held_card):
            cards[card.id] = card
    kept = sorted(exercises, key=lambda i: (i in cards and cards[i].retired, i))[:limit]
    return (
        tuple(exercises[i] for i in sorted(kept)),
        tuple(sorted((cards[i] for i in kept if i in cards), key=lambda c: (c.due, c.id))),
    )


def _text_of(exercise: Exercise) -> str:
    return json.dumps(exercise.to_dict(), sort_keys=True, ensure_ascii=False)


# --- the file -------------------------------------------------------------------------------


def export_json(exercises: tuple[Exercise, ...], cards: tuple[Card, ...]) -> str:
    return json.dumps(
        {
            "format": FORMAT,
            "exercises": [e.to_dict() for e in exercises],
            "cards": [c.to_dict() for c in cards],
        },
        ensure_ascii=False,
        sort_keys=True,
    )


def _field(data: dict[str, Any], name: str, kind: type, where: str) -> Any:
    value = data.get(name)
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise CoachError(f"{where}: {name} must be a {kind.__name__}, got {excerpt(value)}")
    return value


def _text(data: dict[str, Any], name: str, where: str, limit: int = 4000) -> str:
    value = _field(data, name, str, where)
    if len(value) > limit:
        raise CoachError(f"{where}: {name} is longer than {limit} characters")
    return str(value)


def _exercise(data: object, n: int) -> Exercise:
    where = f"exercise {n}"
    if not isinstance(data, dict):
        raise CoachError(f"{where} must be an object, got {excerpt(data)}")
    record = _field(data, "record", dict, where)
    position = replay(record, log=False)  # the engine's RecordError names a bad record
    coup = _field(data, "coup", int, where)
    if coup != len(record.get("actions", [])) + 1:
        raise CoachError(f"{where}: coup {coup} is not the position its record leads to")
    side = _text(data, "side", where, 1)
    if side not in ("A", "B") or position.player != "AB".index(side):
        raise CoachError(f"{where}: side {excerpt(side)} does not decide at this position")
    actions = [_text(data, name, where, 80) for name in ("chosen", "best")]
    better = _field(data, "better", list, where)
    for action in [*actions, *better]:
        if not isinstance(action, str) or action not in position.legal:
            raise CoachError(f"{where}: {excerpt(action)} is not a legal option there")
    verdict = _text(data, "verdict", where, 20)
    if verdict not in MISTAKES:
        raise CoachError(f"{where}: verdict must be one of {MISTAKES}, got {excerpt(verdict)}")
    identity = _text(data, "id", where, 16)
    if identity != exercise_id(record, coup):
        raise CoachError(f"{where}: id {excerpt(identity)} does not match its position")
    return Exercise(
        identity,
        coup,
        "AB".index(side),
        verdict,
        record,
        actions[0],
        actions[1],
        tuple(better),
        _text(data, "question", where),
        _text(data, "refutation", where),
    )


def _card(data: object, n: int, known: set[str]) -> Card:
    where = f"card {n}"
    if not isinstance(data, dict):
        raise CoachError(f"{where} must be an object, got {excerpt(data)}")
    identity = _text(data, "id", where, 16)
    if identity not in known:
        raise CoachError(f"{where}: no exercise {excerpt(identity)} in this file")
    try:
        when = dt.date.fromisoformat(_text(data, "due", where, 10))
    except ValueError:
        raise CoachError(f"{where}: due must be a date YYYY-MM-DD") from None
    right = _field(data, "right", int, where)
    step = _field(data, "step", int, where)
    if not 0 <= right <= RIGHT_TO_RETIRE or not 0 <= step <= 100:
        raise CoachError(f"{where}: right must be 0–{RIGHT_TO_RETIRE} and step 0–100")
    return Card(identity, when, right, step)


def import_json(text: object) -> tuple[tuple[Exercise, ...], tuple[Card, ...]]:
    """Exercises and cards from :func:`export_json`'s text, every field checked (see the
    module); anything wrong raises :class:`CoachError` (or :class:`RecordError`)."""
    if not isinstance(text, str):
        raise CoachError(f"an exercises file is text, got {type(text).__name__}")
    if len(text) > MAX_FILE_CHARS:
        raise CoachError(f"an exercises file is at most {MAX_FILE_CHARS} characters")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise CoachError(f"not an exercises file: {excerpt(str(error))}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise CoachError(f"not an exercises file (format {FORMAT!r} expected)")
    items = _field(data, "exercises", list, "the file")
    if len(items) > MAX_EXERCISES:
        raise CoachError(f"at most {MAX_EXERCISES} exercises in a file, got {len(items)}")
    exercises = tuple(_exercise(item, n) for n, item in enumerate(items, 1))
    known = {e.id for e in exercises}
    cards_data = _field(data, "cards", list, "the file")
    cards = tuple(_card(item, n, known) for n, item in enumerate(cards_data, 1))
    if len({c.id for c in cards}) != len(cards):
        raise CoachError("two cards for the same exercise")
    return exercises, cards


__all__ = [
    "INTERVALS",
    "RIGHT_TO_RETIRE",
    "Card",
    "Exercise",
    "Kept",
    "answer",
    "due",
    "exercise_id",
    "export_json",
    "import_json",
    "merge",
    "mistake_exercises",
    "new_cards",
    "progress",
]
