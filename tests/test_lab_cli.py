"""``akvo simulate``: the summary printed, the table written, bad options exit 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from akvo.cli import main
from akvo.lab import Results, simulate


def test_simulate_prints_the_summary_and_writes_the_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "results.csv"
    argv = "simulate perrockiss fish-tank --bots greedy random -n 6 --seed 1"
    argv += " --rules weather=coin,prodige=all --workers 0 --no-progress --out " + str(out)
    assert main(argv.split()) == 0
    text = capsys.readouterr().out
    expected = simulate(
        "perrockiss",
        "fish-tank",
        ("greedy", "random"),
        "weather=coin,prodige=all",
        6,
        1,
        workers=0,
        progress=False,
    )
    summary = expected.summary()
    table = {
        cells[0]: [float(c) if c else None for c in cells[1:]]
        for cells in (line.split("\t") for line in text.splitlines()[2:])
        if len(cells) == 4
    }
    assert table["matchs"] == [6, None, None]
    for label, interval in (
        ("victoires A (perrockiss)", summary.p_a),
        ("victoires B (fish-tank)", summary.p_b),
        ("écart de score A-B", summary.score_diff),
    ):
        assert table[label] == pytest.approx(
            [interval.estimate, interval.low, interval.high], abs=6e-5
        )
    assert Results.load(out).rows == expected.rows
    assert "--rules weather=coin,prodige=all" in text
    uses = {line.split("\t")[0]: line.split("\t")[1:] for line in text.splitlines()}
    column = expected.column("rune_u_a")
    assert uses["rune U (A)"] == [str(sum(column)), str(sum(c > 0 for c in column))]


def test_compare_rules_prints_the_paired_difference(capsys: pytest.CaptureFixture[str]) -> None:
    argv = "simulate perrockiss fish-tank --bots random random -n 4 --workers 0 --no-progress"
    assert main([*argv.split(), "--compare-rules", "weather=coin"]) == 0
    text = capsys.readouterr().out
    assert "différence (2e - 1re)" in text
    assert "différence sans appariement" in text and "intervalle apparié plus étroit" in text
    assert text.count("matchs\t4") == 2


@pytest.mark.parametrize(
    "argv, message",
    [
        ("simulate perrockiss", "team_b"),
        ("simulate perrockiss fish-tank -n 0", "below the minimum 1"),
        ("simulate perrockiss fish-tank -n ten", "not an integer"),
        ("simulate perrockiss fish-tank --bots greedy grandmaster", "invalid choice"),
        ("simulate perrockiss fish-tank --rules weather=moon", "weather='moon'"),
        ("simulate perrockiss fish-tank --rules colour=red", "unknown rules variant"),
        ("simulate perrockiss fish-tank --workers -1", "below the minimum 0"),
        ("simulate perrockiss fish-tank --out results.txt", ".csv or .json"),
        ("simulate perrockiss fish-tank --workers 2 --scheduler tcp://x:1", "not allowed"),
        ("simulate perrockiss shark --workers 0 -n 1", "team"),
        ("simulate perrockiss fish-tank --budget 3 --workers 0 -n 1", "take a budget"),
    ],
)
def test_bad_options_get_one_line_and_status_2(
    argv: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv.split()) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("akvo: error: ")
    assert message in lines[0]


def test_help_names_the_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--help"]) == 0
    assert "--scheduler" in capsys.readouterr().out
