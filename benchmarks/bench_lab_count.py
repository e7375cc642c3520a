"""The lab's greedy matches (``akvo.lab.simulate``, coverage on) and the engine's own matches,
counted in machine instructions, compiled, in three trees: the reference of issue 22
(d0e9807), a commit before a change and one after it.

Issue 35 measured the lab at 0.45× of the reference because its coverage counter re-derived
each rules switch's trigger on every decision; the engine now counts the switches where it
decides (:mod:`akvo.switches`) and the lab reads the counts at the end of a match. CPU time
on this shared virtual machine moves by ±15–30 % per repeat (``results/match.md``); the
instructions executed do not depend on the load (``results/match-instructions.md``)::

    .venv/bin/python benchmarks/bench_lab_count.py [--before 7412dcd^] [--after HEAD]

Each tree is extracted with ``git archive`` and compiled with mypyc under ``--work`` (kept
between runs: a tree already built there is reused). Every count runs under valgrind's
cachegrind without cache simulation: ``n`` matches after a warm-up, minus the warm-up alone.
Writes ``benchmarks/results/lab-count.md`` (not with ``--no-record``).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Final

from bench_match import _GREEDY_PLAY, reference_tree  # one greedy match, one build

ROOT = Path(__file__).resolve().parent.parent
RESULTS = Path(__file__).parent / "results" / "lab-count.md"
REFERENCE: Final = "d0e9807"
VALGRIND: Final = (
    "valgrind",
    "--tool=cachegrind",
    "--cache-sim=no",
    "--cachegrind-out-file=/dev/null",
)
#: numpy's idle OpenBLAS threads spin and are counted with the process: one thread.
ONE_THREAD: Final = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}

_LAB = """
import json, sys
from akvo import compiled
from akvo.lab import simulate
n = int(sys.argv[1])
def run(count, seed):
    simulate("perrockiss", "fish-tank", ("greedy", "greedy"), None, count, seed=seed,
             workers=0, progress=False)
run(20, 10_000)
if n:
    run(n, 1)
print(json.dumps({"engine": compiled.ENGINE}))
"""
_GREEDY = (
    """
import json, random, sys
from akvo import compiled
from akvo.bots import make_bot
from akvo.match import new_match
"""
    + _GREEDY_PLAY
    + """n = int(sys.argv[1])
for seed in range(10_000, 10_020):
    play(seed)
for seed in range(1, 1 + n):
    play(seed)
print(json.dumps({"engine": compiled.ENGINE}))
"""
)
_RANDOM = """
import json, sys
from akvo import compiled
from akvo.match import play_match
n = int(sys.argv[1])
for seed in range(20):
    play_match(seed, log=False)
for seed in range(1000, 1000 + n):
    play_match(seed, log=False)
print(json.dumps({"engine": compiled.ENGINE}))
"""
#: Each measure: its code and how many matches it counts.
MEASURES: Final = {
    "greedy in akvo.lab.simulate": (_LAB, 20),
    "greedy, engine and bots": (_GREEDY, 20),
    "random, log=False": (_RANDOM, 200),
}


def tree(name: str, commit: str, work: Path) -> Path:
    """``commit``'s tree under ``work``/``name``, compiled with mypyc (reused if built)."""
    folder = work / name
    stamp = folder / ".built"
    if stamp.exists() and stamp.read_text() == commit:
        return folder / "tree"
    folder.mkdir(parents=True, exist_ok=True)
    built = reference_tree(commit, folder)
    stamp.write_text(commit)
    return built


def count(code: str, folder: Path, n: int) -> int:
    """Instructions of ``code`` run with the tree in ``folder`` (compiled engine checked)."""
    env = {**os.environ, "PYTHONPATH": str(folder), "PYTHONHASHSEED": "0", **ONE_THREAD}
    env.pop("AKVO_PURE", None)
    done = subprocess.run(
        [*VALGRIND, sys.executable, "-W", "ignore", "-c", code, str(n)],
        env=env,
        cwd=folder,
        check=True,
        capture_output=True,
        text=True,
    )
    if json.loads(done.stdout)["engine"] != "compiled":
        raise SystemExit(f"{folder}: the compiled engine did not run")
    refs = [line for line in done.stderr.splitlines() if "I refs:" in line or "I   refs:" in line]
    return int(refs[-1].split(":")[1].replace(",", ""))


def _uptime() -> str:
    """The machine's load averages, as ``uptime`` prints them (instructions do not depend on
    the load; the house rules record it beside every figure)."""
    return "load average: " + ", ".join(f"{load:.2f}" for load in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--reference", default=REFERENCE)
    parser.add_argument("--before", default="7412dcd^", help="the commit before the change")
    parser.add_argument("--after", default="HEAD", help="the commit after it")
    parser.add_argument("--work", type=Path, default=Path("/tmp/akvo-lab-count"))
    parser.add_argument("--no-record", dest="record", action="store_false")
    args = parser.parse_args()
    commits = {"reference": args.reference, "before": args.before, "after": args.after}
    resolved = {
        name: subprocess.run(
            ["git", "-C", str(ROOT), "rev-parse", "--short", commit],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        for name, commit in commits.items()
    }
    folders = {name: tree(name, resolved[name], args.work) for name in commits}
    load_before = _uptime()
    per_match: dict[tuple[str, str], float] = {}
    for measure, (code, n) in MEASURES.items():
        for name, folder in folders.items():
            per_match[measure, name] = (count(code, folder, n) - count(code, folder, 0)) / n
            print(f"{measure}, {name}: {per_match[measure, name]:,.0f}", file=sys.stderr)
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    command = " ".join(["benchmarks/bench_lab_count.py", *sys.argv[1:]])
    lines = [
        "# The lab's greedy matches with coverage on, in instructions (reference, before, after)",
        "",
        f"Recorded {now} by `.venv/bin/python {command}` (`uptime` before the counts: "
        f"{load_before}; after: {_uptime()}): reference {resolved['reference']}, "
        f"before {resolved['before']}, after {resolved['after']}, each compiled with mypyc; "
        "valgrind cachegrind without cache simulation, the counted matches minus the warm-up "
        "alone (load-independent: see `match-instructions.md`). Speed ratio = the reference's "
        "instructions per match over the version's. Since the reference the greedy bot also "
        "plays the rune U, so its matches hold more decisions: the greedy ratios are a floor.",
        "",
        "| measure | reference, M per match | before | after | before / ref. speed "
        "| after / ref. speed |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for measure in MEASURES:
        ref, before, after = (per_match[measure, name] for name in commits)
        lines.append(
            f"| {measure} | {ref / 1e6:.2f} | {before / 1e6:.2f} | {after / 1e6:.2f} | "
            f"{ref / before:.2f} | {ref / after:.2f} |"
        )
    print("\n".join(lines))
    if args.record:
        RESULTS.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
