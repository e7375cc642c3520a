"""Luck and skill in a finished match, as GNU Backgammon separates them.

For each chance event of a record (a roll, a rerolled die, the weather token), its *luck*
for side A is the win chance after it minus the exact expected win chance over the event's
outcomes: every distinct outcome with its exact probability
(:func:`akvo.bots.lookahead.chance_branches` for the dice, grouped by what the engine reads
of them; :meth:`~akvo.match.MatchState.chance_outcomes` for the weather), each judged by
the learned evaluation. Its mean over the outcomes is 0 by construction: a control variate.
Side B's luck is the opposite (the evaluation is exactly antisymmetric).

Per side, « résultat = niveau de départ + chance + habileté »: the result (1 won, ½ drawn,
0 lost) is the starting win chance, plus the luck of every roll, plus the rest — the
skill (what the decisions, and the evaluation's own errors, moved). The luck-adjusted
result (result − luck) keeps the skill and drops part of the dice's noise: over 3,550
greedy matches its variance is 2.24× smaller than the raw result's
(``benchmarks/bench_luck.py``; the evaluation is not yet consistent enough along play for
more, see :mod:`akvo.eval.luck` and ``bench_luck.py --decompose``).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final

from akvo.bots.judge import Judge, evaluation_for
from akvo.bots.lookahead import chance_branches
from akvo.coach.words import action_words, percent, points
from akvo.match.core import CHANCE
from akvo.match.phases import WEATHER
from akvo.match.state import MatchState, replay

#: Rolls marked as the luckiest / unluckiest of a match (each side's).
MARKED: Final = 3


@dataclass(frozen=True, slots=True)
class RollLuck:
    """One chance event: ``coup`` (1-based index of the outcome in the record's actions),
    ``roller`` (the side whose roll it is; −1 for the weather), its ``words`` in French,
    side A's win chance before (the exact expectation over the outcomes) and after, and
    ``luck`` = after − before, for side A."""

    coup: int
    turn: int
    roller: int
    words: str
    before: float
    after: float

    @property
    def luck(self) -> float:
        return self.after - self.before

    def luck_for(self, side: int) -> float:
        return self.luck if side == 0 else -self.luck

    def to_dict(self) -> dict[str, Any]:
        return {
            "coup": self.coup,
            "turn": self.turn,
            "roller": "AB"[self.roller] if self.roller >= 0 else None,
            "words": self.words,
            "before": self.before,
            "after": self.after,
            "luck_a": self.luck,
        }


@dataclass(frozen=True)
class Luck:
    """The luck of every chance event of a match, and the result split per side."""

    rolls: tuple[RollLuck, ...]
    start: float  # side A's win chance before the first event
    result: float | None  # side A's result: 1, ½, 0; None for a match not finished

    def total(self, side: int) -> float:
        """The side's luck over the match (win-chance points as fractions)."""
        return sum(roll.luck_for(side) for roll in self.rolls)

    def start_for(self, side: int) -> float:
        return self.start if side == 0 else 1 - self.start

    def result_for(self, side: int) -> float | None:
        if self.result is None:
            return None
        return self.result if side == 0 else 1 - self.result

    def skill(self, side: int) -> float | None:
        """résultat − niveau de départ − chance."""
        result = self.result_for(side)
        return None if result is None else result - self.start_for(side) - self.total(side)

    def adjusted(self, side: int = 0) -> float | None:
        """The luck-adjusted result: result − luck."""
        result = self.result_for(side)
        return None if result is None else result - self.total(side)

    def luckiest(self, side: int, count: int = MARKED) -> tuple[RollLuck, ...]:
        """The events that helped ``side`` most (luck > 0), the most first."""
        good = [r for r in self.rolls if r.luck_for(side) > 0]
        return tuple(sorted(good, key=lambda r: (-r.luck_for(side), r.coup))[:count])

    def unluckiest(self, side: int, count: int = MARKED) -> tuple[RollLuck, ...]:
        bad = [r for r in self.rolls if r.luck_for(side) < 0]
        return tuple(sorted(bad, key=lambda r: (r.luck_for(side), r.coup))[:count])

    def sentence(self, side: int) -> str:
        """« résultat = niveau de départ + chance + habileté » in French for one side."""
        result, skill = self.result_for(side), self.skill(side)
        start, luck = self.start_for(side), self.total(side)
        camp = "AB"[side]
        if result is None or skill is None:
            return (
                f"Camp {camp} : niveau de départ {percent(start)}, chance {_signed(luck)} "
                "(partie non terminée)"
            )
        return (
            f"Camp {camp} : résultat {percent(result)} = niveau de départ {percent(start)} "
            f"+ chance {_signed(luck)} + habileté {_signed(skill)}"
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "start_a": self.start,
            "result_a": self.result,
            "luck": {camp: self.total(side) for side, camp in enumerate("AB")},
            "skill": {camp: self.skill(side) for side, camp in enumerate("AB")},
            "sentences": [self.sentence(side) for side in (0, 1)],
            "rolls": [roll.to_dict() for roll in self.rolls],
        }


def _signed(x: float) -> str:
    return ("+" if x >= 0 else "−") + points(abs(x))


def roller_of(state: MatchState) -> int:
    """The side whose roll it is at a chance node (−1: the weather)."""
    if state.phase == WEATHER or state.shot is None:
        return -1
    shot = state.shot
    return shot.side if shot.stage == 0 else 1 - shot.side


def _outcomes(state: MatchState) -> list[tuple[MatchState, Fraction]]:
    if state.phase == WEATHER:
        return [(state.child(action), p) for action, p in state.chance_outcomes()]
    return chance_branches(state)


def match_luck(record: object, judge: Judge | None = None) -> Luck:
    """The luck of every chance event of a match record (see the module). A record that
    is not a valid match raises the engine's :class:`~akvo.errors.RecordError`."""
    final = replay(record, log=False)
    assert isinstance(record, dict)
    judge = judge if judge is not None else evaluation_for(final.rules)
    state = replay({**record, "actions": []}, log=False)
    states: list[MatchState] = [state.copy()]
    events: list[tuple[int, int, int, int, str, list[Fraction]]] = []
    for index, action in enumerate(record["actions"]):
        if state.player == CHANCE:
            branches = _outcomes(state)
            first = len(states)
            states += [child for child, _ in branches]
            after = state.child(action)
            states.append(after)
            roller = roller_of(state)
            words = action_words(action, max(roller, 0), state.rules)
            events.append((index, first, state.turn, roller, words, [p for _, p in branches]))
        state.apply_action(action)
    chances = [float(c) for c in judge.win_chances(states, 0)]  # type: ignore[attr-defined]
    rolls = []
    for index, first, turn, roller, words, probabilities in events:
        count = len(probabilities)
        before = sum(float(p) * chances[first + i] for i, p in enumerate(probabilities))
        chance_after = chances[first + count]
        rolls.append(RollLuck(index + 1, turn, roller, words, before, chance_after))
    result = {"A": 1.0, "B": 0.0, "draw": 0.5}.get(final.result or "")
    return Luck(tuple(rolls), chances[0], result)


__all__ = ["MARKED", "Luck", "RollLuck", "match_luck", "roller_of"]
