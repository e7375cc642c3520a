"""One random bot: akvo.bots.uniform.UniformBot is the engine's UniformBot, keyed by
decision for the bots' registry, drawing in sequence as RandomBot for play_match."""

from __future__ import annotations

import pytest

import akvo.bots.uniform
import akvo.match
from akvo.bots import make_bot
from akvo.errors import MatchError
from akvo.match import RandomBot, UniformBot, new_match, play_match
from akvo.match.bots import decisions


def test_there_is_one_random_bot_class() -> None:
    assert akvo.bots.uniform.UniformBot is akvo.match.UniformBot is UniformBot
    assert type(make_bot("random", 3)) is UniformBot
    assert type(RandomBot(3)) is UniformBot


def test_the_registry_bot_draws_by_decision_and_random_bot_in_sequence() -> None:
    keyed, sequential = make_bot("random", 5), RandomBot(5)
    assert keyed.chance is not None and keyed.rng is None  # type: ignore[attr-defined]
    assert sequential.rng is not None and sequential.chance is None
    state = new_match(log=False)
    nodes = [n.copy() for n in decisions(state, 1, (RandomBot(1), RandomBot(2)))][:40]
    # keyed: the same decision, the same answer, whatever the bot answered before
    assert [keyed(n) for n in nodes] == [make_bot("random", 5)(n) for n in nodes]


def test_two_sequential_random_bots_play_play_matchs_random_match() -> None:
    for seed in range(3):
        fast = play_match(seed, log=False)
        slow = play_match(seed, bots=(RandomBot(2 * seed + 1), RandomBot(2 * seed + 2)))
        assert fast.history == slow.history and fast.scores == slow.scores


@pytest.mark.parametrize("keyed", [1, "yes", None])
def test_keyed_must_be_a_boolean(keyed: object) -> None:
    with pytest.raises(MatchError, match="keyed must be True or False"):
        UniformBot(1, keyed=keyed)
