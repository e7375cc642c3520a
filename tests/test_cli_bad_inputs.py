"""Every ``akvo`` subcommand driven with the bad inputs a designer meets (issue 36.6): a
missing output folder, a scheduler that does not answer, a typo in a name, a bad number.
Each gets one line naming the problem (the closest known names for a typo), status 2,
and nothing written — no match is played. And a result whose file fails at the end is
kept elsewhere, with the printed summary."""

from __future__ import annotations

import json
import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from akvo import cli, outputs
from akvo.cli import main
from akvo.lab.results import LabError
from akvo.lab.run import check_scheduler


@pytest.fixture
def closed_port() -> Iterator[int]:
    """A loopback port bound by this test but not listening: a connection is refused."""
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        yield held.getsockname()[1]


SIM = "simulate perrockiss fish-tank"
FAST = "-n 1 --workers 0 --no-progress"
MISSING = "the folder 'missing' does not exist"
CLOSED = "--scheduler tcp://127.0.0.1:{port}"
UNREACHABLE = "scheduler unreachable: tcp://127.0.0.1:{port}"
TYPO = "unknown team 'fish-tnak' — did you mean fish-tank?"

#: (subcommand, argv, words the one error line must hold). ``{port}``: a closed port;
#: ``{match}``: a valid match record; ``file``: an existing file (not a folder).
CASES = [
    ("odds", "odds mage --tier 5 --distance 1", "tier"),
    ("odds", "odds mag --tier 1 --distance 1", "did you mean mage?"),
    ("odds", "odds mage --tier one --distance 1", "invalid int value: 'one'"),
    ("odds", "odds mage --tier 1 --distance 1 --vigei", "did you mean --vigie?"),
    ("odds", "odds mage --tier 1 --distance 1 --attack-rune relanse", "did you mean relance?"),
    ("odds", "odds mage --tier 1 --distance 1 --rules wether=coin", "did you mean weather?"),
    ("duel", "duel chest --tier 2 --distance 3 --prodige al", "did you mean all?"),
    ("duel", "duel mage --turn 11 --distance 1", "turn"),
    ("simulate", "simulat perrockiss fish-tank", "did you mean simulate?"),
    ("simulate", f"simulate perrockiss fish-tnak {FAST}", TYPO),
    ("simulate", f"simulate perrockiss shark {FAST}", "unknown team 'shark'; preset teams:"),
    ("simulate", f"{SIM} --bots greedy greedyy", "did you mean greedy?"),
    ("simulate", f"{SIM} -n ten", "'ten' is not an integer"),
    ("simulate", f"{SIM} -n 0", "below the minimum 1"),
    ("simulate", f"{SIM} --matchs 3", "did you mean --matches"),
    ("simulate", f"{SIM} --rules weather=coins", "did you mean coin?"),
    ("simulate", f"{SIM} {FAST} --out missing/r.csv", MISSING),
    ("simulate", f"{SIM} {FAST} --out file/r.csv", "the folder 'file' is not a folder"),
    ("simulate", f"{SIM} {FAST} --out .", ".csv or .json"),
    ("simulate", f"{SIM} -n 1 {CLOSED}", UNREACHABLE),
    ("tournament", "tournament perrockiss fish-tnak -n 1", "did you mean fish-tank?"),
    ("tournament", "tournament -n 1 --workers 0 --items rune_uu", "did you mean rune_u?"),
    ("tournament", "tournament -n -1", "below the minimum 1"),
    ("tournament", "tournament -n 1 --effect-matches x", "'x' is not an integer"),
    ("tournament", "tournament -n 1 --bot gredy", "did you mean greedy?"),
    ("tournament", "tournament -n 1 --workers 0 --out missing/b.csv", MISSING),
    ("tournament", "tournament -n 1 --scheduler 127.0.0.1:{port}", "unreachable: 127.0.0.1:{port}"),
    ("analyse", "analyse missing.json --workers 0", "cannot read 'missing.json'"),
    ("analyse", "analyse {match} --budget 0", "outside 1"),
    ("analyse", "analyse {match} --side C", "not a side"),
    ("analyse", "analyse {match} --workers 0 --out missing/a.tsv", MISSING),
    ("analyse", f"analyse {{match}} {CLOSED}", UNREACHABLE),
    ("ladder", "ladder -n two", "'two'"),
    ("ladder", "ladder -n 2 --workers 0 --out missing/l.md", MISSING),
    ("ladder", f"ladder -n 2 {CLOSED}", UNREACHABLE),
    ("ladder", "ladder -n 2 --sead 1", "did you mean --seed?"),
    ("train", "train --matches x", "'x'"),
    ("train", "train --matches 2 --workers 0 --out missing/w.npz", MISSING),
    ("train", f"train --matches 2 {CLOSED}", UNREACHABLE),
    ("train", "train --matches 2 --rules prodige=four_equals", "prodige="),
]  # fmt: skip


def _subcommands() -> set[str]:
    parser = cli._build_parser()
    (commands,) = [a for a in parser._actions if a.dest == "command"]
    assert commands.choices is not None
    return set(commands.choices)


def test_every_subcommand_is_driven_with_bad_inputs() -> None:
    assert _subcommands() <= {command for command, _, _ in CASES}


@pytest.mark.parametrize(("command", "argv", "message"), CASES)
def test_a_bad_input_gets_one_line_status_2_and_nothing_written(
    command: str,
    argv: str,
    message: str,
    tmp_path: Path,
    closed_port: int,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    work = tmp_path / "work"
    work.mkdir()
    (work / "file").write_text("x", encoding="utf-8")
    monkeypatch.chdir(work)
    match = ""
    if "{match}" in argv:
        from tests.coach_records import short_match

        (tmp_path / "match.json").write_text(json.dumps(short_match()), encoding="utf-8")
        match = str(tmp_path / "match.json")
    fill = {"port": closed_port, "match": match}
    played: list[object] = []
    monkeypatch.setattr("akvo.lab.run.play_chunk", lambda *a: played.append(a) or [])
    before = sorted(os.listdir(work))
    assert main(argv.format(**fill).split()) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("akvo: error: "), captured.err
    assert message.format(**fill) in lines[0]
    assert sorted(os.listdir(work)) == before and not played


def test_an_unreachable_scheduler_is_named_before_dask_is_asked(closed_port: int) -> None:
    with pytest.raises(LabError, match=f"scheduler unreachable: tcp://127.0.0.1:{closed_port}"):
        check_scheduler(f"tcp://127.0.0.1:{closed_port}")
    with pytest.raises(LabError, match="no valid port"):
        check_scheduler("tcp://127.0.0.1:99999")
    check_scheduler("inproc://somewhere")  # other transports: left to Dask's own timeout


def test_a_port_that_answers_is_a_scheduler_only_if_it_greets_like_one() -> None:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=0, processes=False, protocol="tcp", host="127.0.0.1", dashboard_address=None
    ) as cluster:
        assert cluster.scheduler_address.startswith("tcp://127.0.0.1:")
        check_scheduler(cluster.scheduler_address)  # a real scheduler passes
    with socket.socket() as silent:  # listens, accepts, never speaks (another service)
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        address = f"tcp://127.0.0.1:{silent.getsockname()[1]}"
        with pytest.raises(LabError, match="something answers there, but not a Dask"):
            check_scheduler(address, timeout=0.2)


def test_a_table_that_fails_at_the_end_is_kept_with_the_summary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "r.csv"

    def full_disk(path: Path, text: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(outputs, "write_whole", full_disk)
    monkeypatch.setattr(outputs.tempfile, "tempdir", str(tmp_path))
    argv = f"simulate perrockiss fish-tank -n 2 --seed 3 --workers 0 --no-progress --out {out}"
    assert main(argv.split()) == 1
    captured = capsys.readouterr()
    assert "victoires A (perrockiss)" in captured.out  # the summary is still printed
    (line,) = captured.err.strip().splitlines()
    assert f"cannot write '{out}' (No space left on device); the 2 matches saved to " in line
    kept = Path(line.rsplit("saved to ", 1)[1])
    assert kept.parent == tmp_path and kept.name.startswith("akvo-r-") and kept.suffix == ".csv"
    assert len(kept.read_text(encoding="utf-8").splitlines()) == 3  # header and 2 matches
    assert not out.exists()


def test_a_text_saved_nowhere_is_printed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def fail(*args: object, **kwargs: object) -> None:
        raise OSError(30, "Read-only file system")

    monkeypatch.setattr(outputs, "write_whole", fail)
    monkeypatch.setattr(outputs, "save_elsewhere", lambda text, path: None)
    out = tmp_path / "b.csv"
    argv = f"tournament perrockiss fish-tank -n 1 --effect-matches 0 --workers 0 --out {out}"
    assert main([*argv.split(), "--no-progress"]) == 1
    captured = capsys.readouterr()
    assert captured.out.endswith(_report_csv(captured.out))
    assert "the report printed above (no file could be written)" in captured.err


def _report_csv(printed: str) -> str:
    start = printed.index("section,subject,opponent")
    return printed[start:]


def test_write_whole_replaces_the_file_or_leaves_it(tmp_path: Path) -> None:
    path = tmp_path / "t.csv"
    path.write_text("old", encoding="utf-8")
    outputs.write_whole(path, "new")
    assert path.read_text(encoding="utf-8") == "new"
    assert os.listdir(tmp_path) == ["t.csv"]  # no temporary file left


def test_check_writable_accepts_a_new_file_and_leaves_nothing(tmp_path: Path) -> None:
    outputs.check_writable(tmp_path / "new.csv")
    assert os.listdir(tmp_path) == []
    with pytest.raises(outputs.OutputError, match="is a folder"):
        outputs.check_writable(tmp_path)
