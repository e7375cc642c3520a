"""Where a kernel start goes (issue 20.3): the interpreter, ipykernel, the widget stack, the
book's imports, timed in turn in fresh interpreters (median of a few runs; a step's time is
what it adds to the imports before it).

Usage: ``.venv/bin/python benchmarks/bench_kernel_start.py [--runs 5]``; prints a Markdown
table (with the load average: on the shared machine every figure is inflated, the shares
less so). A page's own cells are timed by Voilà's pre-heating, not here.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

#: Each step's imports, in the order a book kernel meets them.
STEPS = (
    ("ipykernel", "ipykernel.kernelapp"),
    ("ipywidgets", "ipywidgets"),
    ("numpy", "numpy"),
    ("bqplot", "bqplot"),
    ("akvo (engine)", "akvo.match"),
    ("akvo_widgets (the book's widgets)", "akvo_widgets"),
    ("scipy.stats (only pages that use it)", "scipy.stats"),
)
#: One fresh interpreter: times each step's imports in turn, prints them as JSON.
PROBE = """
import importlib, json, sys, time
steps, out = json.loads(sys.argv[1]), []
for module in steps:
    start = time.perf_counter()
    importlib.import_module(module)
    out.append(time.perf_counter() - start)
print(json.dumps(out))
"""


def one_run() -> tuple[float, list[float]]:
    """(whole process, each step's import) in seconds, for one fresh interpreter."""
    start = time.perf_counter()
    answer = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps([module for _, module in STEPS])],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return time.perf_counter() - start, json.loads(answer)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    load = " / ".join(f"{x:.1f}" for x in os.getloadavg())
    one_run()  # warm the file cache
    runs = [one_run() for _ in range(args.runs)]
    print(f"load average at the start {load}; median of {args.runs} fresh interpreters\n")
    print("| step | import (s) |\n|---|---|")
    for index, (name, _) in enumerate(STEPS):
        print(f"| {name} | {statistics.median(r[1][index] for r in runs):.2f} |")
    total = statistics.median(r[0] for r in runs)
    imports = statistics.median(sum(r[1]) for r in runs)
    print(f"| interpreter start and exit (the rest) | {total - imports:.2f} |")
    print(f"| **whole process** | **{total:.2f}** |")


if __name__ == "__main__":
    main()
