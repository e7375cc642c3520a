"""JSON snapshots and match records replay to the identical state."""

from __future__ import annotations

import json

from akvo.config import RulesConfig
from akvo.match import MatchState, play_match, replay
from akvo.match.scenario import scenario
from tests.match.helpers import play_random


def test_a_record_saved_to_json_replays_identically() -> None:
    for seed in range(8):
        rules = RulesConfig(weather="coin") if seed % 2 else RulesConfig()
        state = play_match(seed, rules=rules)
        text = json.dumps(state.record())
        again = replay(json.loads(text))
        assert again.to_json() == state.to_json()
        assert again.events == state.events
        assert again.result == state.result


def test_a_snapshot_round_trips_mid_match_and_plays_on_identically() -> None:
    state = scenario(turn=5, rows={"A": {"surfeur": 4}}, spent={"B": "RM"}, scores=[1, 0])
    play_random(state, 11, lambda s: len(s.history) >= 150)
    loaded = MatchState.from_json(state.to_json())
    assert loaded.to_json() == state.to_json()
    assert str(loaded) == str(state)
    assert play_random(loaded, 3).to_json() == play_random(state.copy(), 3).to_json()
    assert replay(state.record()).to_json() == state.to_json()  # the setup is in the record


def test_the_record_lists_the_setup_and_every_decision() -> None:
    state = play_match(2)
    record = state.record()
    assert record["teams"] == [
        "LEGS/VUNF/JACK/ZBIM/PYTH/DROX+QW",
        "FISH/TANK/CLOX/BEWZ/GUYD/PJQV+MR",
    ]
    assert record["rules"] == RulesConfig().to_dict()
    assert record["actions"][0] in ("weather A", "weather B")
    assert record["actions"][1].startswith("orders ")
