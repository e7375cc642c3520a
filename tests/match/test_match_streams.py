"""Common random numbers keyed by event (akvo.match.streams): exact faces, the same dice for
the same event in two readings, reproducible play, records that replay."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from akvo.bots import make_bot
from akvo.config import DEFAULT_RULES, RulesConfig
from akvo.errors import MatchError
from akvo.match import MatchState, decisions, new_match, replay
from akvo.match.actions import FIRST_BARREUR, FIRST_LANCEUR
from akvo.match.board import LANCEUR, PLONGEUR
from akvo.match.core import StateCore
from akvo.match.phases import Phase
from akvo.match.streams import KeyedChance, event_key, mix
from tests.match.helpers import play_step


def play(seed: int, rules: RulesConfig = DEFAULT_RULES) -> MatchState:
    """A greedy-bot match with dice keyed by event."""
    state = new_match("perrockiss", "fish-tank", rules)
    bots = (make_bot("greedy", 1), make_bot("greedy", 2))
    for _ in decisions(state, KeyedChance(seed), bots):
        pass
    return state


def test_mix_is_splitmix64() -> None:
    # splitmix64's first outputs for seed 0 (the reference C code's state += golden ratio).
    assert mix(0) == 0xE220A8397B1DCDAF
    assert mix(0x9E3779B97F4A7C15) == 0x6E789E6AA1B965F4


_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15


def _splitmix(word: int) -> int:
    """splitmix64's finaliser on whole 64-bit words (the engine works in 32-bit halves)."""
    word = (word + _GAMMA) & _MASK
    word = ((word ^ (word >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    word = ((word ^ (word >> 27)) * 0x94D049BB133111EB) & _MASK
    return word ^ (word >> 31)


@given(st.integers(min_value=-(1 << 70), max_value=1 << 70))
def test_mix_in_halves_is_the_whole_word_mix(word: int) -> None:
    assert mix(word) == _splitmix(word & _MASK)


@given(
    st.integers(min_value=-(1 << 66), max_value=1 << 66),
    st.integers(min_value=0, max_value=(1 << 30) - 1),
    st.integers(min_value=0, max_value=(1 << 20) - 1),
)
def test_each_stream_word_is_splitmix64_at_its_counter(seed: int, key: int, index: int) -> None:
    start = _splitmix(_splitmix(seed & _MASK) ^ (seed >> 64 & _MASK))
    chance = KeyedChance(seed)
    word = _splitmix((start + (key << 32 | index) * _GAMMA) & _MASK)
    assert chance.word(key, index) == word
    assert chance.uniform(key) == (_splitmix((start + (key << 32) * _GAMMA) & _MASK) >> 11) / 2**53
    decisions_start = _splitmix(start ^ 0x6A09E667F3BCC909)
    decision = _splitmix((decisions_start + (key << 20 | index) * _GAMMA) & _MASK)
    assert chance.decision_word(key, index) == decision
    faces = chance.faces(key, 4)
    if chance.word(key, 0) < (1 << 64) // 1296 * 1296:  # else redrawn (about 4e-16)
        digits = chance.word(key, 0)
        assert faces == tuple(digits // 6**i % 6 + 1 for i in range(4))


def test_faces_are_dice_and_fair_over_many_events() -> None:
    chance = KeyedChance(11)
    counts = Counter(face for key in range(6000) for face in chance.faces(key, 4))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    # 24,000 faces: each count within 5 standard deviations of 4,000 (sd ≈ 57.7).
    assert all(abs(n - 4000) < 290 for n in counts.values()), counts


def test_a_shorter_roll_keeps_the_first_faces() -> None:
    chance = KeyedChance(3)
    for key in range(50):
        four = chance.faces(key, 4)
        assert chance.faces(key, 3) == four[:3]
        assert chance.faces(key, 1) == four[:1]


def test_same_seed_same_match_and_the_record_replays() -> None:
    first, second = play(5), play(5)
    assert first.is_terminal()
    assert first.history == second.history
    assert replay(first.record()).to_dict() == first.to_dict()
    assert play(6).history != first.history


def test_a_reading_compared_with_itself_changes_nothing() -> None:
    rules = RulesConfig(weather="coin")
    assert play(9, rules).history == play(9, rules).history


def _rolls_by_event(seed: int, rules: RulesConfig) -> dict[int, str]:
    state = new_match("perrockiss", "fish-tank", rules)
    bots = (make_bot("greedy", 1), make_bot("greedy", 2))
    chance = KeyedChance(seed)
    seen: dict[int, str] = {}
    while not state.is_terminal():
        if state.is_chance_node():
            key = event_key(state)
            seen[key] = chance.apply(state)
        else:
            state.apply_action(bots[state.current_player](state))
    return seen


def test_the_same_event_sees_the_same_dice_in_two_readings() -> None:
    """Bag against coin: the first weather draw agrees (a full bag is a fair coin), and every
    roll both readings make with the same dice count shows the same faces."""
    bag = _rolls_by_event(4, RulesConfig())
    coin = _rolls_by_event(4, RulesConfig(weather="coin"))
    first_weather = 0 | 1 << 2  # the weather event of turn 1
    assert bag[first_weather] == coin[first_weather]
    shared = [k for k in bag.keys() & coin.keys() if k & 3 and len(bag[k]) == len(coin[k])]
    assert shared, "the two readings share rolls"
    assert all(bag[k] == coin[k] for k in shared)


def _first_roll_of(state: MatchState, shooter: int, chance: KeyedChance) -> MatchState | None:
    """Greedy play from ``state`` to ``shooter``'s attack roll in this activation (None if
    the activation ends first)."""
    bots = (make_bot("greedy", 1), make_bot("greedy", 2))
    unit, turn = state.unit, state.turn
    while state.unit == unit and state.turn == turn and not state.is_terminal():
        shot = state.shot
        if state.phase == Phase.ROLL and shot and shot.shooter == shooter and shot.stage == 0:
            return state
        play_step(state, bots, chance.apply)
    return None


def test_the_lanceurs_shot_is_one_event_whichever_central_mage_shoots_first() -> None:
    """The ship's Tirer/Tirer: the Lanceur's attack roll has the same identity, hence the
    same dice, whether the Barreur shot before it or not (a reading that changes the ship's
    order or the Barreur's choice still pairs the Lanceur's shot)."""
    compared = 0
    for seed in range(40):
        state = new_match("perrockiss", "fish-tank")
        bots = (make_bot("greedy", 1), make_bot("greedy", 2))
        chance = KeyedChance(seed)
        for node in decisions(state, chance, bots):
            if node.phase != Phase.SHIP_ORDER or FIRST_LANCEUR not in node.legal_actions():
                continue
            after = _first_roll_of(node.child(FIRST_BARREUR), LANCEUR, chance)
            first = _first_roll_of(node.child(FIRST_LANCEUR), LANCEUR, chance)
            if after is None or first is None or after.shot.target != first.shot.target:
                continue
            assert after.history != first.history
            assert event_key(after) == event_key(first)
            if after.shot.distance == first.shot.distance:
                assert chance.outcome(after) == chance.outcome(first)
            compared += 1
        if compared >= 3:
            break
    assert compared >= 3


def test_tridents_shots_are_three_events() -> None:
    """The Plongeur's shots in one activation (Trident, R24) are ranked: three identities."""
    state = new_match("perrockiss", "fish-tank")
    keys: set[int] = set()
    for seed in range(60):
        state = new_match("perrockiss", "fish-tank")
        chance = KeyedChance(seed)
        bots = (make_bot("greedy", 1), make_bot("greedy", 2))
        ranks: dict[int, set[int]] = {}
        while not state.is_terminal():
            if state.is_chance_node():
                shot = state.shot
                if shot and shot.shooter == PLONGEUR and state.phase == Phase.ROLL:
                    ranks.setdefault(state.turn * 2 + shot.side, set()).add(event_key(state))
                chance.apply(state)
            else:
                state.apply_action(bots[state.current_player](state))
        keys = max(ranks.values(), key=len, default=set())
        if len(keys) >= 4:  # three attack rolls and at least one defence roll
            break
    assert len({key >> 10 & 7 for key in keys}) >= 2


def test_a_subclass_keys_the_rolls_its_own_way() -> None:
    """The benchmark compares keyings by overriding KeyedChance.key: every roll keyed alike
    draws the same faces; the default key draws others."""

    class OneKey(KeyedChance):
        def key(self, state: StateCore) -> int:
            return event_key(state) if state.phase == Phase.WEATHER else 1

    rolls: dict[str, list[str]] = {"one": [], "default": []}
    for name, chance in (("one", OneKey(8)), ("default", KeyedChance(8))):
        state = new_match("perrockiss", "fish-tank")
        bots = (make_bot("greedy", 1), make_bot("greedy", 2))
        while len(rolls[name]) < 12:
            if state.is_chance_node():
                action = chance.apply(state)
                if action.startswith("roll ") and len(action) == 9:
                    rolls[name].append(action)
            else:
                state.apply_action(bots[state.current_player](state))
    assert len(set(rolls["one"])) == 1
    assert len(set(rolls["default"])) > 1


def test_weather_follows_the_bag_share() -> None:
    state = new_match()
    assert state.phase_enum == Phase.WEATHER
    outcomes = Counter(KeyedChance(seed).outcome(state) for seed in range(4000))
    assert abs(outcomes["weather A"] - 2000) < 160  # 5 sd of a fair coin over 4,000


def test_outcome_needs_a_chance_node_and_an_int_seed() -> None:
    with pytest.raises(MatchError, match="seed"):
        KeyedChance("7")
    with pytest.raises(MatchError, match="seed"):
        KeyedChance(True)
    state = new_match()
    chance = KeyedChance(1)
    chance.apply(state)
    if not state.is_chance_node():
        with pytest.raises(MatchError, match="chance node"):
            chance.outcome(state)
