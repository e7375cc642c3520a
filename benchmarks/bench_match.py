"""The match engine's and the greedy bot's speed, pure Python and compiled with mypyc
(:mod:`akvo.compiled`), against a reference commit built and measured side by side in the
same run (issue 22.7: every speed ≥ 95 % of the reference's).

Run on an idle machine, pinned to one core::

    taskset -c 0 .venv/bin/python benchmarks/bench_match.py [--reference d0e9807] [--repeats 5]

The reference (default :data:`REFERENCE`, the commit before the refactors of issue 22) is
extracted with ``git archive`` into a temporary folder and compiled there with mypyc
(``AKVO_COMPILE=1 setup.py build_ext --inplace``, 1–3 minutes), so that both versions are
measured pure (``AKVO_PURE=1``) and compiled. Every measure runs in a subprocess with that version's
folder first on ``sys.path``, reports which engine it ran (a stale or failed build would
silently fall back to pure Python: refused), and is timed in CPU time
(``time.process_time``), which other processes on a shared machine disturb far less. The
two versions alternate, measure after measure, so that both see the same load.

Measures: random-bot matches per second (``play_match(seed)``, French log on and
``log=False``) and greedy-vs-greedy matches per second (``akvo.lab.simulate`` in this
process, as ``bench_lab.py`` times it, after a warm-up). Writes benchmarks/results/match.md
(not with ``--no-record``). ``--profile`` profiles this process's engine instead (run it
with ``AKVO_PURE=1``: cProfile sees no compiled call).
"""

from __future__ import annotations

import argparse
import cProfile
import datetime
import json
import os
import platform
import pstats
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Any, Final

from akvo import compiled
from akvo.match import play_match  # noqa: F401  (run by --profile's cProfile string)

ROOT = Path(__file__).resolve().parent.parent
RESULTS = Path(__file__).parent / "results" / "match.md"
COUNTS = Path(__file__).parent / "results" / "match-instructions.md"
#: The commit before issue 22's refactors.
REFERENCE = "d0e9807"
TARGET = 0.95

# Timed in a subprocess: the engine in use and the matches per second of each repeat.
_RANDOM_TIMER = """
import json, sys, time
from akvo import compiled
from akvo.match import play_match  # noqa: F401  (run by --profile's cProfile string)
matches, repeats, log = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3] == "log"
kwargs = {} if log else {"log": False}
for seed in range(20):
    play_match(seed, **kwargs)
rates = []
for repeat in range(repeats):
    begin = time.process_time()
    for seed in range(repeat * matches, (repeat + 1) * matches):
        play_match(seed, **kwargs)
    rates.append(matches / (time.process_time() - begin))
print(json.dumps({"engine": compiled.ENGINE, "rate": max(rates)}))
"""

# Timed in a subprocess: greedy-vs-greedy matches per second on one core, the engine and the
# bots alone (two seeded greedy bots, chance from one seeded generator, no log), after a
# warm-up of 30 matches (the greedy bot's tables of shot values warm); then the same
# pairing through akvo.lab.simulate (no Dask), which adds the lab's own bookkeeping.
#: One greedy-vs-greedy match, the function both greedy subprocesses below define; it
#: returns the actions the match applied.
_GREEDY_PLAY = """def play(seed):
    rng = random.Random(seed)
    bots = (make_bot("greedy", seed=seed), make_bot("greedy", seed=seed + 1))
    state = new_match(log=False)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            state.apply_action(bots[state.current_player](state))
    return len(state.history)
"""

_GREEDY_TIMER = (
    """
import json, random, sys, time
from akvo import compiled
from akvo.bots import make_bot
from akvo.lab import simulate
from akvo.match import new_match
n, lab = int(sys.argv[1]), sys.argv[2] == "lab"
"""
    + _GREEDY_PLAY
    + """def run(count, first):
    if lab:
        simulate("perrockiss", "fish-tank", ("greedy", "greedy"), None, count, seed=first,
                 workers=0, progress=False)
    else:
        for seed in range(first, first + count):
            play(seed)
run(30, 10_000)
begin = time.process_time()
run(n, 1)
print(json.dumps({"engine": compiled.ENGINE, "rate": n / (time.process_time() - begin)}))
"""
)

# Counted under valgrind (``--instructions``): ``n`` matches after a warm-up; the count of
# the warm-up alone (``n`` = 0) is subtracted, leaving the instructions of the ``n`` matches.
# Prints the actions those matches applied, so that the count can be read per action too.
_RANDOM_COUNT = """
import json, sys
from akvo import compiled
from akvo.match import play_match
n, log = int(sys.argv[1]), sys.argv[2] == "log"
kwargs = {} if log else {"log": False}
for seed in range(20):
    play_match(seed, **kwargs)
actions = sum(len(play_match(seed, **kwargs).history) for seed in range(1000, 1000 + n))
print(json.dumps({"engine": compiled.ENGINE, "actions": actions}))
"""

_GREEDY_COUNT = (
    """
import json, random, sys
from akvo import compiled
from akvo.bots import make_bot
from akvo.match import new_match
n = int(sys.argv[1])
"""
    + _GREEDY_PLAY
    + """for seed in range(10_000, 10_030):
    play(seed)
actions = sum(play(seed) for seed in range(1, 1 + n))
print(json.dumps({"engine": compiled.ENGINE, "actions": actions}))
"""
)

#: Counted with ``--instructions`` (the lab's loop is information only and not counted).
COUNTED = ("random, log on", "random, log=False", "greedy")

#: Every measure, in the order of each repeat.
MEASURES = ("random, log on", "random, log=False", "greedy", "greedy in akvo.lab.simulate")
#: Measured for information: the lab's loop also counts each match's rule coverage.
INFORMATION = ("greedy in akvo.lab.simulate",)
MODES = ("pure", "compiled")


def reference_tree(commit: str, folder: Path) -> Path:
    """The whole tree of ``commit`` in ``folder``, its engine compiled with mypyc there."""
    archive = folder / "reference.tar"
    with archive.open("wb") as out:
        subprocess.run(["git", "-C", str(ROOT), "archive", commit], stdout=out, check=True)
    tree = folder / "tree"
    with tarfile.open(archive) as tar:
        tar.extractall(tree, filter="data")
    env = {**os.environ, "AKVO_COMPILE": "1"}
    env.pop(compiled.PURE_SWITCH, None)
    print(f"compiling the reference {commit} with mypyc (1–3 min)…", file=sys.stderr)
    subprocess.run(
        [sys.executable, "setup.py", "build_ext", "--inplace"],
        cwd=tree,
        env=env,
        check=True,
        capture_output=True,
    )
    return tree


#: numpy's OpenBLAS starts a pool of threads at import that spin while idle: their spinning
#: is counted with the process's instructions and its CPU time, and made the greedy count
#: vary by up to 7 % between two runs of the same script (with one thread: identical).
_ONE_THREAD: Final = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


def run_code(
    code: str, path: Path, mode: str, *args: str, under: tuple[str, ...] = ()
) -> tuple[dict[str, Any], str]:
    """Run ``code`` in a subprocess with the version in ``path`` and the ``mode`` engine
    (checked: a stale build would silently fall back to pure Python), prefixed by the
    command ``under`` if given; its JSON answer and its stderr. The hash seed is fixed."""
    env = {**os.environ, "PYTHONPATH": str(path), "PYTHONHASHSEED": "0", **_ONE_THREAD}
    env.pop(compiled.PURE_SWITCH, None)
    if mode == "pure":
        env[compiled.PURE_SWITCH] = "1"
    # From ``path``: ``python -c`` puts the working directory first on sys.path.
    done = subprocess.run(
        [*under, sys.executable, "-W", "ignore", "-c", code, *args],
        env=env,
        cwd=path,
        check=True,
        capture_output=True,
        text=True,
    )
    found = json.loads(done.stdout)
    if found["engine"] != mode:
        raise SystemExit(f"{path}: the {mode} engine was asked for, {found['engine']} ran")
    return found, done.stderr


def measure(code: str, path: Path, mode: str, *args: str) -> float:
    """Matches per second of ``code`` run with the version in ``path`` (``mode`` checked)."""
    found, _ = run_code(code, path, mode, *args)
    return float(found["rate"])


#: valgrind's cachegrind without cache simulation: it counts the instructions executed.
_VALGRIND = ("valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null")


def instructions(code: str, path: Path, mode: str, *args: str) -> tuple[int, int]:
    """Instructions executed by ``code`` under valgrind's cachegrind with the version in
    ``path``, and the actions it reports: deterministic (the hash seed is fixed), so
    neither the load nor the hypervisor moves it."""
    found, stderr = run_code(code, path, mode, *args, under=_VALGRIND)
    refs = [line for line in stderr.splitlines() if "I   refs:" in line or "I refs:" in line]
    if not refs:
        raise SystemExit(f"valgrind gave no instruction count:\n{stderr[-2000:]}")
    return int(refs[-1].split(":")[1].replace(",", "")), int(found["actions"])


def count_one(name: str, path: Path, mode: str, matches: int, greedy: int) -> tuple[int, int]:
    """Instructions and actions of the counted matches of measure ``name``: the run of
    ``n`` matches minus the run of the warm-up alone."""
    if name == "greedy":
        code, n, extra = _GREEDY_COUNT, greedy, []
    else:
        code, n, extra = _RANDOM_COUNT, matches, ["log" if name == "random, log on" else "nolog"]
    total, actions = instructions(code, path, mode, str(n), *extra)
    warm, _ = instructions(code, path, mode, "0", *extra)
    return total - warm, actions


def run_one(name: str, path: Path, mode: str, matches: int, greedy: int) -> float:
    if name.startswith("greedy"):
        return measure(_GREEDY_TIMER, path, mode, str(greedy), "lab" if "lab" in name else "")
    log = "log" if name == "random, log on" else "nolog"
    return measure(_RANDOM_TIMER, path, mode, str(matches), "2", log)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--reference", default=REFERENCE, help="the commit to compare with")
    parser.add_argument(
        "--reference-tree",
        type=Path,
        default=None,
        help="that commit already extracted and compiled there (skips the build)",
    )
    parser.add_argument("--matches", type=int, default=300, help="random matches per timing")
    parser.add_argument("--greedy", type=int, default=120, help="greedy matches per timing")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="count instructions under valgrind instead of timing (writes match-instructions.md)",
    )
    parser.add_argument("--count-matches", type=int, default=100, help="random matches counted")
    parser.add_argument("--count-greedy", type=int, default=30, help="greedy matches counted")
    parser.add_argument(
        "--no-record", dest="record", action="store_false", help="do not write the results"
    )
    args = parser.parse_args()
    if args.profile:
        cProfile.runctx(
            "for seed in range(matches): play_match(seed, log=False)",
            globals(),
            {"matches": args.matches},
            "/tmp/bench_match.prof",
        )
        pstats.Stats("/tmp/bench_match.prof").sort_stats("tottime").print_stats(25)
        return
    if compiled.ENGINE != "compiled":
        parser.error(f"the compiled engine is not in use ({compiled.REASON}): make compile")
    start_load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        built = args.reference_tree or reference_tree(args.reference, Path(tmp))
        versions = {"reference": built, "this": ROOT}
        if args.instructions:
            lines = count_report(args, versions)
            print("\n".join(lines))
            if args.record:
                COUNTS.write_text("\n".join(lines) + "\n", encoding="utf-8")
            return
        rates: dict[tuple[str, str, str], list[float]] = {}
        for repeat in range(args.repeats):  # interleaved: both versions see the same load
            for name in MEASURES:
                for mode in MODES:
                    order = ("reference", "this") if repeat % 2 == 0 else ("this", "reference")
                    for version in order:
                        rate = run_one(name, versions[version], mode, args.matches, args.greedy)
                        rates.setdefault((version, mode, name), []).append(rate)
            print(f"repeat {repeat + 1}/{args.repeats} done", file=sys.stderr)
    lines = report(args, rates, start_load, os.getloadavg()[0])
    print("\n".join(lines))
    if args.record:
        RESULTS.parent.mkdir(parents=True, exist_ok=True)
        RESULTS.write_text("\n".join(lines) + "\n", encoding="utf-8")


def count_report(args: argparse.Namespace, versions: dict[str, Path]) -> list[str]:
    """Count every measure's instructions in both versions, then ``this`` a second time (the
    count's own reproducibility); the results page (markdown)."""
    counts: dict[tuple[str, str, str], tuple[int, int]] = {}
    for mode in MODES:
        for name in COUNTED:
            for version in ("reference", "this"):
                counts[(version, mode, name)] = count_one(
                    name, versions[version], mode, args.count_matches, args.count_greedy
                )
                print(f"{mode}, {name}, {version}: {counts[version, mode, name]}", file=sys.stderr)
    again = count_one("random, log=False", ROOT, "compiled", args.count_matches, args.count_greedy)
    again_greedy = count_one("greedy", ROOT, "compiled", args.count_matches, args.count_greedy)
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    first = counts[("this", "compiled", "random, log=False")][0]
    greedy_first = counts[("this", "compiled", "greedy")][0]
    lines = [
        "# Match engine and greedy bot: instructions executed, this version against the reference",
        "",
        f"Recorded {now} by `benchmarks/bench_match.py --instructions` on {platform.machine()}, "
        f"Python {platform.python_version()}, load average {os.getloadavg()[0]:.1f} at the end "
        "(the counts do not depend on it). Reference: commit "
        f"{args.reference}, extracted and compiled with mypyc in the same run, as for the "
        "timings of `match.md`.",
        "",
        "Each measure runs under valgrind's cachegrind without cache simulation "
        "(`--tool=cachegrind --cache-sim=no`), which counts the machine instructions a "
        "process executes. The counted matches' instructions are the run of the warm-up and "
        "the matches minus the run of the warm-up alone (the interpreter's start, imports and "
        "warm-up cancel). The hash seed is fixed (`PYTHONHASHSEED=0`): the count is "
        "reproducible, and neither the load nor the hypervisor moves it, unlike CPU time on "
        "this virtual machine (`match.md`: ±15–30 % per repeat). It counts work, not time "
        "(cache misses and branch mispredictions are not in it): a speed ratio read from it "
        "is the ratio of work done per match.",
        "",
        f"Random: `play_match(seed)` for seeds 1000–{999 + args.count_matches} after 20 warm-up "
        f"matches. Greedy: two seeded greedy bots, seeds 1–{args.count_greedy} after 30 warm-up "
        "matches, `log=False` (the same code as the timings). *Per action*: instructions over "
        "the actions the matches applied (chance outcomes and decisions): since the reference "
        "the greedy bot also plays the rune U (issue 19), so its matches hold more actions.",
        "",
        "| measure | reference, instructions per match | this version | speed ratio per match "
        "(reference / this) | reference, per action | this, per action | speed ratio per action "
        f"| ≥ {TARGET:.0%} |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    n_of = {"greedy": args.count_greedy}
    verdicts = []
    for mode in MODES:
        for name in COUNTED:
            n = n_of.get(name, args.count_matches)
            (ref, ref_actions), (this, this_actions) = (
                counts[("reference", mode, name)],
                counts[("this", mode, name)],
            )
            per_match = ref / this
            per_action = (ref / ref_actions) / (this / this_actions)
            ok = min(per_match, per_action) >= TARGET if name != "greedy" else per_action >= TARGET
            verdicts.append(ok)
            lines.append(
                f"| {mode}, {name} | {ref / n / 1e6:.2f} M | {this / n / 1e6:.2f} M | "
                f"{per_match:.3f} | {ref / ref_actions / 1e3:.1f} k | "
                f"{this / this_actions / 1e3:.1f} k | {per_action:.3f} | "
                f"{'yes' if ok else 'NO'} |"
            )
    lines += [
        "",
        f"Reproducibility: the compiled random log=False count of this version, counted twice: "
        f"{first:,} and {again[0]:,} instructions ({abs(again[0] - first) / first:.4%} apart). "
        "The compiled greedy count of this version, counted twice: "
        f"{greedy_first:,} and {again_greedy[0]:,} "
        f"({abs(again_greedy[0] - greedy_first) / greedy_first:.4%} apart). Every subprocess "
        "runs numpy's OpenBLAS with one thread: its idle threads spin, and counted with the "
        "process they made the greedy count vary by up to 7 % between two runs.",
        "",
        "Verdict (random: per match and per action; greedy: per action, its matches being "
        "longer): "
        + ("every speed holds (≥ 95 % of the reference)." if all(verdicts) else "SLOWER."),
    ]
    return lines


def report(
    args: argparse.Namespace,
    rates: dict[tuple[str, str, str], list[float]],
    start_load: float,
    end_load: float,
) -> list[str]:
    """The results page (markdown): medians, each repeat's ratio, the verdict."""
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    pinned = len(os.sched_getaffinity(0)) == 1 if hasattr(os, "sched_getaffinity") else False
    lines = [
        "# Match engine and greedy bot: this version against the reference",
        "",
        f"Recorded {now} by `benchmarks/bench_match.py`"
        + (" (pinned to one core with `taskset -c 0`)" if pinned else " (not pinned)")
        + f", on {platform.machine()} with {os.cpu_count()} cores, Python "
        f"{platform.python_version()}; load average {start_load:.1f} at the start of the run, "
        f"{end_load:.1f} at the end (other processes shared the machine: both versions "
        "alternate and are timed in CPU time; compare the ratios). Rerun on an idle machine: "
        "`taskset -c 0 .venv/bin/python benchmarks/bench_match.py` (after `make compile`).",
        "",
        f"The reference is commit {args.reference} (the commit before issue 22's refactors), "
        "extracted with `git archive` and compiled with mypyc in a temporary folder in the "
        "same run; each measure runs in a subprocess that reports the engine it ran (pure or "
        "compiled, checked). Random: `play_match(seed)`, two seeded uniform random bots, "
        f"Perrockiss against Fish Tank, best of 2 × {args.matches} matches per timing. "
        f"Greedy: two seeded greedy bots against each other, {args.greedy} matches after 30 "
        "warm-up matches, the engine and the bots alone (`log=False`); then the same "
        "pairing through `akvo.lab.simulate` (no Dask), for information: since the "
        "reference the lab's loop also counts each match's runes, Ultimes and variant "
        "branches (`akvo.lab.coverage`, issue 19), a cost of the lab, not of the engine "
        "or the bot. Since the reference the greedy bot also plays the rune U (issue 19): "
        "its matches hold more decisions, so the greedy ratios are a floor.",
        "",
        f"| measure (median of {args.repeats} alternating repeats) | reference, matches/s | "
        f"this version | this / reference | each repeat's ratio | ≥ {TARGET:.0%} |",
        "| --- | ---: | ---: | ---: | --- | --- |",
    ]
    verdicts = []
    for mode in MODES:
        for name in MEASURES:
            ref, this = rates[("reference", mode, name)], rates[("this", mode, name)]
            ratio = statistics.median(this) / statistics.median(ref)
            each = " · ".join(f"{t / r:.2f}" for t, r in zip(this, ref, strict=True))
            ok = ratio >= TARGET
            if name not in INFORMATION:
                verdicts.append(ok)
            lines.append(
                f"| {mode}, {name} | {statistics.median(ref):.1f} | "
                f"{statistics.median(this):.1f} | {ratio:.2f} | {each} | "
                f"{'yes' if ok else 'NO'}{' (information)' if name in INFORMATION else ''} |"
            )
    lines += [
        "",
        "Verdict: "
        + ("every speed holds (≥ 95 % of the reference)." if all(verdicts) else "SLOWER."),
        "",
        "Where the performance idioms live: in the bots' hot path (`akvo.bots.values`: "
        "shot worths in a flat per-rules list at an index packed from small ints, rune gains "
        "cached by one packed int, the distance arithmetic inlined in the two target loops; "
        "`akvo.match.bots`: `play_match`'s random bots draw straight from `legal`), each with "
        "a comment saying why. The engine's rules modules (`akvo.match.flow`, `shooting`, "
        "`ultimes`, `geometry`) read like the rules: their speed comes from mypyc "
        "(`akvo.compiled`), the phase table and data declared once where it is chosen "
        "(small ints and bit masks in `akvo.match.board` and `phases`, memoised rune choices "
        "in `akvo.match.roster`), not from hand-inlined code.",
    ]
    return lines


if __name__ == "__main__":
    main()
