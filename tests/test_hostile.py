"""Hostile input: every kind of bad input to the library and the command line gives the
engine's own error (an :class:`akvo.errors.AkvoError`) naming the problem, with a short
message, and never changes a state.

The cases are generated field by field (saved states, shots, records, scenario keywords)
and listed by hand for the public functions and the command line; the last test counts
them (at least 300 kinds).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

import pytest

from akvo.cli import main
from akvo.config import RulesConfig
from akvo.errors import AkvoError, IllegalAction, MatchError, RecordError, RulesError
from akvo.match import MatchState, new_match, play_match, r15_relance, replay, scenario
from akvo.match.actions import parse_action
from akvo.match.phases import Phase
from akvo.match.schema import INT_FIELDS, LIST_FIELDS, SHOT_FIELDS
from tests.match.helpers import play_random

MAX_MESSAGE = 400  # an error message never echoes more than a short excerpt of the input


def _start() -> MatchState:
    return new_match()


def _mid_shot() -> MatchState:
    """A state resting inside a resolution (the attack roll), so that ``shot`` is set."""
    return play_random(new_match(), 5, lambda s: s.phase == Phase.ROLL)


def _mid_match() -> MatchState:
    return play_random(new_match(), 9, lambda s: len(s.history) >= 120 and not s.is_chance_node())


START = _start().to_dict()
MID_SHOT = _mid_shot().to_dict()
MID_MATCH = _mid_match().to_dict()
assert MID_SHOT["shot"] is not None

BAD_INTS: tuple[object, ...] = (None, "1", 1.5, True, [], 10**9, -(10**9))


def _bad_lists(length: int) -> tuple[object, ...]:
    return (
        None,
        "x",
        [],
        [1] * 50,
        [None] * length,
        ["a"] * length,
        [-1] * length,
        [10**12] * length,
        [1.5] * length,
        [True] * length,
    )


STRING_FIELDS = ("reason", "last_outcome")
BAD_STRINGS: tuple[object, ...] = (None, 5, "bogus", "x" * 10_000)
STRING_LIST_FIELDS = ("events", "history", "legal")
BAD_STRING_LISTS: tuple[object, ...] = (None, "abc", [1], [None], {"a": 1})
BAD_SHOT_VALUES: tuple[object, ...] = ("x", 10**6, [[]])

# (description, base state dict, field, bad value or a mutation, words the error must name)
StateCase = tuple[str, dict[str, Any], Callable[[dict[str, Any]], None], str]


def _set(field: str, value: object) -> Callable[[dict[str, Any]], None]:
    def mutate(data: dict[str, Any]) -> None:
        data[field] = copy.deepcopy(value)

    return mutate


def _drop(field: str) -> Callable[[dict[str, Any]], None]:
    def mutate(data: dict[str, Any]) -> None:
        del data[field]

    return mutate


def _set_shot(field: str, value: object) -> Callable[[dict[str, Any]], None]:
    def mutate(data: dict[str, Any]) -> None:
        data["shot"][field] = copy.deepcopy(value)

    return mutate


def _state_cases() -> list[StateCase]:
    cases: list[StateCase] = []
    for field in INT_FIELDS:
        for value in BAD_INTS:
            cases.append((f"{field}={value!r:.20}", START, _set(field, value), field))
        cases.append((f"{field} missing", START, _drop(field), field))
    for field in LIST_FIELDS:
        for value in _bad_lists(len(START[field])):
            cases.append((f"{field}={value!r:.20}", MID_MATCH, _set(field, value), field))
        cases.append((f"{field} missing", START, _drop(field), field))
    for field in STRING_FIELDS:
        for value in BAD_STRINGS:
            cases.append((f"{field}={value!r:.20}", START, _set(field, value), field))
    for field in STRING_LIST_FIELDS:
        for value in BAD_STRING_LISTS:
            cases.append((f"{field}={value!r:.20}", START, _set(field, value), field))
    for field in SHOT_FIELDS:
        for value in BAD_SHOT_VALUES:
            cases.append((f"shot.{field}={value!r:.20}", MID_SHOT, _set_shot(field, value), field))
    for value in ("x", 5, [], {}, {"bogus": 1}):
        cases.append((f"shot={value!r}", MID_SHOT, _set("shot", value), "shot"))
    for value in (None, "x", [1], [[9, 9, 9, 9, 9], None], [["a"] * 5, None], [[0, 0, 0, 0], None]):
        cases.append((f"orders={value!r}", START, _set("orders", value), "orders"))
    for value in (None, "x", [[0]], [[9, 9]], [[0, 0]] * 5):
        cases.append((f"tasks={value!r}", START, _set("tasks", value), "tasks"))
    for value in (None, 1, "yes"):
        cases.append((f"trident={value!r}", START, _set("trident", value), "trident"))
    for value in (None, "bag", {"weather": "dice"}, {"gravity": "x"}, {"weather": 5}):
        cases.append((f"rules={value!r}", START, _set("rules", value), "rules"))
    for value in (None, "x", ["a"], ["P/C", 5], [5, 5], ["perrockiss", "fish-tank"]):
        cases.append((f"teams={value!r}", START, _set("teams", value), "teams"))
    for value in ("x", [1, 2], ["a"]):
        cases.append((f"team_names={value!r}", START, _set("team_names", value), "team_names"))
    for value in (2, "1", None, True, 0):
        cases.append((f"format={value!r}", START, _set("format", value), "format"))
    for value in ("x", 5, []):
        cases.append((f"origin={value!r}", START, _set("origin", value), "origin"))
    for value in ("yes", 1, None):
        cases.append((f"log={value!r}", START, _set("log", value), "log"))
    # Valid fields, inconsistent state: the engine recomputes what it can.
    cases += [
        ("legal tampered", MID_MATCH, _set("legal", ["rune Z", "no rune"]), "legal"),
        ("legal emptied", MID_MATCH, _set("legal", []), "legal"),
        ("player swapped", MID_MATCH, _set("player", 1 - MID_MATCH["player"]), "player"),
        ("player chance", MID_MATCH, _set("player", -1), "player"),
        ("winner mid-match", MID_MATCH, _set("winner", 0), "winner"),
        ("shot removed mid-shot", MID_SHOT, _set("shot", None), "shot"),
        ("internal phase", START, _set("phase", 21), "phase"),
        ("rows crossed", START, _set("rows", [7] * 5 + [2] * 5), "rows"),
        ("end without winner", START, _set("phase", 16), "winner"),
    ]
    return cases


STATE_CASES = _state_cases()


@pytest.mark.parametrize(
    ("base", "mutate", "named"),
    [(base, mutate, named) for _, base, mutate, named in STATE_CASES],
    ids=[case[0] for case in STATE_CASES],
)
def test_a_bad_saved_state_is_refused_by_field(
    base: dict[str, Any], mutate: Callable[[dict[str, Any]], None], named: str
) -> None:
    data = copy.deepcopy(base)
    mutate(data)
    with pytest.raises(RecordError) as caught:
        MatchState.from_dict(data)
    message = str(caught.value)
    assert named in message and len(message) <= MAX_MESSAGE


def test_a_tampered_legal_list_cannot_bring_a_spent_rune_back() -> None:
    state = scenario(spent={"A": "ABCDEFGHIJKLMNOPQRSTUVWXYZ"})
    data = state.to_dict()
    assert MatchState.from_dict(data).to_json() == state.to_json()  # untampered: loads
    data["legal"] = [*data["legal"], "rune P"]
    with pytest.raises(RecordError, match="legal"):
        MatchState.from_dict(data)


# --- JSON, records, replay -------------------------------------------------------------------
RECORD = play_match(3).record()
JSON_CASES: list[tuple[object, str]] = [
    (5, "JSON text"),
    (None, "JSON text"),
    ("{not json", "not valid JSON"),
    ("[1, 2]", "state must be an object"),
    ('"x"', "state must be an object"),
    ("[" * 100_000, "JSON"),
]


@pytest.mark.parametrize(
    ("text", "named"), JSON_CASES, ids=[str(i) for i in range(len(JSON_CASES))]
)
def test_bad_json_is_refused(text: object, named: str) -> None:
    with pytest.raises(RecordError, match=named):
        MatchState.from_json(text)


def _record(**changes: object) -> dict[str, Any]:
    data = copy.deepcopy(RECORD)
    for key, value in changes.items():
        if value is _MISSING:
            del data[key]
        else:
            data[key] = value
    return data


_MISSING = object()
RECORD_CASES: list[tuple[object, str]] = [
    ([], "record must be an object"),
    (None, "record must be an object"),
    ("x", "record must be an object"),
    (_record(rules=_MISSING), "rules"),
    (_record(teams=_MISSING), "teams"),
    (_record(actions=_MISSING), "actions"),
    (_record(actions="do it"), "actions"),
    (_record(actions=[5]), "actions[0]"),
    (_record(actions=["activate navire"]), "actions[0]"),
    (_record(actions=[*RECORD["actions"][:40], "bogus"]), "actions[40]"),
    (_record(actions=[*RECORD["actions"], "weather A"]), f"actions[{len(RECORD['actions'])}]"),
    (_record(setup="turn 3"), "setup"),
    (_record(setup=5), "setup"),
    (_record(setup=[1]), "setup"),
    (_record(setup={"row": 3}), "setup"),
    (_record(setup={"turn": 3.7}), "turn"),
    (_record(format=2), "format"),
    (_record(format="1"), "format"),
    (_record(extra=1), "extra"),
    (_record(rules={"weather": "dice"}), "rules"),
    (_record(teams=["P/C/X", "Q"]), "teams[0]"),
    (_record(team_names="AB"), "team_names"),
]


@pytest.mark.parametrize(
    ("record", "named"), RECORD_CASES, ids=[str(i) for i in range(len(RECORD_CASES))]
)
def test_a_bad_record_is_refused_naming_the_field_or_entry(record: object, named: str) -> None:
    with pytest.raises(RecordError) as caught:
        replay(record)
    assert named in str(caught.value) and len(str(caught.value)) <= MAX_MESSAGE


def test_a_record_without_format_version_still_replays() -> None:
    legacy = {k: v for k, v in RECORD.items() if k != "format"}
    assert replay(legacy).to_json() == replay(RECORD).to_json()
    assert RECORD["format"] == 1


# --- scenario --------------------------------------------------------------------------------
SCENARIO_CASES: list[tuple[dict[str, Any], str]] = [
    ({"row": 3}, "row"),
    ({"turns": 3}, "turns"),
    ({"score": [1, 0]}, "score"),
    ({"turn": 3.7}, "turn"),
    ({"turn": "3"}, "turn"),
    ({"turn": True}, "turn"),
    ({"turn": 0}, "turn"),
    ({"turn": 11}, "turn"),
    ({"scores": "12"}, "scores"),
    ({"scores": [1]}, "scores"),
    ({"scores": [1.5, 0]}, "scores"),
    ({"scores": [-1, 0]}, "scores"),
    ({"scores": [10**9, 0]}, "scores"),
    ({"rows": "x"}, "rows"),
    ({"rows": {"A": "x"}}, "rows"),
    ({"rows": {"A": {"bogus": 3}}}, "bogus"),
    ({"rows": {"A": {"surfeur": 0}}}, "outside 1–8"),
    ({"rows": {"A": {"surfeur": "5"}}}, "integer"),
    ({"rows": {"C": {}}}, "'C'"),
    ({"rows": {5: {}}}, "side"),
    ({"resilience": {"A": {"surfeur": 4}}}, "outside 0–3"),
    ({"resilience": {"A": {"surfeur": 1.0}}}, "integer"),
    ({"resilience": {"A": {"navire": 1}}}, "navire"),
    ({"spent": {"A": 5}}, "spent"),
    ({"spent": {"A": "1"}}, "not a letter"),
    ({"ultimes_used": {"A": "pedalair"}}, "ultimes_used"),
    ({"ultimes_used": {"A": ["bogus"]}}, "bogus"),
    ({"ultimes_used": {"A": [5]}}, "character"),
    ({"bag": [5, 5]}, "bag must be two counts 0–4"),
    ({"bag": [1, 0], "turn": 3}, "at most 4 tokens"),  # R8: too few draws left
    ({"bag": "x"}, "bag"),
]


@pytest.mark.parametrize(
    ("setup", "named"), SCENARIO_CASES, ids=[str(i) for i in range(len(SCENARIO_CASES))]
)
def test_a_bad_scenario_is_refused(setup: dict[str, Any], named: str) -> None:
    with pytest.raises(IllegalAction) as caught:
        scenario(**setup)
    assert named in str(caught.value) and len(str(caught.value)) <= MAX_MESSAGE


# --- public functions and methods ------------------------------------------------------------
def _at_chance() -> MatchState:
    return new_match()


def _at_decision() -> MatchState:
    return play_random(new_match(), 1, lambda s: not s.is_chance_node())


def _at_end() -> MatchState:
    return play_match(2)


CALL_CASES: list[tuple[str, Callable[[], object], type[AkvoError], str]] = [
    ("new_match(123)", lambda: new_match(123), MatchError, "team_a"),  # type: ignore[arg-type]
    ("new_match(None)", lambda: new_match(None), MatchError, "team_a"),  # type: ignore[arg-type]
    ("new_match('bogus')", lambda: new_match("bogus"), MatchError, "bogus"),
    ("new_match(b=[])", lambda: new_match("perrockiss", []), MatchError, "team_b"),  # type: ignore[arg-type]
    ("new_match(rules='coin')", lambda: new_match(rules="coin"), MatchError, "rules"),  # type: ignore[arg-type]
    ("new_match(rules={})", lambda: new_match(rules={}), MatchError, "rules"),  # type: ignore[arg-type]
    ("new_match(log='yes')", lambda: new_match(log="yes"), MatchError, "log"),  # type: ignore[arg-type]
    ("play_match('1')", lambda: play_match("1"), MatchError, "seed"),  # type: ignore[arg-type]
    ("play_match(1.5)", lambda: play_match(1.5), MatchError, "seed"),  # type: ignore[arg-type]
    ("play_match(None)", lambda: play_match(None), MatchError, "seed"),  # type: ignore[arg-type]
    ("play_match(bots='x')", lambda: play_match(1, bots="x"), MatchError, "bots"),  # type: ignore[arg-type]
    ("play_match(bots=(1, 2))", lambda: play_match(1, bots=(1, 2)), MatchError, "bots"),  # type: ignore[arg-type]
    ("scenario(team_a=5)", lambda: scenario(5), MatchError, "team_a"),  # type: ignore[arg-type]
    ("scenario(rules='bag')", lambda: scenario(rules="bag"), MatchError, "rules"),  # type: ignore[arg-type]
    ("observation('C')", lambda: _at_chance().observation("C"), MatchError, "side"),
    ("observation(2)", lambda: _at_chance().observation(2), MatchError, "side"),
    ("observation(None)", lambda: _at_chance().observation(None), MatchError, "side"),  # type: ignore[arg-type]
    ("observation(1.5)", lambda: _at_chance().observation(1.5), MatchError, "side"),  # type: ignore[arg-type]
    ("observation(True)", lambda: _at_chance().observation(True), MatchError, "side"),
    ("roll_target() at weather", lambda: _at_chance().roll_target(), IllegalAction, "no roll"),
    ("roll_target() at a decision", lambda: _at_decision().roll_target(), IllegalAction, "roll"),
    ("roll_dice() at weather", lambda: _at_chance().roll_dice(), IllegalAction, "no roll"),
    ("row('C', 0)", lambda: _at_chance().row("C", 0), MatchError, "side"),
    ("row(0, 'bogus')", lambda: _at_chance().row(0, "bogus"), MatchError, "unit"),
    ("row(0, 9)", lambda: _at_chance().row(0, 9), MatchError, "unit"),
    ("row(0, 1.0)", lambda: _at_chance().row(0, 1.0), MatchError, "unit"),  # type: ignore[arg-type]
    ("resilience(0, 'x')", lambda: _at_chance().resilience(0, "x"), MatchError, "character"),
    ("resilience(0, 6)", lambda: _at_chance().resilience(0, 6), MatchError, "character"),
    ("is_spent(0, 'AB')", lambda: _at_chance().is_spent(0, "AB"), MatchError, "letter"),
    ("is_spent(0, 1)", lambda: _at_chance().is_spent(0, 1), MatchError, "letter"),  # type: ignore[arg-type]
    ("is_spent(0, 'a')", lambda: _at_chance().is_spent(0, "a"), MatchError, "letter"),
    ("ultime_free(5, 0)", lambda: _at_chance().ultime_free(5, 0), MatchError, "side"),
    ("spent_letters(3)", lambda: _at_chance().spent_letters(3), MatchError, "side"),
    ("mages_in_enemy_half('Z')", lambda: _at_chance().mages_in_enemy_half("Z"), MatchError, "side"),
    ("apply_action(5)", lambda: _at_chance().apply_action(5), IllegalAction, "string"),  # type: ignore[arg-type]
    ("apply_action(None)", lambda: _at_decision().apply_action(None), IllegalAction, "string"),  # type: ignore[arg-type]
    (
        "apply_action('bogus')",
        lambda: _at_decision().apply_action("bogus"),
        IllegalAction,
        "may play",
    ),
    (
        "apply_action('weather C')",
        lambda: _at_chance().apply_action("weather C"),
        IllegalAction,
        "weather",
    ),
    (
        "apply_action('roll 7777')",
        lambda: _at_chance().apply_action("roll 7777"),
        IllegalAction,
        "weather",
    ),
    ("apply_action at the end", lambda: _at_end().apply_action("stop"), IllegalAction, "over"),
    (
        "apply_action(huge)",
        lambda: _at_decision().apply_action("x" * 10**6),
        IllegalAction,
        "may play",
    ),
    ("sample_chance('x')", lambda: _at_chance().sample_chance("x"), MatchError, "rng"),  # type: ignore[arg-type]
    (
        "sample_chance at a decision",
        lambda: _at_decision().sample_chance(random.Random(1)),
        IllegalAction,
        "chance",
    ),
    (
        "apply_random_chance at a decision",
        lambda: _at_decision().apply_random_chance(random.Random(1)),
        IllegalAction,
        "chance",
    ),
    ("child('bogus')", lambda: _at_decision().child("bogus"), IllegalAction, "may play"),
    ("r15_relance(5)", lambda: r15_relance(5), MatchError, "MatchState"),  # type: ignore[arg-type]
    ("r15_relance off node", lambda: r15_relance(_at_chance()), IllegalAction, "Relance"),
    ("r15_relance(policy='x')", lambda: r15_relance(_at_chance(), "x"), MatchError, "policy"),
    ("parse_action(5)", lambda: parse_action(5), IllegalAction, "string"),
    ("parse_action('bogus')", lambda: parse_action("bogus"), IllegalAction, "bogus"),
    ("parse_action('roll 0')", lambda: parse_action("roll 0"), IllegalAction, "roll"),
    ("RulesConfig.from_dict('x')", lambda: RulesConfig.from_dict("x"), RulesError, "dict"),
    (
        "RulesConfig.from_dict(weather=5)",
        lambda: RulesConfig.from_dict({"weather": 5}),
        RulesError,
        "weather",
    ),
    ("RulesConfig.from_dict(x=y)", lambda: RulesConfig.from_dict({"x": "y"}), RulesError, "'x'"),
    (
        "RulesConfig.from_text('weather')",
        lambda: RulesConfig.from_text("weather"),
        RulesError,
        "variant=value",
    ),
    (
        "RulesConfig.from_text(twice)",
        lambda: RulesConfig.from_text("weather=coin,weather=bag"),
        RulesError,
        "twice",
    ),
    ("RulesConfig.from_text(5)", lambda: RulesConfig.from_text(5), RulesError, "string"),
    ("RulesConfig.with_(gravity)", lambda: RulesConfig().with_(gravity="x"), RulesError, "gravity"),
    (
        "RulesConfig(mouvement_rune=x)",
        lambda: RulesConfig(mouvement_rune="x"),
        RulesError,
        "mouvement_rune",
    ),  # type: ignore[arg-type]
    (
        "RulesConfig(ship_advance_runes=x)",
        lambda: RulesConfig(ship_advance_runes=2),
        RulesError,
        "ship_advance_runes",
    ),  # type: ignore[arg-type]
]


@pytest.mark.parametrize(
    ("call", "error", "named"),
    [(call, error, named) for _, call, error, named in CALL_CASES],
    ids=[case[0] for case in CALL_CASES],
)
def test_a_public_function_refuses_bad_arguments(
    call: Callable[[], object], error: type[AkvoError], named: str
) -> None:
    with pytest.raises(error) as caught:
        call()
    assert named in str(caught.value) and len(str(caught.value)) <= MAX_MESSAGE


@pytest.mark.parametrize(
    "action", ["bogus", "rune P", "", "roll 3516", "weather A", "x" * 5000, "orders AAAA AA"]
)
def test_a_failing_action_never_changes_the_state(action: str) -> None:
    for state in (_at_decision(), _mid_shot(), MatchState.from_dict(MID_MATCH)):
        before = state.to_json()
        if action in state.legal_actions():
            continue
        with pytest.raises(IllegalAction):
            state.apply_action(action)
        assert state.to_json() == before


# --- command line ----------------------------------------------------------------------------
CLI_CASES: list[tuple[str, ...]] = [
    (),
    ("bogus",),
    ("odds",),
    ("odds", "dragon"),
    ("odds", "mage", "--tier", "5", "--distance", "1"),
    ("odds", "mage", "--tier", "x", "--distance", "1"),
    ("odds", "mage", "--tier", "1", "--distance", "0"),
    ("odds", "mage", "--tier", "1", "--distance", "1", "--rules", "x"),
    ("odds", "mage", "--tier", "1", "--distance", "1", "--rules", "a=b"),
    ("odds", "mage", "--tier", "1", "--distance", "1", "--rules", "weather=dice"),
    ("odds", "mage", "--tier", "1", "--distance", "1", "--attack-rune", "foo"),
    ("odds", "mage", "--tier", "1", "--distance", "1", "--resilience", "9"),
    ("odds", "chest", "--tier", "1", "--distance", "1", "--interception-distance", "xyz"),
    ("odds", "mage", "--turn", "11", "--distance", "1"),
    ("duel", "mage", "--tier", "1", "--distance", "1", "--prodige", "five"),
    ("odds", "mage", "--tier", "1", "--distance", "1", "--rules", "weather=" + "x" * 100_000),
    ("odds", "mage", "--tier", "1", "--distance", "1", "--attack-rune", "x" * 100_000),
    ("odds", "chest", "--tier", "1", "--distance", "1", "--interception-distance", "9" * 5000),
]


@pytest.mark.parametrize("argv", CLI_CASES, ids=[" ".join(a)[:60] or "(none)" for a in CLI_CASES])
def test_the_command_line_refuses_bad_options_in_one_line(
    argv: tuple[str, ...], capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(list(argv))
    captured = capsys.readouterr()
    assert code == 2 and captured.out == ""
    assert captured.err.count("\n") == 1 and captured.err.startswith("akvo")
    assert len(captured.err) <= MAX_MESSAGE


# --- the kinds an independent probe tries (issue 22) ------------------------------------------
def _liar(base: type) -> Any:
    """A subclass of ``base`` whose comparisons say yes to everything (``hash`` unchanged):
    ``==`` and ``<`` are true, ``!=`` false."""
    lies = {
        "__eq__": lambda self, other: True,
        "__ne__": lambda self, other: False,
        "__lt__": lambda self, other: True,
        "__hash__": base.__hash__,
    }
    return type(f"Lying{base.__name__.title()}", (base,), lies)


LyingStr = _liar(str)
LyingInt = _liar(int)


class BadRepr:
    """An object whose ``repr`` raises: an error message must not need it."""

    def __repr__(self) -> str:
        raise RuntimeError("no repr")


HUGE = "x" * 1_000_000
PERROCKISS = "LEGS/VUNF/JACK/ZBIM/PYTH/DROX+QW"
#: (what, hostile value) for the names the API takes: oversized, None, non-strings, lying
#: subclasses, containers (unhashable as keys), an object that cannot be shown.
NAMES: tuple[tuple[str, object], ...] = (
    ("huge", HUGE),
    ("None", None),
    ("int", 5),
    ("float", 1.5),
    ("bool", True),
    ("list", ["perrockiss"]),
    ("dict", {"a": 1}),
    ("tuple", ("perrockiss",)),
    ("lying str", LyingStr("zzz")),
    ("bad repr", BadRepr()),
)
#: Truthy and falsy look-alikes where a bool is expected.
NOT_BOOLS: tuple[object, ...] = ("False", "True", "0", "", 1, 0, None, [False])


def _name_calls(value: object) -> list[tuple[str, Callable[[], object]]]:
    from akvo import dice, duel, rules, shots, tables, teams, variants
    from akvo.bots import make_bot
    from akvo.bots.greedy import GreedyBot
    from akvo.match import RandomBot, decisions
    from akvo.match.preview import unit_preview

    return [
        ("new_match", lambda: new_match(value)),
        ("preset_team", lambda: teams.preset_team(value)),  # type: ignore[arg-type]
        ("parse_team", lambda: teams.parse_team(value)),  # type: ignore[arg-type]
        ("parse_team name", lambda: teams.parse_team(PERROCKISS, name=value)),  # type: ignore[arg-type]
        ("Team.holder", lambda: teams.preset_team("perrockiss").holder(value)),  # type: ignore[arg-type]
        ("variant_rules", lambda: variants.variant_rules(value)),  # type: ignore[arg-type]
        ("RulesConfig", lambda: RulesConfig(weather=value)),  # type: ignore[arg-type]
        ("RulesConfig.from_dict", lambda: RulesConfig.from_dict({"weather": value})),
        ("RulesConfig.with_", lambda: RulesConfig().with_(prodige=value)),
        ("make_bot", lambda: make_bot(value)),  # type: ignore[arg-type]
        ("rune", lambda: rules.rune(value)),  # type: ignore[arg-type]
        ("runes_in", lambda: rules.runes_in(value)),  # type: ignore[arg-type]
        ("grimoire", lambda: rules.grimoire(value)),  # type: ignore[arg-type]
        ("Character.from_name", lambda: rules.Character.from_name(value)),  # type: ignore[arg-type]
        ("shot kind", lambda: shots.shot(value, 1, 1)),  # type: ignore[arg-type]
        ("Side rune", lambda: shots.Side(rune=value)),  # type: ignore[arg-type]
        ("Side policy", lambda: shots.Side(policy=value)),  # type: ignore[arg-type]
        ("roll reroll", lambda: dice.roll(10, reroll=value)),  # type: ignore[arg-type]
        ("roll prodige", lambda: dice.roll(10, prodige=value)),  # type: ignore[arg-type]
        ("rune_duel kind", lambda: duel.rune_duel(value)),  # type: ignore[arg-type]
        ("odds_grid kind", lambda: tables.odds_grid(value)),  # type: ignore[arg-type]
        ("odds_grid metric", lambda: tables.odds_grid("mage", metric=value)),  # type: ignore[arg-type]
        ("r15_relance policy", lambda: r15_relance(_at_chance(), value)),
        ("unit_preview side", lambda: unit_preview(_at_chance(), value, 0)),  # type: ignore[arg-type]
        (
            "best_own_attack team",
            lambda: variants.best_own_attack(value, rules.Character.SURFEUR, 1, 1),
        ),  # type: ignore[arg-type]
        ("weather_favoured_turns", lambda: variants.weather_favoured_turns(value)),  # type: ignore[arg-type]
        (
            "Team.runes_of rules",
            lambda: teams.preset_team("perrockiss").runes_of(rules.Character.SURFEUR, value),
        ),  # type: ignore[arg-type]
        ("scenario team", lambda: scenario(value)),  # type: ignore[arg-type]
        ("KeyedChance.outcome", lambda: _keyed().outcome(value)),  # type: ignore[arg-type]
        ("apply_random_chance", lambda: new_match().apply_random_chance(value)),
        ("make_bot seed", lambda: make_bot("greedy", value)),  # type: ignore[arg-type]
        ("GreedyBot seed", lambda: GreedyBot(value)),
        ("RandomBot seed", lambda: RandomBot(value)),
        ("decisions state", lambda: next(decisions(value, 1, (RandomBot(1), RandomBot(2))))),
    ]


def _keyed() -> Any:
    from akvo.match.streams import KeyedChance

    return KeyedChance(1)


NAME_CASES = [
    (f"{call} <- {what}", value, index)
    for what, value in NAMES
    for index, (call, _) in enumerate(_name_calls(None))
    # legitimate values: None is no seed, no rune, no reroll, the default metric; an int is a
    # seed; any short string is a team name
    if not (
        (value is None and call.endswith(" seed"))
        or (value is None and call in ("Side rune", "roll reroll", "odds_grid metric"))
        or (call.endswith(" seed") and type(value) is int)
        or (call == "parse_team name" and isinstance(value, str) and len(value) < 100)
    )
]


@pytest.mark.parametrize(
    ("value", "index"), [c[1:] for c in NAME_CASES], ids=[c[0] for c in NAME_CASES]
)
def test_a_bad_name_gets_the_engines_own_short_error(value: object, index: int) -> None:
    _call, attempt = _name_calls(value)[index]
    with pytest.raises(AkvoError) as caught:
        attempt()
    assert len(str(caught.value)) <= MAX_MESSAGE


def _bool_calls(value: object) -> list[Callable[[], object]]:
    from akvo import dice, shots

    return [
        lambda: new_match(log=value),
        lambda: play_match(1, log=value),
        lambda: replay(RECORD, log=value),
        lambda: shots.Side(vigie=value),  # type: ignore[arg-type]
        lambda: shots.Side(souffle=value),  # type: ignore[arg-type]
        lambda: shots.chest_shot_on_board(6, None, souffle=value),  # type: ignore[arg-type]
        lambda: dice.clear_caches(keep_tables=value),  # type: ignore[arg-type]
    ]


BOOL_CASES = [(value, index) for value in NOT_BOOLS for index in range(len(_bool_calls(None)))]


@pytest.mark.parametrize(("value", "index"), BOOL_CASES, ids=[f"{v!r}-{i}" for v, i in BOOL_CASES])
def test_a_truthy_look_alike_is_not_taken_for_a_bool(value: object, index: int) -> None:
    with pytest.raises(AkvoError, match="True or False"):
        _bool_calls(value)[index]()


def test_a_str_subclass_is_read_as_its_plain_text() -> None:
    """A lying ``==`` never makes an action legal, a name known or a variant valid; an
    honest subclass is read as the string it holds."""
    state = _at_decision()
    before = state.to_json()
    for text in ("bogus", "roll 1234", "weather C"):
        with pytest.raises(IllegalAction):
            state.apply_action(LyingStr(text))
        assert state.to_json() == before
    with pytest.raises(MatchError, match="letter"):
        state.is_spent(0, LyingStr("AB"))
    with pytest.raises(MatchError, match="side"):
        state.row(LyingStr("Q"), 0)
    with pytest.raises(MatchError, match="side"):
        state.row(LyingInt(7), 0)
    with pytest.raises(IllegalAction, match="unknown action"):
        parse_action(LyingStr("zzz"))
    with pytest.raises(RulesError, match="weather"):
        RulesConfig(weather=LyingStr("fog"))  # type: ignore[arg-type]
    honest = type("Honest", (str,), {})
    action = honest(state.legal[0])
    state.apply_action(action)
    assert type(state.history[-1]) is str and state.history[-1] == action
    rules = RulesConfig(weather=honest("coin"))  # type: ignore[arg-type]
    assert type(rules.weather) is str and rules == RulesConfig(weather="coin")


def test_a_record_with_a_lying_action_is_refused_by_index() -> None:
    record = {**RECORD, "actions": [LyingStr("activate navire")]}
    with pytest.raises(RecordError, match=r"actions\[0\]"):
        replay(record)


@pytest.mark.parametrize(
    ("setup", "named"),
    [
        ({"ultimes_used": {"A": ["navire"]}}, "navire"),  # the ship is no character
        ({"ultimes_used": {"A": ["egide"]}}, "egide"),  # an Ultime, not its holder
        ({"ultimes_used": {"A": [["pedalair"]]}}, "character"),
        ({"ultimes_used": {"A": [None]}}, "character"),
        (
            {"ultimes_used": {"A": ["pedalair", "surfeur", "pedalair"]}},
            "'pedalair' is listed twice",
        ),
        ({"rows": {"A": {"x" * 10_000: 3}}}, "unknown unit"),
        ({"spent": {"A": ["P"]}}, "spent"),
        ({"scores": (1, BadRepr())}, "plain data"),
    ],
)
def test_a_hostile_scenario_is_refused(setup: dict[str, Any], named: str) -> None:
    with pytest.raises(IllegalAction, match=named) as caught:
        scenario(**setup)
    assert len(str(caught.value)) <= MAX_MESSAGE


@pytest.mark.parametrize("flag", ["success", "critical", "prodige"])
@pytest.mark.parametrize("value", ["yes", 1, 0, "False", [True], LyingInt(1)])
def test_roll_odds_refuse_a_flag_that_is_not_a_bool(flag: str, value: object) -> None:
    from akvo.dice import roll
    from akvo.errors import DiceError

    odds = roll(9)
    with pytest.raises(DiceError, match=f"{flag} must be True or False") as caught:
        odds.probability(**{flag: value})  # type: ignore[arg-type]
    assert len(str(caught.value)) <= MAX_MESSAGE
    assert odds.probability(**{flag: True}) + odds.probability(**{flag: False}) == 1


def test_a_scenario_keeps_plain_data_as_its_origin() -> None:
    state = scenario(rows={LyingStr("A"): {"surfeur": 4}}, scores=(1, 0), turn=LyingInt(3))
    assert state.origin == {"rows": {"A": {"surfeur": 4}}, "scores": [1, 0], "turn": 3}
    assert state.turn == 3 and type(state.origin["turn"]) is int
    assert all(type(key) is str for key in state.origin)
    assert replay(state.record()).to_json() == state.to_json()


def test_a_team_holds_26_letters_and_a_short_name() -> None:
    from akvo.errors import TeamError
    from akvo.teams import MAX_NAME_LENGTH, Team, parse_team

    for groups, bonus in ((None, "QW"), (("LEGS",) * 6, "QW"), (tuple("ABCDEF"), "XY")):
        with pytest.raises(TeamError, match="26 letters"):
            Team(groups=groups, bonus=bonus)  # type: ignore[arg-type]
    with pytest.raises(TeamError, match="team name"):
        parse_team(PERROCKISS, name="n" * (MAX_NAME_LENGTH + 1))
    with pytest.raises(TeamError, match="at most"):
        parse_team(PERROCKISS + " " * 1000)
    named = parse_team(PERROCKISS, name="n" * MAX_NAME_LENGTH)
    state = new_match(named)  # a named team saves and loads
    assert MatchState.from_dict(state.to_dict()).teams[0].name == named.name


def test_a_hostile_call_on_a_state_changes_nothing() -> None:
    """Refused with a short error of the engine's own, or answered (a lying int is read as
    the int it holds): never another exception, never a changed state."""
    state = MatchState.from_dict(MID_MATCH)
    before = state.to_json()
    for value in (HUGE, None, ["A"], LyingStr("A"), LyingInt(0), BadRepr(), "False"):
        for attempt in (
            lambda v=value: state.apply_action(v),
            lambda v=value: state.row(v, 0),
            lambda v=value: state.observation(v),
            lambda v=value: state.is_spent(0, v),
            lambda v=value: state.sample_chance(v),
            lambda v=value: state.apply_random_chance(v),
            lambda v=value: state.child(v),
        ):
            try:
                attempt()
            except AkvoError as error:
                assert len(str(error)) <= MAX_MESSAGE
            assert state.to_json() == before


def test_there_are_at_least_600_kinds_of_bad_input() -> None:
    kinds = (
        len(STATE_CASES)
        + len(JSON_CASES)
        + len(RECORD_CASES)
        + len(SCENARIO_CASES)
        + len(CALL_CASES)
        + len(CLI_CASES)
        + len(NAME_CASES)
        + len(BOOL_CASES)
        + 1  # the tampered legal list
    )
    assert kinds >= 600, kinds
