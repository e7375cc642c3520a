"""Every benchmark still imports against the current code and has a ``main``.

The benchmarks run by hand on an idle machine, not in CI; a renamed engine constant once
broke one silently (``bench_bots.py`` imported ``ORDERS`` from its old module). Importing
each script catches that without running it.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = sorted((ROOT / "benchmarks").glob("bench_*.py"))


def test_the_benchmarks_are_found() -> None:
    names = {path.stem for path in BENCHMARKS}
    assert {
        "bench_match",
        "bench_lab",
        "bench_site",
        "bench_load",
        "bench_play",
        "bench_roundtrip",
    } <= names


@pytest.mark.parametrize("path", BENCHMARKS, ids=lambda path: path.stem)
def test_a_benchmark_imports_and_has_a_main(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(ROOT))
    monkeypatch.syspath_prepend(str(path.parent))
    spec = importlib.util.spec_from_file_location(f"benchmark_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)
    spec.loader.exec_module(module)
    assert callable(getattr(module, "main", None))
