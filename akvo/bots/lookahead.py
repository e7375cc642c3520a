"""Exact lookahead over the dice: each action's value as an expectation over the distinct
chance outcomes, with the evaluation at the leaves.

From a decision node, each legal action is applied to a copy, and play goes on to the end
of the current activation (the next ``activate`` or ``orders`` decision of another
activation, the next turn's weather, or the end of the match): the remaining decisions are
the greedy bot's, every chance node is expanded over its outcomes with their exact
probabilities. A roll is not expanded over its 6ⁿ ordered faces: the outcomes are grouped
by what the engine reads of them — success, critical success, prodige (R12, R13) — or by
multiset of faces when a Relance decision follows (R15: which die to reroll depends on the
faces), and the successors that end up in the same position (:func:`signature`) are
merged, their probabilities added. ``cap`` bounds the chance nodes expanded per action;
beyond it the frontier is evaluated as it stands.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import cache
from typing import Any, Final

from akvo.bots.greedy import GreedyBot
from akvo.bots.judge import Judge
from akvo.match.core import CHANCE, TERMINAL, Roll, StateCore
from akvo.match.phases import ACTIVATE, ORDERS, RELANCE, REROLL, WEATHER
from akvo.match.roster import RELANCE as RELANCE_RUNE
from akvo.match.shooting import roll_dice, roll_target
from akvo.match.state import MatchState
from akvo.resolution import is_critical, is_prodige, is_success

#: Chance nodes expanded per action by default.
DEFAULT_CAP: Final = 40
_REROLLS: Final = tuple((f"roll {face}", Fraction(1, 6)) for face in range(1, 7))


@cache
def flag_classes(
    dice: int, modifier: int, threshold: int, prodige_rule: str
) -> tuple[tuple[str, Fraction], ...]:
    """The rolls of ``dice`` dice grouped by what the engine reads of them — success,
    critical success, prodige (R12, R13) — each class as a representative roll and its
    exact probability."""
    counts: dict[tuple[bool, bool, bool], list[Any]] = {}
    for faces in itertools.product(range(1, 7), repeat=dice):
        total = sum(faces) + modifier
        key = (
            is_success(total, threshold),
            is_critical(total, threshold),
            is_prodige(list(faces), prodige_rule),
        )
        entry = counts.setdefault(key, ["roll " + "".join(map(str, faces)), 0])
        entry[1] += 1
    return tuple((action, Fraction(n, 6**dice)) for action, n in counts.values())


@cache
def multisets(dice: int) -> tuple[tuple[str, Fraction], ...]:
    """The rolls of ``dice`` dice by multiset of faces (sorted), with exact probabilities:
    when a Relance follows, which die to reroll depends on the faces."""
    counts: dict[tuple[int, ...], int] = {}
    for faces in itertools.product(range(1, 7), repeat=dice):
        key = tuple(sorted(faces))
        counts[key] = counts.get(key, 0) + 1
    return tuple(
        ("roll " + "".join(map(str, faces)), Fraction(n, 6**dice)) for faces, n in counts.items()
    )


def _roll_signature(roll: Roll | None) -> tuple[bool, bool, bool] | None:
    return None if roll is None else (roll.success, roll.critical, roll.prodige)


def signature(s: StateCore) -> tuple[Any, ...]:
    """What play from ``s`` depends on (not the log, the history, nor the faces of a roll
    already read): two successors with equal signatures are the same position."""
    shot = s.shot
    shot_part: tuple[Any, ...] = ()
    if shot is not None:
        # Relance reads the faces (which die to reroll: any of equal faces, the same
        # choice); a reroll reads the faces kept and which one goes.
        phase = s.phase
        faces: tuple[int, ...] = ()
        if phase == RELANCE:
            faces = tuple(sorted(shot.dice))
        elif phase == REROLL:
            faces = (*shot.dice, shot.relanced)
        shot_part = (
            shot.side,
            shot.shooter,
            shot.target,
            shot.souffle,
            shot.defender,
            shot.stage,
            shot.relanced,
            shot.outcome,
            shot.att_rune,
            shot.def_rune,
            tuple(shot.pending),
            shot.rouleau,
            _roll_signature(shot.attack),
            _roll_signature(shot.defence),
            faces,
        )
    return (
        s.phase,
        s.player,
        s.turn,
        s.side,
        s.unit,
        s.shots_done,
        s.trident,
        s.winner,
        tuple(s.rows),
        tuple(s.res),
        tuple(s.spent),
        tuple(s.ult_used),
        tuple(s.effects),
        tuple(s.scores),
        tuple(s.activated),
        tuple(s.tasks),
        tuple(s.bag),
        shot_part,
    )


def chance_branches(state: MatchState) -> list[tuple[MatchState, Fraction]]:
    """The distinct successors of a roll or reroll node with their exact probabilities
    (they sum to 1), each a new state."""
    shot = state.shot
    assert shot is not None
    if state.phase == REROLL:
        outcomes: Sequence[tuple[str, Fraction]] = _REROLLS
    elif (shot.att_cat if shot.stage == 0 else shot.def_cat) == RELANCE_RUNE:
        outcomes = multisets(roll_dice(state))  # a Relance decision follows
    else:
        modifier, threshold = roll_target(state)
        outcomes = flag_classes(roll_dice(state), modifier, threshold, state.rules.prodige)
    merged: dict[tuple[Any, ...], tuple[MatchState, Fraction]] = {}
    for action, p in outcomes:
        child = state.copy()
        child.apply_action(action)
        key = signature(child)
        known = merged.get(key)
        merged[key] = (child, p if known is None else known[1] + p)
    return list(merged.values())


def activation_mark(state: StateCore) -> tuple[int, int, int]:
    """The turn and the units each side has activated: it changes when an activation ends."""
    return (state.turn, state.activated[0], state.activated[1])


class Lookahead:
    """Values of a decision's actions for the side deciding (see the module)."""

    def __init__(self, policy: Callable[[MatchState], str] | None = None, cap: int = DEFAULT_CAP):
        self.policy = policy if policy is not None else GreedyBot(0)
        self.cap = cap

    def leaves(
        self, start: MatchState, mark: tuple[int, int, int]
    ) -> list[tuple[MatchState, float]]:
        """The positions where the lookahead from ``start`` (changed in place) stops, with
        their probabilities."""
        out: list[tuple[MatchState, float]] = []
        stack = [(start, 1.0)]
        expanded = 0
        policy = self.policy
        while stack:
            state, p = stack.pop()
            while True:
                player = state.player
                if player == TERMINAL:
                    out.append((state, p))
                    break
                if player == CHANCE:
                    if state.phase == WEATHER or expanded >= self.cap:
                        out.append((state, p))
                        break
                    expanded += 1
                    stack.extend((child, p * float(q)) for child, q in chance_branches(state))
                    break
                if state.phase in (ACTIVATE, ORDERS) and activation_mark(state) != mark:
                    out.append((state, p))
                    break
                state.apply_action(policy(state))
        return out

    def values(
        self, state: MatchState, judge: Judge, actions: Sequence[str] | None = None
    ) -> list[float]:
        """The expected win chance of the side deciding at ``state`` after each action."""
        side = state.player
        mark = activation_mark(state)
        actions = state.legal if actions is None else actions
        spans: list[tuple[int, int]] = []
        leaves: list[MatchState] = []
        weights: list[float] = []
        for action in actions:
            child = state.copy()
            child.log = False
            child.apply_action(action)
            found = self.leaves(child, mark)
            spans.append((len(leaves), len(leaves) + len(found)))
            leaves += [leaf for leaf, _ in found]
            weights += [p for _, p in found]
        chances = list(judge.win_chances(leaves, side))  # type: ignore[call-overload]
        return [
            sum(w * float(c) for w, c in zip(weights[a:b], chances[a:b], strict=True))
            for a, b in spans
        ]
