"""« Exercices » draws its positions from real play (issue 36.4): matches between the ladder's
bots kept by :mod:`akvo_widgets.play.ladder_positions`, at the turn the question names, with
the Ultimes and runes such matches have spent by then."""

from __future__ import annotations

import random
import re
from collections import defaultdict

import pytest

from akvo.bots import LADDER, make_bot
from akvo.match import MatchState, decisions, new_match, replay
from akvo_widgets.play.exercises import make_exercise, source_text
from akvo_widgets.play.ladder_positions import (
    COMMAND,
    KeptMatch,
    decision_nodes,
    kept_matches,
    pairings,
    play,
)
from akvo_widgets.text.formatting import french

NUMBERS = range(1, 41)
TURN = re.compile(r"^Tour (\d+) —")

Spent = tuple[int, int]  # (Ultimes spent, runes spent), both sides together


def spent(state: MatchState) -> Spent:
    ultimes = sum(bin(mask).count("1") for mask in state.ult_used)
    runes = sum(bin(mask).count("1") for mask in state.spent)
    return ultimes, runes


def envelopes(skip: int | None = None) -> dict[int, tuple[Spent, Spent]]:
    """Per turn, the least and the most Ultimes and runes spent at any decision of that
    turn in the kept matches (but the ``skip``-th one)."""
    seen: dict[int, list[Spent]] = defaultdict(list)
    for index, match in enumerate(kept_matches()):
        if index != skip:
            for node in decision_nodes(match):
                seen[node.turn].append(spent(node))
    return {
        turn: (
            (min(u for u, _ in s), min(r for _, r in s)),
            (max(u for u, _ in s), max(r for _, r in s)),
        )
        for turn, s in seen.items()
    }


def inside(state: MatchState, envelope: dict[int, tuple[Spent, Spent]]) -> bool:
    if state.turn not in envelope:
        return False
    (least_u, least_r), (most_u, most_r) = envelope[state.turn]
    ultimes, runes = spent(state)
    return least_u <= ultimes <= most_u and least_r <= runes <= most_r


def source(state: MatchState) -> int:
    """The kept match whose play led to ``state`` (its history is a prefix of the match's)."""
    history = list(state.history)
    found = [i for i, m in enumerate(kept_matches()) if m.actions[: len(history)] == history]
    assert found, "the position comes from none of the kept matches"
    return found[0]


def test_the_kept_matches_mix_every_level_of_the_ladder() -> None:
    matches = kept_matches()
    assert [m.bots for m in matches] == pairings()
    levels = {name for m in matches for name in m.bots}
    assert levels == set(LADDER) and len(LADDER) == 5
    assert sum("expert" in m.bots for m in matches) < len(matches) / 3  # the dear level, rationed
    for match in matches:
        final = replay(match.record)  # every action legal, the match played to its end
        assert final.is_terminal()


@pytest.mark.parametrize("index", [0, 28])  # « débutant » – « débutant », « normal » – « normal »
def test_a_kept_match_is_what_its_bots_play_from_its_seeds(index: int) -> None:
    match: KeptMatch = kept_matches()[index]
    assert set(match.bots) <= {"beginner", "easy", "greedy"}  # cheap enough to play here
    again = play(match.bots, match.seeds, match.dice)
    assert again.record()["actions"] == match.actions, (
        f"the ladder's {match.bots} play otherwise now: play the kept matches again ({COMMAND})"
    )


@pytest.mark.parametrize("number", NUMBERS)
def test_each_position_comes_from_a_kept_match_at_the_turn_its_question_names(
    number: int,
) -> None:
    exercise = make_exercise(number)
    state = exercise.state
    # the page names the bots of the match the position comes from
    assert exercise.source == french(source_text(kept_matches()[source(state)]))
    named = re.match(r"Tour (\d+)\. ", exercise.question)
    assert named is not None, exercise.question
    # the log's last turn line is the turn of the position, read apart from ``state.turn``
    logged = [int(m.group(1)) for e in state.events if (m := TURN.match(e))]
    assert int(named.group(1)) == state.turn == logged[-1]


#: At most this share of the exercises may lie outside the other matches' range at their turn:
#: with 45 matches, a position from the match that is the least or most spending at its turn
#: falls just outside (1 of the 40 does: turn 6, 27 runes spent where the others spent 28 to
#: 48). Random play falls outside far more often (below).
MOST_OUTSIDE = 0.05
LEAST_OUTSIDE_AT_RANDOM = 0.15


def test_the_positions_spent_what_other_ladder_matches_spent_by_that_turn() -> None:
    """A property of real play, not of the drawing: the positions' Ultimes and runes lie
    within what the *other* kept matches show at the same turn (its own match left out)."""
    outside = []
    for number in NUMBERS:
        state = make_exercise(number).state
        if not inside(state, envelopes(skip=source(state))):
            outside.append((number, state.turn, spent(state)))
    assert len(outside) <= MOST_OUTSIDE * len(NUMBERS), outside


def test_the_envelope_refuses_positions_of_random_play() -> None:
    """The check above can fail: the decisions of matches between two « hasard » bots
    (uniform random moves: runes spent at once on the first turn, too few late) fall outside
    the ladder's range several times as often as the exercises."""
    envelope = envelopes()
    shares = []
    for seed in range(3):
        bots = (make_bot("random", seed), make_bot("random", seed + 100))
        nodes = [n.copy() for n in decisions(new_match(), random.Random(seed), bots)]
        shares.append(sum(not inside(n, envelope) for n in nodes) / len(nodes))
    assert sum(shares) / len(shares) >= LEAST_OUTSIDE_AT_RANDOM, shares
