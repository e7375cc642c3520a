"""Shot odds: the whole atlas computed cold, and the latency of a cached call.

The atlas (issue 3, item 8): 4 tiers × 4 distances × every attack rune (none, Attaque,
Confusion, Relance) × every defence rune (none, Défense, Confusion, Relance) × Résilience
0–3 × the five Ultimes that touch a shot on/off (Vigie, Souffle portant and Tourbillon on
the attacking side; Égide and Tourbillon on the defending side: 32 combinations), for a
shot on a mage — 32,768 shots. The extended atlas adds the same for a shot on a chest at
every interception distance (none, 1–4), leaving out the R20-illegal rune choices when
there is no interception — 176,128 shots in all.

*Cold*: every cache of akvo.shots and akvo.dice cleared first (face enumerations too).
Writes benchmarks/results/shots.md.

Run: .venv/bin/python benchmarks/bench_shots.py
"""

from __future__ import annotations

import datetime
import itertools
import os
import platform
import statistics
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from recorded import write

from akvo import dice, shots
from akvo.duel import rune_duel
from akvo.shots import ATTACK_RUNES, DEFENCE_RUNES, Side, shot_on_chest, shot_on_mage

RESULTS = Path(__file__).parent / "results" / "shots.md"
FLAGS = (False, True)
ATTACKERS = [
    Side(rune, vigie=vigie, tourbillon=tourbillon, souffle=souffle)
    for rune in ATTACK_RUNES
    for vigie, tourbillon, souffle in itertools.product(FLAGS, repeat=3)
]
DEFENDERS = [
    Side(rune, resilience=resilience, egide=egide, tourbillon=tourbillon)
    for rune in DEFENCE_RUNES
    for resilience in range(4)
    for egide, tourbillon in itertools.product(FLAGS, repeat=2)
]
SITUATIONS = list(itertools.product(range(1, 5), range(1, 5), ATTACKERS, DEFENDERS))


def clear_all_caches() -> None:
    shots.clear_caches()
    clear_dice = getattr(dice, "clear_caches", None)
    if clear_dice is not None:
        clear_dice()
    else:  # older akvo.dice: clear every functools cache it holds
        for value in vars(dice).values():
            if hasattr(value, "cache_clear"):
                value.cache_clear()


def mage_atlas() -> int:
    for tier, distance, attack, defence in SITUATIONS:
        shot_on_mage(tier, distance, attack, defence)
    return len(SITUATIONS)


def chest_atlas() -> int:
    count = 0
    for tier, distance, attack, defence in SITUATIONS:
        for interception in (None, 1, 2, 3, 4):
            if interception is None and (
                attack.rune == "confusion" or defence.rune in ("defense", "relance")
            ):
                continue  # R20: those runes cannot act without an interception
            shot_on_chest(tier, distance, interception, attack, defence)
            count += 1
    return count


def cold(fn: Callable[[], int], repeats: int) -> tuple[list[float], int]:
    times, count = [], 0
    for _ in range(repeats):
        clear_all_caches()
        t0 = time.perf_counter()
        count = fn()
        times.append(time.perf_counter() - t0)
    return times, count


def per_call(fn: Callable[[], object], calls: int = 100_000, repeats: int = 5) -> float:
    fn()  # fill the cache
    samples = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
        samples.append((time.perf_counter() - t0) / calls)
    return statistics.median(samples)


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as info:
            cpu = next(line.split(":", 1)[1].strip() for line in info if "model name" in line)
    except (OSError, StopIteration):
        pass
    return (
        f"{cpu} ({platform.machine()}, {os.cpu_count()} cores) / Python "
        f"{platform.python_version()} / numpy {np.__version__}"
    )


def main() -> None:
    mage_times, mage_count = cold(mage_atlas, 3)
    both_times, both_count = [], 0
    for _ in range(3):
        clear_all_caches()
        t0 = time.perf_counter()
        both_count = mage_atlas() + chest_atlas()
        both_times.append(time.perf_counter() - t0)

    relance, resilience = Side("relance"), Side(resilience=1)
    cached_prebuilt = per_call(lambda: shot_on_mage(3, 2, relance, resilience))
    cached_inline = per_call(lambda: shot_on_mage(3, 2, Side("relance"), Side(resilience=1)))
    cached_chest = per_call(lambda: shot_on_chest(2, 3, 1, relance, resilience))
    clear_all_caches()
    t0 = time.perf_counter()
    rune_duel("mage", 2, 2)  # first duel: scipy import + 16 shots
    first_duel = time.perf_counter() - t0
    duel = per_call(lambda: rune_duel("mage", 3, 2), calls=200, repeats=3)

    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        "# Shot odds: atlas and cached calls",
        "",
        f"Recorded {now} by `benchmarks/bench_shots.py`, on {machine()}.",
        "*Cold*: every cache of `akvo.shots` and `akvo.dice` cleared before the run (face",
        "enumerations included); times are min / median of 3 runs. Cached calls: median",
        "per-call time of 5 × 100,000 calls.",
        "",
        "| query | result | target |",
        "| --- | ---: | --- |",
        f"| atlas, {mage_count:,} mage shots, cold (min / median) "
        f"| {min(mage_times):.3f} s / {statistics.median(mage_times):.3f} s | < 2 s |",
        f"| extended atlas, {both_count:,} mage and chest shots, cold "
        f"| {min(both_times):.3f} s / {statistics.median(both_times):.3f} s | |",
        f"| one cached `shot_on_mage`, sides built beforehand "
        f"| {cached_prebuilt * 1e6:.2f} µs | < 50 µs |",
        f"| one cached `shot_on_mage`, sides built in the call "
        f"| {cached_inline * 1e6:.2f} µs | < 50 µs |",
        f"| one cached `shot_on_chest` | {cached_chest * 1e6:.2f} µs | < 50 µs |",
        f"| first `rune_duel` in the process (scipy import, cold shots) "
        f"| {first_duel * 1e3:.0f} ms | |",
        f"| one `rune_duel` with its shots cached (two `linprog` calls) | {duel * 1e3:.2f} ms | |",
        "",
    ]
    write(RESULTS, lines)


if __name__ == "__main__":
    main()
