"""The balance report: a bot forbidden to play a rune or an Ultime, and the report's counts."""

from __future__ import annotations

import csv
import io
from dataclasses import replace

import pytest
from scipy.stats import binomtest

from akvo.cli import main
from akvo.lab import LabError
from akvo.lab.forbid import FORBIDDABLE, Forbidding, check_forbidden, played
from akvo.lab.play import play_one
from akvo.lab.run import _spec
from akvo.lab.tournament import tournament

TEAMS = ("perrockiss", "fish-tank", "pink-star")


@pytest.mark.parametrize("item", ["confusion", "rune_u", "ultime_egide", "ultime_rouleau"])
def test_a_forbidden_item_is_never_played_and_changes_only_the_matches_it_was_played_in(
    item: str,
) -> None:
    spec = _spec("perrockiss", "fish-tank", ("greedy", "greedy"), None, 3, None)
    without = replace(spec, forbidden=((item,), ()))
    column = f"{item}_a"
    played_somewhere = 0
    for index in range(12):
        base, forbidden = play_one(spec, index), play_one(without, index)
        assert forbidden.use(column) == 0
        if base.use(column) == 0:  # the bot never picked it: the very same match
            assert forbidden == base
        played_somewhere += base.use(column) > 0
    assert played_somewhere > 0  # the item is really exercised in these matches


def test_forbidding_checks_its_items_and_classifies_actions() -> None:
    assert check_forbidden(["ultime_vigie", "attaque", "attaque"]) == ("attaque", "ultime_vigie")
    with pytest.raises(LabError, match="cannot forbid 'vigie'"):
        check_forbidden(["vigie"])
    with pytest.raises(LabError):
        Forbidding(lambda state: "", ["nothing"])
    assert len(FORBIDDABLE) == 12

    class _Shot:
        phase = -1

    assert played(_Shot(), "trident") == "ultime_trident"  # type: ignore[arg-type]
    assert played(_Shot(), "shoot chest souffle") == "ultime_souffle"  # type: ignore[arg-type]
    assert played(_Shot(), "shoot chest") == ""  # type: ignore[arg-type]


def test_the_report_counts_every_match_with_wilson_intervals() -> None:
    report = tournament(
        TEAMS, n=6, effect_matches=3, seed=2, items=("attaque", "ultime_vigie"), workers=0
    )
    assert len(report.pairs) == 6 and report.complete  # ordered pairs: both seats
    for pair in report.pairs:
        assert pair.wins_a + pair.draws + pair.wins_b == pair.matches == 6
        rows = [
            play_one(_spec(pair.team_a, pair.team_b, ("greedy", "greedy"), None, 2, None), i)
            for i in range(6)
        ]
        assert pair.wins_a == sum(r.winner == "A" for r in rows)
        ci = binomtest(pair.wins_a, 6).proportion_ci(confidence_level=0.95, method="wilson")
        assert (pair.p_a.low, pair.p_a.high) == pytest.approx((ci.low, ci.high))
    for team in report.team_results:
        mine = [p for p in report.pairs if team.team in (p.team_a, p.team_b)]
        assert team.matches == sum(p.matches for p in mine) == 24
        assert team.wins == sum(p.wins_a if p.team_a == team.team else p.wins_b for p in mine)
        assert team.draws == sum(p.draws for p in mine)
    (attaque, vigie) = report.effects
    assert attaque.matches == vigie.matches == 6 * 3
    # the effect by hand: A's wins with the rune minus without it, on the same seeds
    diffs, times = [], 0
    for pair in report.pairs:
        spec = _spec(pair.team_a, pair.team_b, ("greedy", "greedy"), None, 2, None)
        for i in range(3):
            base, without = (
                play_one(spec, i),
                play_one(replace(spec, forbidden=(("attaque",), ())), i),
            )
            diffs.append((base.winner == "A") - (without.winner == "A"))
            times += base.use("attaque_a")
    assert attaque.effect.estimate == pytest.approx(sum(diffs) / len(diffs))
    assert attaque.times == times
    table = list(csv.DictReader(io.StringIO(report.to_csv())))
    assert [r["section"] for r in table].count("pair") == 6
    effect_rows = [r for r in table if r["section"] == "effect"]
    assert [r["subject"] for r in effect_rows] == ["attaque", "ultime_vigie"]
    assert int(effect_rows[0]["times"]) == times


def test_a_tournament_refuses_bad_requests() -> None:
    with pytest.raises(LabError, match="two different teams"):
        tournament(["perrockiss", "perrockiss"], n=2, workers=0)
    with pytest.raises(LabError, match="effect_matches"):
        tournament(TEAMS, n=2, effect_matches=3, workers=0)


def test_akvo_tournament_prints_the_report_and_writes_the_csv(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "balance.csv"
    argv = ["tournament", "perrockiss", "fish-tank", "-n", "4", "--effect-matches", "2"]
    assert (
        main([*argv, "--items", "mouvement", "--workers", "0", "--out", str(out), "--no-progress"])
        == 0
    )
    text = capsys.readouterr().out
    assert "victoires A" in text and "runes Mouvement" in text
    assert out.read_text().startswith("section,subject,opponent,matches")
    assert main(["tournament", "--items", "vigie", "--workers", "0"]) == 2
    assert "cannot forbid 'vigie'" in capsys.readouterr().err
