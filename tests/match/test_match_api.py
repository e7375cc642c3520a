"""The typed surface over the compact core: Phase, accessors, parsed actions, the richer
observation, the log switch, the record format version and the two newer rules variants."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from akvo.config import CHOICES, RulesConfig
from akvo.errors import MatchError
from akvo.match import MatchState, RandomBot, decisions, new_match, play_match, replay, scenario
from akvo.match.actions import PARSED, Choice, PlayRune, Roll, ShootAt, parse_action
from akvo.match.board import CHAR_NAMES, CHARS, CHEST, UNITS
from akvo.match.phases import LABELS, Phase
from akvo.match.state import FORMAT_VERSION
from akvo.rules import Character, RuneCategory
from akvo.shots import ATTACK_RUNES, DEFENCE_RUNES, ROLL_RUNES
from tests.match.helpers import bare, play, play_random


def test_phase_names_are_unique_and_the_state_reports_its_phase() -> None:
    assert len(set(LABELS.values())) == len(Phase)
    state = new_match()
    assert state.phase_enum is Phase.WEATHER and state.phase_name() == Phase.WEATHER.label
    assert not Phase.WEATHER.is_internal and Phase.AFTER_SHOT.is_internal


def test_accessors_read_the_compact_lists_by_name() -> None:
    state = scenario(
        rows={"A": {"surfeur": 5}},
        resilience={"B": {"plongeur": 2}},
        spent={"A": "PQ"},
        ultimes_used={"B": ["pedalair"]},
    )
    assert state.row("A", "surfeur") == 5 == state.rows[0 * UNITS + 3]
    assert state.row(0, "barreur") == state.row("A", "navire") == state.row(0, 2)
    assert state.resilience("B", "plongeur") == 2 == state.res[1 * CHARS + 5]
    assert state.resilience(1, Character.PLONGEUR) == 2
    assert state.is_spent("A", "P") and state.is_spent(0, "Q") and not state.is_spent("A", "R")
    assert not state.ultime_free("B", "pedalair") and state.ultime_free("A", 0)


def test_every_action_string_parses_and_writes_back() -> None:
    for text, action in PARSED.items():
        assert action.text == text and parse_action(text) == action
    assert parse_action("rune P") == PlayRune("rune", "P")
    assert parse_action("advance +V") == PlayRune("advance", "V")
    assert parse_action("shoot chest souffle") == ShootAt(CHEST, True)
    assert parse_action("roll 3516") == Roll((3, 5, 1, 6))
    assert parse_action("keep") == Choice("keep")
    state = play_random(new_match(), 4, lambda s: not s.is_chance_node())
    assert tuple(a.text for a in state.parsed_legal_actions()) == state.legal_actions()


def test_the_observation_shows_the_shot_in_progress_and_the_bag() -> None:
    state = new_match()
    seen = state.observation("A")
    assert seen["weather_bag"] == {"A": 4, "B": 4} and seen["shot"] is None
    assert new_match(rules=RulesConfig(weather="coin")).observation("B")["weather_bag"] is None
    state = play_random(new_match(), 5, lambda s: s.phase == Phase.ROLL)
    shot = state.observation("B")["shot"]
    modifier, threshold = state.roll_target()
    assert shot["shooter"] == CHAR_NAMES[state.shot.shooter]  # type: ignore[union-attr]
    assert shot["roll"]["threshold"] == threshold and shot["roll"]["modifier"] == modifier
    assert shot["roll"]["dice_count"] == state.roll_dice()
    assert shot["distance"] == state.shot.distance  # type: ignore[union-attr]


def _relance_position() -> MatchState:
    """Golden 03's position: A's Surfeur holds P and H, B's Surfeur D, G and the bonus M."""
    state = bare(
        keep={"A": "PH", "B": "DGM"}, turn=3, rows={"A": {"surfeur": 4}, "B": {"surfeur": 6}}
    )
    play(state, "weather A", "orders AATA AA", "orders AATA AA", "activate surfeur")
    return play(state, "shoot surfeur", "rune P", "rune M", "roll 5555", "roll 1162")


def test_the_relance_node_shows_the_dice_and_thresholds_to_both_sides() -> None:
    state = _relance_position()
    assert state.phase_enum is Phase.RELANCE
    for side in "AB":
        shot = state.observation(side)["shot"]
        assert shot["roll"] == {
            "stage": "defence",
            "dice_count": 4,
            "modifier": 0,
            "threshold": 12,
            "dice": [1, 1, 6, 2],
        }
        assert shot["attack_rune"] == "P" and shot["defence_rune"] == "M"
        assert shot["attack"]["total"] == 22 and shot["target"] == "surfeur"


def test_without_log_the_same_match_is_played_faster_and_silently() -> None:
    for seed in range(5):
        logged, silent = play_match(seed), play_match(seed, log=False)
        assert silent.history == logged.history and silent.scores == logged.scores
        assert silent.events == logged.events[-1:]  # only the final result
        assert replay(silent.record()).history == logged.history


def test_apply_random_chance_draws_like_sample_chance() -> None:
    a, b = new_match(), new_match()
    rng_a, rng_b = random.Random(3), random.Random(3)
    while not a.is_terminal():
        if a.is_chance_node():
            a.apply_random_chance(rng_a)
            b.apply_action(b.sample_chance(rng_b))
        else:
            action = a.legal_actions()[-1]
            a.apply_action(action)
            b.apply_action(action)
    assert a.to_json() == b.to_json()


def test_records_and_states_carry_the_format_version() -> None:
    state = play_match(1)
    assert state.record()["format"] == FORMAT_VERSION == state.to_dict()["format"] == 1


def _mouvement_position(reading: str) -> MatchState:
    """Golden 09's position: A's Kitesurfeur may play the bonus W (Mouvement) before its
    shot, and holds N (Attaque)."""
    state = bare(
        keep={"A": "WN"},
        rules=RulesConfig(mouvement_rune=reading),  # type: ignore[arg-type]
        rows={"A": {"surfeur": 5}},
    )
    play(state, "weather A", "orders ATAA AA", "orders AATA AA", "activate surfeur")
    play(state, "activate surfeur", "shoot surfeur", "roll 2221", "activate kitesurfeur")
    return play(state, "move W", "shoot kitesurfeur")


def test_a_mouvement_rune_before_a_shot_is_the_sides_rune_by_default() -> None:
    state = _mouvement_position("is_the_rune")
    assert state.is_chance_node()  # R18: no attack rune node after the Mouvement rune


def test_a_mouvement_rune_can_be_read_as_separate_from_the_shot_rune() -> None:
    state = _mouvement_position("separate")
    assert state.phase_enum is Phase.ATTACK_RUNE and state.current_player == 0
    assert state.is_spent("A", "W")


def test_the_ship_may_take_one_mouvement_rune_per_order_as_a_variant() -> None:
    for reading, advances in (("one", 1), ("per_order", 2)):
        state = bare(
            keep={"A": "ZW"},
            rules=RulesConfig(ship_advance_runes=reading),  # type: ignore[arg-type]
            rows={"B": {"navire": 8}},
        )
        play(state, "weather A", "orders AAAA AA", "orders AAAA AA", "activate navire")
        nodes = 0
        while state.phase_enum is Phase.ADVANCE and state.current_player == 0:
            nodes += 1
            play(state, next(a for a in state.legal_actions() if a.startswith("advance +")))
        assert nodes == advances, state.events[-3:]
        assert state.row("A", "navire") == 3 + 2 + advances


def test_decisions_yields_each_decision_node_before_its_bot_answers() -> None:
    seen: list[tuple[int, tuple[str, ...], int]] = []

    def first(state: MatchState) -> str:
        return state.legal[0]

    state = new_match(log=False)
    for node in decisions(state, 9, (first, first)):
        assert node is state and node.player in (0, 1) and len(node.legal) > 1
        seen.append((node.player, node.legal, len(node.history)))
    assert state.is_terminal()
    decided = [state.history[h] for _, _, h in seen]
    assert decided == [legal[0] for _, legal, _ in seen]  # each node's answer came next
    again = play_match(9, bots=(first, first))
    assert again.history == state.history  # play_match is the same loop
    with pytest.raises(MatchError, match="bots must be a pair"):
        next(decisions(new_match(), 1, (first,)))  # type: ignore[arg-type]
    with pytest.raises(MatchError, match="rng must be"):
        next(decisions(new_match(), "1", (first, first)))  # type: ignore[arg-type]


def test_random_bots_play_the_same_match_fast_or_through_decisions() -> None:
    for seed in range(4):
        fast = play_match(seed, log=False)
        bots = (RandomBot(seed * 2 + 1), RandomBot(seed * 2 + 2))
        slow = play_match(seed, bots=bots)
        assert fast.history == slow.history and fast.scores == slow.scores
        assert fast.result == slow.result


ROOT = Path(__file__).resolve().parents[2]
#: A phase compared by its label: ``phase_name() == …``, or a label string beside ``phase``.
_LABEL_COMPARISON = re.compile(
    r"phase_name\(\)\s*(==|!=|\bin\b)|\bphase\w*\s*(==|!=)\s*\"("
    + "|".join(re.escape(p.label) for p in Phase)
    + r")\""
)


def test_no_code_compares_a_phase_with_its_label() -> None:
    """Phases are compared with the :class:`Phase` enum; ``phase_name()`` is for people."""
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for folder in ("akvo", "akvo_widgets", "akvo_site", "tests", "benchmarks")
        for path in sorted((ROOT / folder).rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if _LABEL_COMPARISON.search(line) and path.name != Path(__file__).name
    ]
    assert found == []
    assert _LABEL_COMPARISON.search('if state.phase_name() == "target":')  # it has teeth


def test_each_vocabulary_is_declared_once() -> None:
    """The variants' options come from the fields' Literals (default first); the runes a
    shot names are rune categories, split between the sides by R20."""
    assert CHOICES["weather"] == ("bag", "coin")  # every variant: tests/test_rulings_doc.py
    assert set(CHOICES) == set(RulesConfig().to_dict())
    assert RulesConfig().to_dict() == {field: options[0] for field, options in CHOICES.items()}
    assert {RuneCategory(name) for name in ROLL_RUNES} == {
        RuneCategory.ATTAQUE,
        RuneCategory.DEFENSE,
        RuneCategory.CONFUSION,
        RuneCategory.RELANCE,
    }
    assert "defense" not in ATTACK_RUNES and "attaque" not in DEFENCE_RUNES
    assert set(ATTACK_RUNES) | set(DEFENCE_RUNES) == {None, *ROLL_RUNES}
