"""What every benchmark's results file starts with, and the writing of it (shared by the
lab's benchmarks: bench_pairing, bench_ladder, bench_tournament)."""

from __future__ import annotations

import datetime
import os
import platform
from pathlib import Path


def stamp(script: str, where: str = "") -> str:
    """``Recorded <UTC time> by `benchmarks/<script>` on <machine> with N cores<where>,
    Python X; load average L at the end`` (the machine is shared: the load says how much)."""
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    return (
        f"Recorded {now} by `benchmarks/{script}` on {platform.machine()} with "
        f"{os.cpu_count()} cores{where}, Python {platform.python_version()}; load average "
        f"{os.getloadavg()[0]:.1f} at the end"
    )


def write(path: Path, lines: list[str]) -> None:
    """Print the report and record it in ``path``."""
    print("\n".join(lines))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
