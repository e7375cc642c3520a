"""Random-bot matches per second on one core, this engine — in pure Python and compiled with
mypyc (:mod:`akvo.compiled`) — against the engine of commit 4010143 measured in the same run
(targets: ≥ 200 matches/s; ≥ 3× the old engine); and the bots' matches per second, pure and
compiled (target: greedy ≥ 1/3 of random).

Run: ``taskset -c 0 .venv/bin/python benchmarks/bench_match.py [--matches N] [--profile]``.
Each match is ``play_match(seed)``: two seeded random bots, chance from one seeded generator.
The old engine is extracted with ``git archive`` into a temporary folder and timed in a
subprocess with that folder first on ``PYTHONPATH``; this engine runs in subprocesses too,
with ``AKVO_PURE=1`` for pure Python. The engines alternate, repeat after repeat, so that all
see the same machine load, and each is timed in CPU time (``time.process_time``), which other
processes on a shared machine disturb far less. Compile first (``make compile``).
Writes benchmarks/results/match.md (not with ``--profile`` or ``--no-record``). ``--profile``
profiles this process's engine: run it with ``AKVO_PURE=1`` (cProfile sees no compiled call).
"""

from __future__ import annotations

import argparse
import cProfile
import datetime
import json
import os
import platform
import pstats
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

from akvo import compiled
from akvo.match import MatchState, new_match, play_match

ROOT = Path(__file__).resolve().parent.parent
RESULTS = Path(__file__).parent / "results" / "match.md"
OLD_COMMIT = "4010143"

# Timed in a subprocess: prints the matches per second of each repeat as JSON.
_TIMER = """
import json, sys, time
from akvo.match import play_match
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
print(json.dumps(rates))
"""

# Timed in a subprocess: matches per second of each bot pairing on one core (akvo.lab with
# no Dask worker, as bench_lab.py times them), after a warm-up run of 200 matches of each
# (bench_lab's default: the greedy bot's tables of shot values are warm). The two pairings
# alternate in three chunks of new matches each (seeds 1, 2, 3), so that both see the same
# machine speed.
_BOTS_TIMER = """
import json, sys, time
from akvo.lab import simulate
counts = {"random": int(sys.argv[1]), "greedy": int(sys.argv[2])}
spent = {"random": 0.0, "greedy": 0.0}
for bot in counts:
    simulate("perrockiss", "fish-tank", (bot, bot), None, 200, seed=99, workers=0,
             progress=False)
for chunk in range(3):
    for bot, n in counts.items():
        begin = time.process_time()
        simulate("perrockiss", "fish-tank", (bot, bot), None, n // 3, seed=1 + chunk, workers=0,
                 progress=False)
        spent[bot] += time.process_time() - begin
print(json.dumps({bot: 3 * (n // 3) / spent[bot] for bot, n in counts.items()}))
"""

# The engines timed, in the order of each repeat: (name, path, AKVO_PURE, log).
ENGINES = ("old", "pure", "pure_nolog", "compiled", "compiled_nolog")


def play_by_copies(seed: int) -> MatchState:
    """The same random play, but every step makes a new state with ``child``."""
    rng = random.Random(seed)
    state = new_match()
    while not state.is_terminal():
        if state.is_chance_node():
            state = state.child(state.sample_chance(rng))
        else:
            legal = state.legal_actions()
            state = state.child(legal[int(rng.random() * len(legal))])
    return state


def old_engine(folder: Path) -> Path:
    """The engine of :data:`OLD_COMMIT`, extracted from git into ``folder``."""
    archive = folder / "old.tar"
    with archive.open("wb") as out:
        subprocess.run(
            ["git", "-C", str(ROOT), "archive", OLD_COMMIT, "akvo"], stdout=out, check=True
        )
    with tarfile.open(archive) as tar:
        tar.extractall(folder, filter="data")
    return folder


def run_timer(code: str, path: Path, pure: bool, *args: str) -> object:
    """The JSON printed by ``code`` run with the engine found on ``path``."""
    env = {**os.environ, "PYTHONPATH": str(path)}
    env.pop(compiled.PURE_SWITCH, None)
    if pure:
        env[compiled.PURE_SWITCH] = "1"
    # Run from ``path``: ``python -c`` puts the working directory first on sys.path, before
    # PYTHONPATH (started from the repository, the "old engine" would be this one).
    output = subprocess.run(
        [sys.executable, "-c", code, *args],
        env=env,
        cwd=path,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return json.loads(output)


def timed(path: Path, matches: int, log: bool, pure: bool = False) -> float:
    """Best-of-two matches per second of the engine found on ``path``."""
    rates = run_timer(_TIMER, path, pure, str(matches), "2", "log" if log else "nolog")
    assert isinstance(rates, list)
    return max(rates)


def bot_rates(pure: bool, random_n: int, greedy_n: int) -> dict[str, float]:
    """Matches per second on one core, random vs random and greedy vs greedy."""
    rates = run_timer(_BOTS_TIMER, ROOT, pure, str(random_n), str(greedy_n))
    assert isinstance(rates, dict)
    return rates


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", type=int, default=300)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--random-bots", type=int, default=600, help="random-vs-random matches")
    parser.add_argument("--greedy-bots", type=int, default=150, help="greedy-vs-greedy matches")
    parser.add_argument("--profile", action="store_true")
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
    with tempfile.TemporaryDirectory() as tmp:
        old_path = old_engine(Path(tmp))
        rates: dict[str, list[float]] = {name: [] for name in ENGINES}
        bots: dict[str, list[dict[str, float]]] = {"pure": [], "compiled": []}
        for _ in range(args.repeats):  # interleaved: each engine sees the same load
            rates["old"].append(timed(old_path, args.matches, True))
            for mode in ("pure", "compiled"):
                rates[mode].append(timed(ROOT, args.matches, True, mode == "pure"))
                rates[f"{mode}_nolog"].append(timed(ROOT, args.matches, False, mode == "pure"))
        for _ in range(max(1, args.repeats // 2)):
            for mode in ("pure", "compiled"):
                bots[mode].append(bot_rates(mode == "pure", args.random_bots, args.greedy_bots))
    copies = args.matches // 5
    begin = time.process_time()
    for seed in range(copies):
        play_by_copies(seed)
    copy_rate = copies / (time.process_time() - begin)
    actions = statistics.mean(len(play_match(s).history) for s in range(100))
    lines = report(args.matches, args.repeats, rates, actions, copies, copy_rate)
    lines += bots_table(bots, args.random_bots, args.greedy_bots)
    print("\n".join(lines))
    if args.record:
        RESULTS.parent.mkdir(parents=True, exist_ok=True)
        RESULTS.write_text("\n".join(lines) + "\n", encoding="utf-8")


def bots_table(bots: dict[str, list[dict[str, float]]], random_n: int, greedy_n: int) -> list[str]:
    """The bots' rates on one core, pure and compiled (medians of the repeats)."""

    def median(mode: str, bot: str) -> float:
        return statistics.median(rates[bot] for rates in bots[mode])

    lines = [
        "",
        "## The bots, pure and compiled",
        "",
        "Matches per second on one core (CPU time, after 200 warm-up matches; the two pairings "
        "alternate in three chunks of new matches), `akvo.lab.simulate` "
        f"with no Dask worker as `bench_lab.py` times it: {random_n} random-vs-random and "
        f"{greedy_n} greedy-vs-greedy matches, median of {len(bots['pure'])} alternating "
        "repeats. Target: greedy ≥ 1/3 of random. The greedy bot's code is compiled, not the "
        "exact shot values it computes on a table miss (`akvo.shots`). What keeps it fast "
        "(`akvo.bots.values`): a shot's worth is read from a flat per-rules list at an index "
        "packed from the few small ints that decide it (no tuple key to build and hash, "
        "nothing for the garbage collector to scan), a mage's best worth is computed from "
        "that table in one pass instead of cached by position (its hit rate was low), the "
        "Ultimes' gains find each shooter's shots once for all the effects, the rune gains "
        "are cached by one packed int; the hot code avoids what mypyc compiles slowly "
        "(`Final` tuples read at a variable index, `abs`, non-`Final` module constants). "
        "Every decision is unchanged (tests/test_bots.py hashes 90 seeded matches).",
        "",
        "| engine | random vs random | greedy vs greedy | greedy / random |",
        "| --- | ---: | ---: | ---: |",
    ]
    for mode in ("pure", "compiled"):
        random_rate, greedy_rate = median(mode, "random"), median(mode, "greedy")
        lines.append(
            f"| {mode} | {random_rate:.0f} | {greedy_rate:.1f} | {greedy_rate / random_rate:.2f} |"
        )
    for bot in ("random", "greedy"):
        ratio = median("compiled", bot) / median("pure", bot)
        lines.append(f"| compiled / pure, {bot} | | | {ratio:.2f}× |")
    return lines


def report(
    matches: int,
    repeats: int,
    rates: dict[str, list[float]],
    actions: float,
    copies: int,
    copy_rate: float,
) -> list[str]:
    """The results page (markdown)."""
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    pinned = len(os.sched_getaffinity(0)) == 1 if hasattr(os, "sched_getaffinity") else False
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    old = statistics.median(rates["old"])

    def rate(name: str) -> float:
        return statistics.median(rates[name])

    return [
        "# Match engine: random-bot matches per second",
        "",
        f"Recorded {now} by `benchmarks/bench_match.py`"
        + (" (pinned to one core with `taskset -c 0`)" if pinned else "")
        + f", on {platform.machine()} with {os.cpu_count()} cores, Python "
        f"{platform.python_version()}; load average {load:.1f} at the end of the run (other "
        "processes may share the machine: the engines alternate and are timed in CPU time; "
        "compare the ratios, and treat the absolute numbers as a floor).",
        "",
        "Each match: `akvo.match.play_match(seed)` — Perrockiss against Fish Tank, default rules,",
        "two seeded uniform random bots, chance from one seeded `random.Random`, the whole turn",
        "sequence including tie-break turns; the state is changed in place. The old engine is",
        f"commit {OLD_COMMIT}, timed in a subprocess in the same run; both play the same matches",
        "(same seeds, identical histories and logs).",
        "",
        f"| engine (median of {repeats} × best of 2 × {matches} matches) | matches/s | "
        "vs old | target |",
        "| --- | ---: | ---: | --- |",
        f"| old engine ({OLD_COMMIT}), French log on | {old:.0f} | 1.00× | |",
        f"| this engine, pure Python, French log on | {rate('pure'):.0f} | "
        f"{rate('pure') / old:.2f}× | |",
        f"| this engine, pure Python, `log=False` | {rate('pure_nolog'):.0f} | "
        f"{rate('pure_nolog') / old:.2f}× | |",
        f"| this engine, compiled, French log on (default) | {rate('compiled'):.0f} | "
        f"{rate('compiled') / old:.2f}× | ≥ 1× |",
        f"| this engine, compiled, `log=False` | {rate('compiled_nolog'):.0f} | "
        f"{rate('compiled_nolog') / old:.2f}× | ≥ 3× |",
        "",
        "| measure | value |",
        "| --- | ---: |",
        "| each repeat, old / pure / pure without log / compiled / compiled without log | "
        + " · ".join("/".join(f"{r:.0f}" for r in rep) for rep in zip(*rates.values(), strict=True))
        + " |",
        f"| compiled / pure, log on · `log=False` | {rate('compiled') / rate('pure'):.2f}× · "
        f"{rate('compiled_nolog') / rate('pure_nolog'):.2f}× |",
        f"| recorded actions per match (decisions + chance outcomes) | {actions:.0f} |",
        f"| same play with a new state per step (`child`, {copies} matches, compiled) | "
        f"{copy_rate:.0f} |",
        "",
        "What keeps it fast: the state is flat lists of small ints in `__slots__`; one table",
        "from phase to functions; legal actions computed once per node and memoised where they",
        "repeat (activations per roster, rune choices per roster on the unspent candidate runes,",
        "targets per position); one chance node per roll, its dice drawn as one index into a",
        "table of every roll (the same `random()` calls, first die first); nodes with a single",
        "legal action played at once; runes are bit masks; with `log=False` no French sentence",
        "is built; `play_match`'s two random bots draw straight from `legal` and skip the checks",
        "a foreign bot's answer needs (the same draws: same histories).",
        "",
        "The compiled engine: mypyc compiles the engine's and the bots' modules",
        "(`akvo.compiled.MODULES`) from the same typed sources into C extensions (`make",
        "compile`, part of `make install`); classes become native (attributes at fixed",
        "offsets), calls between compiled functions are direct C calls, and ints and bools",
        "are unboxed where the types say so. Behaviour is identical: the same histories, logs",
        "and records (tests/test_compiled.py plays the same seeded matches both ways; `make",
        "test` runs the golden playthroughs and records once more with `AKVO_PURE=1`). In pure",
        "Python, what is left is spread thin — per action the settle loop, one legal-action",
        "function and one decision function, a few Python calls each (profile with",
        "`AKVO_PURE=1 … --profile`).",
    ]


if __name__ == "__main__":
    main()
