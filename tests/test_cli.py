"""The ``akvo`` command line (akvo.cli), run in-process, plus one real ``python -m akvo``."""

from __future__ import annotations

import subprocess
import sys

import pytest

from akvo.cli import main
from akvo.config import RulesConfig
from akvo.shots import Side, shot_on_chest, shot_on_mage


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _line(out: str, start: str) -> str:
    return next(line for line in out.splitlines() if line.startswith(start))


def test_documented_mage_example(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        capsys, "odds", "mage", "--tier", "3", "--distance", "2", "--attack-rune", "relance",
        "--resilience", "1",
    )  # fmt: skip
    assert code == 0 and err == ""
    shot = shot_on_mage(3, 2, Side("relance"), Side(resilience=1))
    assert out.splitlines()[0] == "Shot on a mage: tier III, distance 2"
    assert "attack roll: 4 dice +0 vs 10, Relance (success)" in out
    assert "defence roll: 4 dice +1 vs 14" in out
    for name, p in shot.outcomes.items():
        assert _line(out, name + " ").split() == [name, f"{float(p) * 100:.2f}%", str(p)]
    assert _line(out, "P(push)").split()[-1] == str(shot.p_push) == "1090255/3359232"
    assert _line(out, "expected push").split()[-1] == str(shot.expected_push)
    assert _line(out, "attack prodige").split()[-1] == str(shot.attack_prodige)
    assert _line(out, "defence prodige").split()[-1] == str(shot.defence_prodige)


def test_chest_with_every_option(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "odds", "chest", "--turn", "4", "--distance", "5", "--interception-distance", "1",
        "--souffle", "--vigie", "--tourbillon-attacker", "--attack-rune", "Attaque",
        "--defence-rune", "Défense", "--resilience", "2", "--egide", "--prodige", "all",
    )  # fmt: skip
    assert code == 0
    shot = shot_on_chest(
        2,
        5,
        1,
        Side("attaque", vigie=True, tourbillon=True, souffle=True),
        Side("defense", resilience=2, egide=True),
        rules=RulesConfig(prodige="all"),
    )
    assert out.splitlines()[0] == "Shot on a chest: tier II, distance 3, interception at 1"
    assert _line(out, "expected points").split()[-1] == str(shot.expected_points)
    assert _line(out, "score_2").split()[-1] == str(shot.outcomes["score_2"])
    assert "interception roll: 3 dice +5 vs 14" in out


def test_turn_gives_the_tier(capsys: pytest.CaptureFixture[str]) -> None:
    _, by_turn, _ = run(capsys, "odds", "mage", "--turn", "9", "--distance", "1")
    _, by_tier, _ = run(capsys, "odds", "mage", "--tier", "4", "--distance", "1")
    assert by_turn == by_tier


def test_chest_without_interception(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "chest", "--tier", "1", "--distance", "1")
    assert code == 0
    assert "no interception" in out and "interception roll: none" in out
    assert _line(out, "P(score)").split()[-1] == str(shot_on_chest(1, 1, None).p_score)


def test_relance_policies(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(
        capsys, "odds", "mage", "--tier", "2", "--distance", "2", "--attack-rune", "relance",
        "--defence-rune", "relance", "--policy", "critical", "--defence-policy", "success",
    )  # fmt: skip
    assert "Relance (critical)" in _line(out, "attack roll")
    assert "Relance (success)" in _line(out, "defence roll")


def test_duel_command(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "duel", "mage", "--tier", "2", "--distance", "2")
    assert code == 0 and err == ""
    assert "attacker declares first (R18): play confusion, value 0.2344 (15/64)" in out
    assert _line(out, "confusion").split()[1:] == ["0.4755", "0.2853", "0.2344", "0.2918"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["odds", "mage", "--tier", "5", "--distance", "1"], "tier 5"),
        (["odds", "mage", "--turn", "11", "--distance", "1"], "turn 11"),
        (["odds", "mage", "--tier", "1", "--distance", "5"], "distance 5"),
        (["odds", "mage", "--tier", "1", "--turn", "1", "--distance", "1"], "not allowed with"),
        (["odds", "mage", "--distance", "1"], "--tier --turn"),
        (["odds", "mage", "--tier", "1", "--distance", "1", "--attack-rune", "defense"], "defense"),
        (["odds", "mage", "--tier", "1", "--distance", "1", "--defence-rune", "x"], "'x'"),
        (["odds", "mage", "--tier", "1", "--distance", "1", "--resilience", "4"], "resilience 4"),
        (["odds", "mage", "--tier", "one", "--distance", "1"], "invalid int"),
        (["odds", "chest", "--tier", "1", "--distance", "1", "--defence-rune", "defense"], "R20"),
        (["odds", "chest", "--tier", "1", "--distance", "1", "--interception-distance", "x"], "x"),
        (["odds", "boat"], "invalid choice"),
        ([], "required"),
    ],
)
def test_bad_options_give_one_line_and_status_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("akvo: error: ") and message in err
    assert "Traceback" not in err


def test_help_exits_zero(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "mage", "--help")
    assert code == 0 and "--attack-rune" in out and "--tourbillon-defender" in out


def test_python_dash_m_akvo() -> None:
    ok = subprocess.run(
        [sys.executable, "-m", "akvo", "odds", "mage", "--tier", "1", "--distance", "1"],
        capture_output=True,
        text=True,
    )
    assert ok.returncode == 0, ok.stderr
    assert "76415/419904" in ok.stdout  # P(push) = P(4d6 ≥ 12) · P(4d6 < 12)


def test_rules_option_sets_any_variant(capsys: pytest.CaptureFixture[str]) -> None:
    situation = ("--tier", "1", "--distance", "1")
    code, out, _ = run(capsys, "odds", "mage", *situation, "--rules", "prodige=all")
    every = shot_on_mage(1, 1, rules=RulesConfig(prodige="all"))
    assert code == 0 and str(every.attack_prodige) in _line(out, "attack prodige")
    code, out, err = run(capsys, "duel", "mage", *situation, "--rules", "weather=coin,prodige=all")
    assert code == 0 and "Rune duel" in out
    code, out, err = run(capsys, "odds", "mage", *situation, "--rules", "gravity=low")
    assert code == 2 and out == "" and err.count("\n") == 1 and "gravity" in err


def test_an_ascii_only_locale_gives_one_line_not_a_traceback() -> None:
    import os

    for argv in (("odds", "mage", "--help"), ("odds", "mage", "--tier", "1", "--distance", "1")):
        done = subprocess.run(
            [sys.executable, "-m", "akvo", *argv],
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONIOENCODING": "ascii", "LC_ALL": "C"},
        )
        if done.returncode == 0:  # nothing outside ASCII in this output
            continue
        assert done.returncode == 1 and "Traceback" not in done.stderr
        assert done.stderr.count("\n") == 1 and "encoding" in done.stderr


def test_a_full_disk_gives_one_line() -> None:
    import os

    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full on this system")
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "akvo", "odds", "mage", "--tier", "1", "--distance", "1"],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
        )
    assert done.returncode == 1 and done.stderr.count("\n") == 1
    assert "cannot write the output" in done.stderr and "Traceback" not in done.stderr


def test_a_closed_pipe_ends_quietly() -> None:
    reader = subprocess.Popen(
        [sys.executable, "-m", "akvo", "duel", "chest", "--tier", "2", "--distance", "3"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert reader.stdout is not None and reader.stderr is not None
    reader.stdout.close()  # like `| head -c 0`: nobody reads the output
    error = reader.stderr.read().decode()
    reader.wait()
    assert "Traceback" not in error and "BrokenPipe" not in error
