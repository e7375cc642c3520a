"""The chaos benchmark in small (issue 37): three book servers behind HAProxy on one
PostgreSQL, six tables played to their end by scripts through the proxy while their event
streams are cut, and one server SIGKILLed mid-game and restarted.

It asserts what ``benchmarks/bench_chaos.py`` asserts at scale (the figures, such as the
time to resync or to route around the dead server, live in ``benchmarks/results/chaos.md``):
every acknowledged action is in its table's log exactly once and in order, every seat's
last pushed view and every live server's views equal a fresh replay of the log, every table
finishes, and the proxy answers for every table again after the kill. Without PostgreSQL,
psycopg or HAProxy it skips, saying why, unless ``AKVO_REQUIRE_POSTGRES=1`` (CI), where it
fails."""

from __future__ import annotations

import importlib.util
import sys
import tempfile
from pathlib import Path
from types import ModuleType

import pytest

from tests.tables_play import require_postgres

ROOT = Path(__file__).resolve().parents[3]
#: Starts servers and plays six whole matches: the server lane, out of ``make check``.
pytestmark = [pytest.mark.server, pytest.mark.slow]


def _bench() -> ModuleType:
    path = ROOT / "benchmarks" / "bench_chaos.py"
    sys.path.insert(0, str(path.parent))
    spec = importlib.util.spec_from_file_location("bench_chaos", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_no_acknowledged_action_is_lost_and_every_table_finishes_through_a_sigkill() -> None:
    require_postgres(haproxy=True)
    bench = _bench()
    plan = bench.Plan(
        tables=6,
        kill_at=150,
        restart_after=1.0,
        drop_every=0.3,
        deadline=600.0,
        kinds=(
            {"players": 2},
            {"players": 2, "bots": {"B": "hasard"}},
            {"players": 4, "bots": {"B2": "hasard"}},
            {"players": 6},
        ),
    )
    with tempfile.TemporaryDirectory(prefix="akvo-chaos-test-") as folder:
        stats, checked = bench.chaos(plan, Path(folder))
    assert bench.problems(checked, stats) == []
    assert checked["acked"] > 6 * 50 and stats.killed_at is not None
    assert stats.drops > 0 and stats.resync  # streams were cut and came back
    assert checked["compared"] >= 6 * 2 * 3  # every seat's view, from live servers and pushes
