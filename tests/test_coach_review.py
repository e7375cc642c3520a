"""The one valuation, the stable review, luck, ratings, words and exercises (issue 34)."""

from __future__ import annotations

import datetime as dt
import itertools
import json
import re
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from akvo.bots.greedy import GreedyBot
from akvo.bots.judge import evaluation_for
from akvo.bots.lookahead import chance_branches
from akvo.cli import main
from akvo.coach import exercises as practice
from akvo.coach.errors import CoachError
from akvo.coach.luck import match_luck
from akvo.coach.rating import BANDS, VERDICTS, band, stable_verdict
from akvo.coach.review import ORDERS_WIDEN, Review, chunks, refine, review
from akvo.coach.valuation import EVAL_MARGIN, valuation
from akvo.coach.values import EXPECTED_POINTS, P_PUSH, P_SUCCESS, decision_values
from akvo.coach.words import action_words, percent
from akvo.errors import RecordError
from akvo.match import MatchState, play_match, replay
from akvo.match.actions import PARSED
from akvo.match.bots import UniformBot
from akvo.match.core import CHANCE
from akvo.match.phases import ORDERS, ROLL
from tests.coach_records import short_match

#: Engine action codes that must never reach a player.
CODE = re.compile(
    r"\b(activate|shoot|orders|ultime|recover|reroll|advance|hold|keep) [a-z+A-Z]"
    r"|(?<!la )\brune [A-Z]\b|\bno (rune|move|trident|rouleau|target)\b|\bfirst (barreur|lanceur)\b"
    r"|\b(move|shot) first\b|\bshoot again\b|[A-Z]{2,4} (AA|TT|AT-[BL])\b"
)
PERCENT = re.compile(r"(\d+,\d) %")


@cache
def reviewed_b() -> Review:
    """Side B of :func:`short_match`, default budget, seed 0."""
    return review(short_match(), side="B", progress=False)


@cache
def positions(seed: int, random_a: bool = True) -> tuple[MatchState, ...]:
    """Every non-forced decision node of a bot match (copies)."""
    first = UniformBot(seed) if random_a else GreedyBot(seed)
    final = play_match(seed, bots=(first, GreedyBot(seed + 1)), log=False)
    out = []
    state = replay({**final.record(), "actions": []}, log=False)
    for action in final.record()["actions"]:
        if state.player >= 0 and len(state.legal) > 1:
            out.append(state.copy())
        state.apply_action(action)
    return tuple(out)


def _sample(states: tuple[MatchState, ...], every: int) -> list[MatchState]:
    """Every ``every``-th state and the first of each phase."""
    seen: set[str] = set()
    out = []
    for i, state in enumerate(states):
        if i % every == 0 or state.phase_name() not in seen:
            seen.add(state.phase_name())
            out.append(state)
    return out


# --- the valuation ------------------------------------------------------------------------


def test_every_legal_option_is_valued_and_the_suggestion_is_the_best_shown() -> None:
    for state in _sample(positions(11), 9):
        before = state.to_json()
        values = valuation(state)
        assert state.to_json() == before
        if state.phase == ORDERS:
            assert len(values) >= 2
        else:
            assert [o.action for o in values] == list(state.legal)
        best = max(o.p for o in values)
        assert values[values.suggestion].p == best
        for option in values:
            assert 0 <= option.low <= option.p <= option.high <= 1
            assert option.reason and option.words


def test_the_valuation_is_a_pure_function_of_state_budget_and_seed() -> None:
    states = _sample(positions(12), 15)[:8]
    for state in states:
        first, again = valuation(state, seed=3), valuation(state.copy(), seed=3)
        assert first.to_dict() == again.to_dict()
        if state.phase != ORDERS:  # exact expectations: no seed at all
            assert valuation(state, seed=4).to_dict() == {**first.to_dict(), "seed": 4}


def test_outside_the_orders_the_interval_is_the_evaluation_margin() -> None:
    state = next(s for s in positions(11) if s.phase != ORDERS)
    for option in valuation(state):
        assert option.high - option.p == pytest.approx(min(EVAL_MARGIN, 1 - option.p))


def test_the_exact_measures_are_the_engines_fractions() -> None:
    for state in _sample(positions(13), 12):
        values = valuation(state)
        exact = {o.action: o for o in decision_values(state)}
        for option in values:
            if state.phase != ORDERS:
                assert option.exact == exact[option.action]
                if option.exact is not None and option.exact.value is not None:
                    assert isinstance(option.exact.value, Fraction)


def test_the_orders_value_the_action_asked_about_with_paired_samples() -> None:
    state = next(s for s in positions(14) if s.phase == ORDERS)
    asked = state.legal[-1]
    values = valuation(state, actions=[asked], seed=2)
    assert asked in [o.action for o in values]
    assert set(values.samples) == {o.action for o in values}
    d, low, high = values.difference(values.suggestion, asked)
    assert low <= d <= high and (d == 0 or high - low > 2 * EVAL_MARGIN - 1e-12)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"budget": 0}, "budget"),
        ({"budget": "2"}, "budget"),
        ({"seed": 1.5}, "seed"),
        ({"actions": ["shoot chest"]}, "not a legal action"),
    ],
)
def test_bad_valuation_requests_are_refused(kwargs: dict[str, Any], message: str) -> None:
    state = next(s for s in positions(11) if s.phase == ORDERS)
    with pytest.raises(CoachError, match=message):
        valuation(state, **kwargs)


def test_a_chance_node_or_a_non_state_is_refused() -> None:
    state = replay({**short_match(), "actions": []}, log=False)
    while state.player != CHANCE:
        state.apply_action(state.legal[0])
    with pytest.raises(CoachError, match="chance node"):
        valuation(state)
    with pytest.raises(CoachError, match="MatchState"):
        valuation({"phase": "orders"})


# --- words: no codes, numbers from the engine -----------------------------------------------


def _check_no_code(text: str) -> None:
    found = CODE.search(text)
    assert found is None, f"action code {found.group(0)!r} in {text!r}"


def test_every_action_of_the_vocabulary_has_french_words_without_codes() -> None:
    for action in PARSED:
        _check_no_code(action_words(action, 0))
    with pytest.raises(CoachError, match="not an action"):
        action_words("fly away", 0)


def _allowed_percents(state: MatchState, option: Any) -> set[str]:
    allowed = {percent(x) for x in (option.p, option.low, option.high)}
    exact = option.exact
    if exact is not None:
        for field in ("value", "unanswered", "critical", "prodige", "worth"):
            value = getattr(exact, field)
            if value is not None:
                allowed.add(percent(float(value)))
        if exact.worth is not None:  # a best shot on a mage: its push chance
            from akvo.bots.values import PUSH_WEIGHT

            allowed.add(percent(float(exact.worth / PUSH_WEIGHT)))
    return {a.replace("\u00a0", " ") for a in allowed}


def test_every_reason_is_french_and_its_numbers_are_the_engines() -> None:
    checked = 0
    for seed in (11, 13):
        for state in _sample(positions(seed), 7):
            for option in valuation(state):
                _check_no_code(option.reason)
                _check_no_code(option.words)
                allowed = _allowed_percents(state, option)
                for number in PERCENT.findall(option.reason.replace("\u00a0", " ")):
                    assert f"{number} %" in allowed, (number, option.reason)
                    checked += 1
                exact = option.exact
                if exact is not None and exact.measure in (P_PUSH, P_SUCCESS) and exact.value:
                    assert percent(float(exact.value)) in option.reason
                if exact is not None and exact.measure == EXPECTED_POINTS:
                    assert "point" in option.reason
    assert checked > 100


def test_every_string_of_a_review_is_free_of_codes() -> None:
    done = reviewed_b()
    texts = [done.to_text(), *(row.explanation() for row in done.decisions)]
    texts += [move.words for move in done.move_list()]
    texts += [json.dumps(done.to_dict(), ensure_ascii=False)]
    for text in texts:
        # the JSON keeps each option's engine action under "action"/"chosen"/"best": drop them
        text = re.sub(r'"(action|chosen|best|suggestion)": "[^"]*"', "", text)
        _check_no_code(text)


# --- verdicts and ratings ----------------------------------------------------------------


@given(st.floats(0, 1), st.floats(-1, 1))
def test_a_verdict_is_given_only_where_its_interval_clears_the_threshold(
    loss: float, low: float
) -> None:
    low = min(low, loss)
    found = stable_verdict(loss, low)
    thresholds = dict(VERDICTS)
    if loss < 0.05:
        assert found is None
    elif found == "incertain":
        assert low < 0.05
    else:
        assert found is not None and low >= thresholds[found]
        graver = [n for n, t in VERDICTS if t > thresholds[found]]
        assert all(low < thresholds[n] for n in graver)


def test_bands_are_ordered_and_cover_the_scale() -> None:
    uppers = [upper for _, upper in BANDS]
    assert uppers == sorted(uppers)
    assert band(0.0) == BANDS[0][0] and band(1.0) == "hasard"


def test_outside_the_orders_verdicts_do_not_depend_on_the_seed() -> None:
    other = review(short_match(), side="B", seed=99, progress=False)
    for a, b in zip(reviewed_b().decisions, other.decisions, strict=True):
        assert a.coup == b.coup
        if a.values.method == "lookahead":
            assert (a.verdict, a.loss_interval) == (b.verdict, b.loss_interval)


def test_the_review_reads_each_loss_from_its_valuation() -> None:
    done = reviewed_b()
    assert {row.side for row in done.decisions} == {1}
    for row in done.decisions:
        judged = row.retest if row.retest is not None else row.values
        assert row.retest is None or row.values.method == "orders"
        d, low, high = judged.difference(row.best, row.chosen)
        shown = row.values.method == "lookahead" or low > 0  # the orders: rollout means
        assert row.loss == (max(0.0, d) if shown else 0.0) and low <= d <= high
        if row.values.method == "orders":
            lows = [low, row.values.difference(row.best, row.chosen)[1]]
            low = min(d - ORDERS_WIDEN * (d - bound) for bound in lows)
        assert row.verdict == stable_verdict(d, low)
    (rating,) = done.ratings()
    losses = [row.loss for row in done.decisions]
    assert rating.mean_loss.estimate == pytest.approx(sum(losses) / len(losses))
    assert rating.decisions == len(done.decisions)


def test_refine_values_one_decision_again_with_twice_the_budget() -> None:
    done = reviewed_b()
    coup = done.decisions[0].coup
    finer = refine(done, short_match(), coup)
    assert finer.decision(coup).values.budget == 2
    assert [r.values for r in finer.decisions[1:]] == [r.values for r in done.decisions[1:]]
    with pytest.raises(CoachError, match="no analysed decision"):
        refine(done, short_match(), 10_000)


def test_the_move_list_marks_decisions_and_rolls() -> None:
    done = reviewed_b()
    moves = done.move_list()
    assert [m.coup for m in moves] == list(range(1, len(short_match()["actions"]) + 1))
    marked = {m.coup: m for m in moves if m.options}
    assert set(marked) == {row.coup for row in done.decisions}
    for row in done.decisions:
        move = marked[row.coup]
        assert move.mark == {"gaffe": "??", "erreur": "?", "imprécision": "?!"}.get(
            row.verdict or "", ""
        )
        assert sum(o["chosen"] for o in move.options) == 1
    rolls = [m for m in moves if m.luck_a is not None]
    assert rolls and any(m.lucky for m in rolls)
    first = done.decisions[0]
    position = done.position(first.coup)  # « Jouer l'autre option d'ici »
    assert position.player == 1 and first.chosen in position.legal
    with pytest.raises(CoachError, match="coup must be"):
        done.position(0)


# --- luck ---------------------------------------------------------------------------------


def test_luck_is_measured_against_the_exact_expectation_over_every_face() -> None:
    """The grouped outcomes' expectation equals the brute-force one over all 6ⁿ faces."""
    final = play_match(21, bots=(GreedyBot(1), GreedyBot(2)), log=False)
    judge = evaluation_for(final.rules)
    state = replay({**final.record(), "actions": []}, log=False)
    checked = 0
    for action in final.record()["actions"]:
        if state.player == CHANCE and state.phase == ROLL and checked < 6:
            grouped = chance_branches(state)
            assert sum(p for _, p in grouped) == 1
            dice = len(state.chance_outcomes()[0][0]) - 5
            brute = []
            for faces in itertools.product(range(1, 7), repeat=dice):
                brute.append(state.child("roll " + "".join(map(str, faces))))
            values = judge.win_chances(brute, 0)
            exact = sum(float(v) for v in values) / 6**dice
            grouped_value = sum(
                float(p) * float(v)
                for (_, p), v in zip(
                    grouped, judge.win_chances([c for c, _ in grouped], 0), strict=True
                )
            )
            assert grouped_value == pytest.approx(exact, abs=1e-9)
            checked += 1
        state.apply_action(action)
    assert checked == 6


def test_result_is_start_plus_luck_plus_skill_for_each_side() -> None:
    final = play_match(22, bots=(GreedyBot(1), GreedyBot(2)), log=False)
    luck = match_luck(final.record())
    for side in (0, 1):
        result = luck.result_for(side)
        skill = luck.skill(side)
        assert result is not None and skill is not None
        assert luck.start_for(side) + luck.total(side) + skill == pytest.approx(result)
    assert luck.total(0) == pytest.approx(-luck.total(1))
    lucky = luck.luckiest(0)
    assert all(r.luck > 0 for r in lucky)
    assert [r.luck for r in lucky] == sorted((r.luck for r in lucky), reverse=True)
    assert "résultat" in luck.sentence(0) and "chance" in luck.sentence(0)


# --- the command line ------------------------------------------------------------------------


def test_the_command_prints_the_review_of_the_api(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    match = tmp_path / "match.json"
    match.write_text(json.dumps(short_match()), encoding="utf-8")
    argv = ["analyse", str(match), "--side", "B", "--workers", "0", "--no-progress"]
    assert main(argv) == 0
    printed = capsys.readouterr().out
    assert printed == reviewed_b().to_text()
    assert "perdu en moyenne par décision" in printed and "habileté" in printed
    out = tmp_path / "analyse.json"
    assert main([*argv, "--out", str(out)]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert [d["verdict"] for d in data["decisions"]] == [r.verdict for r in reviewed_b().decisions]


@pytest.mark.parametrize("count", [1, 2, 5, 12, 400])
def test_chunks_are_runs_of_consecutive_decisions_of_even_work(count: int) -> None:
    indices = list(range(0, 600, 3))
    length = 600
    parts = chunks(indices, count, length)
    assert [i for part in parts for i in part] == indices  # every decision once, in order
    assert len(parts) == min(count, len(indices)) and all(parts)
    weight = {i: length - i + length // 10 + 1 for i in indices}
    work = [sum(weight[i] for i in part) for part in parts]
    share = sum(work) / len(parts)
    assert max(work) <= share + max(weight.values())  # even, to one decision
    if count == 2:
        assert len(parts[0]) < len(parts[1])  # the early decisions weigh more
    assert chunks([], count, length) == []


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"side": "C"}, "side"),
        ({"side": True}, "side"),
        ({"budget": 0}, "budget"),
        ({"budget": "8"}, "budget"),
        ({"seed": 1.5}, "seed"),
    ],
)
def test_bad_review_options_are_refused(options: dict[str, Any], message: str) -> None:
    with pytest.raises(CoachError, match=message):
        review(short_match(), progress=False, **options)


@pytest.mark.parametrize(
    "bad",
    [
        None,
        [1, 2],
        {"format": 1},
        {**short_match(), "actions": ["weather A", "fly away"]},
        {**short_match(), "actions": "roll 1111"},
        {**short_match(), "teams": ["AAAA", "BBBB"]},
        {**short_match(), "format": 99},
    ],
)
def test_a_broken_or_hostile_record_gets_the_engines_error(bad: object) -> None:
    with pytest.raises(RecordError):
        review(bad, progress=False)


@pytest.mark.parametrize(
    ("content", "options", "message"),
    [
        ("{not json", [], "not valid JSON"),
        ("[1, 2]", [], "JSON object"),
        ('{"format": 1, "rules": {}, "teams": ["x", "y"], "actions": []}', [], "teams"),
        (None, ["--budget", "many"], "budget"),
        (None, ["--out", "x.csv"], "out"),
        (None, ["--workers", "1", "--scheduler", "tcp://127.0.0.1:1"], "not allowed"),
    ],
)
def test_a_bad_file_or_option_gets_one_line_and_status_2(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    content: str | None,
    options: list[str],
    message: str,
) -> None:
    match = tmp_path / "match.json"
    match.write_text(json.dumps(short_match()) if content is None else content, "utf-8")
    assert main(["analyse", str(match), "--workers", "0", *options]) == 2
    err = capsys.readouterr().err
    assert err.startswith("akvo: error:") and message in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


# --- exercises --------------------------------------------------------------------------------


@cache
def mistakes_review() -> Review:
    """B's review of :func:`short_match` with other dice: a « gaffe » and two « erreur »
    (coups 4, 11, 12), every one outside the orders (no seed in them)."""
    return review(short_match(7, 7), side="B", progress=False)


def _exercises() -> tuple[Any, ...]:
    return practice.mistake_exercises(mistakes_review(), "B")


def test_mistakes_become_exercises_whose_right_answers_beat_the_mistake() -> None:
    exercises = _exercises()
    mistakes = [r for r in mistakes_review().decisions if r.verdict in ("erreur", "gaffe")]
    assert [(r.coup, r.verdict) for r in mistakes] == [(4, "gaffe"), (11, "erreur"), (12, "erreur")]
    assert len(exercises) == len(mistakes)
    for exercise, row in zip(exercises, mistakes, strict=True):
        position = exercise.position()
        assert position.player == 1 and exercise.chosen in position.legal
        assert exercise.is_right(exercise.best) and not exercise.is_right(exercise.chosen)
        chosen = row.values[row.chosen].p
        for action in exercise.better:
            assert row.values[action].p - chosen >= 0.05
        _check_no_code(exercise.question)
        _check_no_code(exercise.refutation)
        assert exercise.refutation == row.explanation()
    with pytest.raises(CoachError, match="side"):
        practice.mistake_exercises(mistakes_review(), "C")


def test_the_schedule_brings_an_exercise_back_after_1_3_7_days_until_right_twice() -> None:
    today = dt.date(2026, 12, 7)
    cards = (practice.Card("a", today), practice.Card("b", today))
    assert practice.due(cards, today) == ("a", "b")
    cards = practice.answer(cards, "a", True, today)
    assert cards[0].due == today + dt.timedelta(days=practice.INTERVALS[0]) and not cards[0].retired
    assert practice.due(cards, today) == ("b",)
    cards = practice.answer(cards, "b", False, today)
    assert cards[1].due == today + dt.timedelta(days=1) and cards[1].step == 0
    later = today + dt.timedelta(days=1)
    cards = practice.answer(cards, "a", True, later)
    assert cards[0].retired and practice.due(cards, later + dt.timedelta(days=30)) == ("b",)
    cards = practice.answer(cards, "b", True, later)
    assert cards[1].due == later + dt.timedelta(days=1)
    cards = practice.answer(cards, "b", True, later + dt.timedelta(days=1))
    assert cards[1].due == later + dt.timedelta(days=1 + practice.INTERVALS[1]) and cards[1].retired
    with pytest.raises(CoachError, match="no exercise"):
        practice.answer(cards, "zz", True, today)


def test_exercises_go_to_a_file_and_back() -> None:
    exercises = _exercises()
    cards = practice.new_cards(exercises, dt.date(2026, 12, 7))
    text = practice.export_json(exercises, cards)
    assert practice.import_json(text) == (exercises, cards)


def _hostile(exercises: tuple[Any, ...]) -> list[tuple[str, type[Exception], str]]:
    good = json.loads(
        practice.export_json(exercises, practice.new_cards(exercises, dt.date(2026, 12, 7)))
    )
    cases: list[tuple[str, type[Exception], str]] = [
        ("[]", CoachError, "not an exercises file"),
        ("{", CoachError, "not an exercises file"),
        ("x" * 2_000_001, CoachError, "at most"),
        (json.dumps({**good, "format": "other"}), CoachError, "format"),
    ]
    if good["exercises"]:
        first = good["exercises"][0]

        def variant(**change: Any) -> str:
            return json.dumps(
                {**good, "exercises": [{**first, **change}], "cards": good["cards"][:1]}
            )

        bad_record = {**first["record"], "actions": ["fly"]}
        cases += [
            (variant(record=bad_record), RecordError, ""),
            (variant(better=["fly away"]), CoachError, "not a legal option"),
            (variant(chosen=5), CoachError, "chosen must be a str"),
            (variant(coup=first["coup"] + 1), CoachError, "not the position"),
            (variant(id="0" * 16), CoachError, "does not match"),
            (variant(verdict="imprécision"), CoachError, "verdict"),
            (variant(side="A"), CoachError, "does not decide"),
        ]
        card = good["cards"][0]
        for change, message in (
            ({"due": "demain"}, "date"),
            ({"right": 9}, "right must be"),
            ({"id": "nope"}, "no exercise"),
        ):
            cases.append((json.dumps({**good, "cards": [{**card, **change}]}), CoachError, message))
        cases.append((json.dumps({**good, "cards": [card, card]}), CoachError, "two cards"))
    return cases


def test_a_hostile_exercises_file_is_refused_with_the_engines_error() -> None:
    exercises = _exercises()
    assert exercises, "the short match has mistakes to practise"
    for text, error, message in _hostile(exercises):
        with pytest.raises(error, match=message or None):
            practice.import_json(text)
    with pytest.raises(CoachError, match="text"):
        practice.import_json(b"{}")
