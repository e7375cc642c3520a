"""Looking never changes a state: every legal-action function, preview and query is a pure
look-up, at every node of seeded matches (random and greedy bots, several rules variants);
only applying an action (or the engine playing a forced single choice while it does) moves
the match on."""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from akvo.bots import make_bot
from akvo.bots.values import best_worth, shooters, target_worths
from akvo.config import RulesConfig
from akvo.errors import AkvoError
from akvo.match import MatchState, Phase, RandomBot, new_match, scenario
from akvo.match.board import CHARS
from akvo.match.engine import DECISIONS
from akvo.match.preview import target_values, unit_preview
from akvo.match.streams import KeyedChance
from tests.match.helpers import play_step

RULES = (
    RulesConfig(),
    RulesConfig(mouvement_rune="separate", ship_advance_runes="per_order", prodige="all"),
    RulesConfig(weather="coin", grimoire="swapped", rune_u="names_only"),
)


def _snapshot(state: MatchState) -> str:
    """The whole saved state; the log and the history by their length and last entry (a
    look-up that wrote to them would add one; copying them whole each time is slow)."""
    data = state.to_dict()
    for name in ("events", "history"):
        data[name] = [len(data[name]), data[name][-1:]]
    return json.dumps(data, sort_keys=True)


def _lookups(state: MatchState) -> Iterator[Callable[[], Any]]:
    """Every look-up a page, a bot or a test makes at this node."""
    yield state.legal_actions
    yield state.parsed_legal_actions
    yield state.chance_outcomes
    yield state.prompt
    yield state.__str__
    yield state._repr_svg_
    yield lambda: state.observation(0)
    yield lambda: state.observation(1)
    yield lambda: [state.mages_in_enemy_half(side) for side in (0, 1)]
    if state.is_chance_node():
        yield lambda: KeyedChance(5).outcome(state)
        return  # the previews below are the decisions' (and the slow part of this test)
    for side in (0, 1):
        for character in range(CHARS):
            yield lambda side=side, character=character: unit_preview(state, side, character)
            yield lambda side=side, character=character: best_worth(state, side, character)
            yield lambda side=side, character=character: target_worths(
                state, side, character, souffle=True
            )
        yield lambda side=side: shooters(state, side)
    phase = state.phase_enum
    if phase in DECISIONS:
        legal_of, _decide, player_of = DECISIONS[phase]
        yield lambda: legal_of(state)
        yield lambda: player_of(state)
    if phase is Phase.TARGET:
        yield lambda: target_values(state)
    if phase is Phase.RELANCE:
        yield state.roll_target
        yield state.roll_dice


def _nodes(seed: int, rules: RulesConfig, bot: str) -> Iterator[MatchState]:
    """Every node of one seeded match, chance nodes included."""
    rng = random.Random(seed)
    bots = (make_bot(bot, seed), make_bot(bot, seed + 1)) if bot != "random" else None
    pair = bots or (RandomBot(seed), RandomBot(seed + 1))
    state = new_match("perrockiss", "fish-tank", rules)
    while not state.is_terminal():
        yield state
        play_step(state, pair, lambda node: node.apply_random_chance(rng))
    yield state


@pytest.mark.parametrize("bot", ["random", "greedy"])
@pytest.mark.parametrize("rules", RULES, ids=["default", "variants", "other-variants"])
def test_no_lookup_changes_the_state(rules: RulesConfig, bot: str) -> None:
    seed = len(bot) + RULES.index(rules)
    checked = 0
    for state in _nodes(seed, rules, bot):
        before = _snapshot(state)
        for lookup in _lookups(state):
            with contextlib.suppress(AkvoError):  # a look-up that does not apply here
                lookup()
            assert _snapshot(state) == before, (state.phase_enum, lookup)
            checked += 1
        if state.player >= 0:
            legal_of = DECISIONS[state.phase_enum][0]
            assert legal_of(state) == state.legal  # the same answer, asked again
            assert len(state.legal) >= 2  # a single choice is played, never offered
    assert checked > 5_000


def test_a_forced_choice_is_played_when_an_action_is_applied() -> None:
    """With no Mouvement rune left, A's Pédalair's Avancer step is made by the action that
    leads to it (its activation), and the state rests at B's activation."""
    state = scenario(spent={"A": "W"})  # Perrockiss: W is A's one Mouvement rune in reach
    for action in ("weather A", "orders AAAA AA", "orders AAAA AA"):
        state.apply_action(action)
    assert [DECISIONS[Phase.ACTIVATE][0](state) for _ in range(3)] == [state.legal] * 3
    after = state.child("activate pedalair")
    assert after.phase_enum is Phase.ACTIVATE and after.current_player == 1
    assert after.row(0, "pedalair") == 4 and after.history[-1] == "activate pedalair"
    assert "le Pédalair de A avance de 1 case (ligne 4)." in after.events[-1]
