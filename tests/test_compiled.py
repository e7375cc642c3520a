"""The optional compiled engine (akvo.compiled): all or none, never stale, same play.

Each check runs in a fresh interpreter, as the choice is made once, at ``import akvo``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from akvo import compiled

ROOT = Path(__file__).resolve().parents[1]
BUILT = not compiled.stale_reason()
needs_build = pytest.mark.skipif(
    not BUILT, reason=f"no fresh compiled engine here ({compiled.REASON})"
)

# Prints which engine runs, the kind of file each compiled module came from, and the
# histories of two seeded matches (random bots, then greedy against random).
_PROBE = """
import importlib, json, warnings
warnings.simplefilter("always")
with warnings.catch_warnings(record=True) as caught:
    import akvo
from akvo import compiled
from akvo.bots import make_bot
from akvo.match import play_match
kinds = sorted({
    "so" if importlib.import_module(m).__file__.endswith(".so") else "py" for m in compiled.MODULES
})
histories = [
    play_match(3).history,
    play_match(4, bots=(make_bot("greedy", seed=1), make_bot("random", seed=2))).history,
]
print(json.dumps({
    "engine": compiled.ENGINE, "reason": compiled.REASON, "kinds": kinds,
    "warnings": [str(w.message) for w in caught], "histories": histories,
}))
"""


def probe(pure: bool, path: Path = ROOT) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if k != compiled.PURE_SWITCH}
    if pure:
        env[compiled.PURE_SWITCH] = "1"
    env["PYTHONPATH"] = str(path)
    # Run from ``path``: ``python -c`` puts the working directory first on sys.path.
    command = [sys.executable, "-c", _PROBE]
    out = subprocess.run(command, env=env, cwd=path, capture_output=True, text=True, check=True)
    result: dict[str, object] = json.loads(out.stdout)
    return result


def test_the_switch_forces_pure_python_everywhere() -> None:
    pure = probe(pure=True)
    assert pure["engine"] == "pure"
    assert pure["reason"] == "AKVO_PURE=1"
    assert pure["kinds"] == ["py"]
    assert pure["warnings"] == []


@needs_build
def test_a_fresh_build_runs_compiled_and_plays_the_same_matches() -> None:
    fast, pure = probe(pure=False), probe(pure=True)
    assert fast["engine"] == "compiled"
    assert fast["kinds"] == ["so"]
    assert fast["warnings"] == []
    assert fast["histories"] == pure["histories"]
    assert len(fast["histories"][0]) > 100  # type: ignore[index]


@needs_build
def test_an_edited_source_falls_back_to_pure_python_with_a_warning(tmp_path: Path) -> None:
    """A copy of the built package with one compiled module edited: every module runs from
    its source (all or none), and a warning names the edited file."""
    shutil.copytree(ROOT / "akvo", tmp_path / "akvo", ignore=shutil.ignore_patterns("__pycache__"))
    edited = tmp_path / "akvo" / "match" / "flow.py"
    edited.write_text(edited.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    stale = probe(pure=False, path=tmp_path)
    assert stale["engine"] == "pure"
    assert stale["kinds"] == ["py"]
    assert stale["reason"] == "akvo/match/flow.py changed since it was compiled"
    assert len(stale["warnings"]) == 1  # type: ignore[arg-type]
    assert "make compile" in stale["warnings"][0]  # type: ignore[index]


@needs_build
def test_an_edited_dependency_of_the_compiled_code_also_falls_back(tmp_path: Path) -> None:
    """akvo.rules is not compiled, but the compiled code was built against its constants."""
    shutil.copytree(ROOT / "akvo", tmp_path / "akvo", ignore=shutil.ignore_patterns("__pycache__"))
    edited = tmp_path / "akvo" / "rules.py"
    edited.write_text(edited.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    assert probe(pure=False, path=tmp_path)["reason"] == (
        "akvo/rules.py changed since it was compiled"
    )


def test_no_manifest_means_pure_python_without_a_warning(tmp_path: Path) -> None:
    shutil.copytree(
        ROOT / "akvo",
        tmp_path / "akvo",
        ignore=shutil.ignore_patterns("__pycache__", "*.so", "compiled.json"),
    )
    result = probe(pure=False, path=tmp_path)
    assert (result["engine"], result["reason"]) == ("pure", compiled.NOT_COMPILED)
    assert result["warnings"] == []


def test_the_manifest_covers_what_the_compiled_code_is_built_from() -> None:
    sources = compiled.build_sources()
    assert set(compiled.MODULES) <= set(sources)
    # imported by the compiled modules, not compiled themselves
    assert {"akvo.rules", "akvo.config", "akvo.dice", "akvo.teams"} <= set(sources)
    # the lab's compiled loop imports only the engine (an edit elsewhere in the lab, or to
    # the CLI, must not make the build stale)
    lab_or_cli = [s for s in sources if s.startswith(("akvo.lab", "akvo.cli"))]
    assert lab_or_cli == ["akvo.lab.loop"]


def test_the_engine_classes_copy_and_pickle_in_this_mode() -> None:
    """Native classes forbid some dynamic features: a state must still pickle (a Dask
    worker may return one) and copy."""
    import copy
    import pickle

    from akvo.match import play_match

    state = play_match(5)
    again = pickle.loads(pickle.dumps(state))
    assert again.to_dict() == state.to_dict()
    assert copy.copy(state).to_dict() == state.to_dict()


def test_the_compiled_engine_is_built_where_required() -> None:
    """CI (.ci/run) sets AKVO_REQUIRE_COMPILED=1: there, a failed compilation is an error."""
    if os.environ.get("AKVO_REQUIRE_COMPILED") != "1":
        pytest.skip("AKVO_REQUIRE_COMPILED is not set (a failed compilation falls back)")
    assert BUILT, compiled.stale_reason()


@needs_build
def test_a_stray_extension_from_an_older_build_falls_back(tmp_path: Path) -> None:
    """An extension beside a module that is no longer compiled would shadow its source."""
    shutil.copytree(ROOT / "akvo", tmp_path / "akvo", ignore=shutil.ignore_patterns("__pycache__"))
    shim = compiled.extensions()[-1]
    stray = tmp_path / "akvo" / "match" / shim.name.replace(shim.name.split(".")[0], "text", 1)
    shutil.copy(shim, stray)
    result = probe(pure=False, path=tmp_path)
    assert result["engine"] == "pure"
    assert result["kinds"] == ["py"]
    assert result["reason"] == f"a stray compiled module akvo/match/{stray.name}"
