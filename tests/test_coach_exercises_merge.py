"""Two sets of one player's mistakes joined (issue 34.7: a browser's and the server's copy):
the merge is commutative, associative and idempotent, never loses an exercise nor an
answer (each card keeps its more advanced progress), stays within the import's cap by
dropping retired exercises first, and its result reads back through the file."""

from __future__ import annotations

import datetime as dt
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from akvo.coach.exercises import (
    Card,
    Exercise,
    Kept,
    answer,
    export_json,
    import_json,
    merge,
    progress,
)
from akvo.match import play_match
from tests.mistake_sets import valid_exercises

DAY = dt.date(2026, 12, 7)
IDS = [f"{n:016x}" for n in range(6)]


def _exercise(identity: str, variant: int) -> Exercise:
    """A stand-in (the merge never replays): its text differs by ``variant``."""
    record: dict[str, Any] = {"actions": [], "variant": variant}
    return Exercise(identity, 1, 0, "erreur", record, "a", "b", ("b",), "q", f"r{variant}")


exercises = st.builds(_exercise, st.sampled_from(IDS), st.integers(0, 2))
cards = st.builds(
    Card,
    st.sampled_from(IDS),
    st.integers(0, 20).map(lambda days: DAY + dt.timedelta(days=days)),
    st.integers(0, 2),
    st.integers(0, 3),
)


@st.composite
def kept_sets(draw: st.DrawFn) -> Kept:
    """A set as an import could hold it: one exercise and at most one card per id."""
    held = {e.id: e for e in draw(st.lists(exercises, max_size=6))}
    held_cards = {c.id: c for c in draw(st.lists(cards, max_size=6)) if c.id in held}
    return tuple(held.values()), tuple(held_cards.values())


def _ids(kept: Kept) -> set[str]:
    return {e.id for e in kept[0]}


@given(kept_sets(), kept_sets())
def test_the_merge_is_commutative_and_idempotent(first: Kept, second: Kept) -> None:
    both = merge(first, second)
    assert both == merge(second, first)
    assert merge(both, both) == both
    assert merge(first, first) == merge(first, ((), ()))


@given(kept_sets(), kept_sets(), kept_sets())
def test_the_merge_is_associative(first: Kept, second: Kept, third: Kept) -> None:
    assert merge(merge(first, second), third) == merge(first, merge(second, third))


@given(kept_sets(), kept_sets())
def test_the_merge_loses_no_exercise_and_no_answer(first: Kept, second: Kept) -> None:
    both = merge(first, second)
    assert _ids(both) == _ids(first) | _ids(second)
    assert len(both[0]) == len(_ids(both))  # one exercise per position
    for exercise in both[0]:
        assert exercise in first[0] or exercise in second[0]
    merged_cards = {c.id: c for c in both[1]}
    assert len(merged_cards) == len(both[1])
    for card in (*first[1], *second[1]):
        assert progress(merged_cards[card.id]) >= progress(card)
        assert merged_cards[card.id] in (*first[1], *second[1])


def test_two_devices_answering_the_same_exercise_keep_the_further_one() -> None:
    one = _exercise(IDS[0], 0)
    start = (Card(one.id, DAY),)
    right_once = answer(start, one.id, True, DAY)  # due DAY + 1, one right answer
    wrong = answer(start, one.id, False, DAY + dt.timedelta(days=3))  # later, but wrong
    assert merge(((one,), right_once), ((one,), wrong))[1] == right_once
    retired = answer(right_once, one.id, True, DAY + dt.timedelta(days=1))
    retired = answer(retired, one.id, True, DAY + dt.timedelta(days=4))
    assert retired[0].retired
    assert merge(((one,), retired), ((one,), wrong))[1] == retired


def test_over_the_cap_retired_exercises_leave_first() -> None:
    held = tuple(_exercise(i, 0) for i in IDS[:4])
    done = Card(IDS[0], DAY, right=2, step=2)
    due_cards = tuple(Card(i, DAY) for i in IDS[1:4])
    kept = merge((held[:2], (done, due_cards[0])), (held[2:], due_cards[1:]), limit=3)
    assert _ids(kept) == set(IDS[1:4]) and kept[1] == due_cards


def test_a_merged_set_of_real_exercises_reads_back_through_the_file() -> None:
    record = play_match(11).record()
    first, second = valid_exercises(record, 3), valid_exercises(record, 3, start=40)
    cards_one = (Card(first[0].id, DAY, 1, 1),)
    both = merge((first, cards_one), (second, (Card(second[0].id, DAY),)))
    assert import_json(export_json(*both)) == both and len(both[0]) == 6
