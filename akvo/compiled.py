"""The optional compiled engine: which modules mypyc compiles, and whether this process runs them.

``make compile`` (part of ``make install``; see ``setup.py``) compiles :data:`MODULES` with
mypyc into extension modules beside their sources, then writes :data:`MANIFEST`: the SHA-256
of every source the compiled code was built from (the compiled modules and every ``akvo``
module they import, since mypyc may inline their constants) and the Python it was built for.

Importing :mod:`akvo` calls :func:`choose`. The compiled modules run only if the manifest
matches this Python, every listed source is unchanged and ``AKVO_PURE`` is not set to ``1``;
otherwise a finder on ``sys.meta_path`` loads the ``.py`` source of *every* compiled module —
all or none, because compiled modules call each other directly in C and an edited ``.py``
beside an old ``.so`` must never run half old. A stale build falls back with a warning.

Writing for mypyc: a constant tuple of fixed length (``X: Final = (1, -1)``) is kept
unboxed in C and rebuilt as a new Python tuple each time it is indexed by a variable or
returned, so the compiled modules annotate theirs ``Final[tuple[int, ...]]`` (one shared
Python tuple): the compiled random match went from 3.65 M to 3.02 M instructions (issue
22.7, ``benchmarks/results/match-instructions.md``). Likewise a comprehension compiles to a
loop in C, while ``map`` with a bound method goes through the interpreter's calls.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

#: The modules mypyc compiles: the match engine and the bots (greedy is mostly bot code), the
#: dice keyed by event and the lab's play loop (issue 35: the lab's matches at 0.70× the
#: reference's speed when the loop ran interpreted). Not akvo.shots and akvo.match.preview:
#: their value types check their own fields (a compiled dataclass would raise TypeError
#: first) and they are not on the hot path.
MODULES = (
    "akvo.bots.greedy",
    "akvo.bots.search",
    "akvo.bots.values",
    "akvo.lab.loop",
    "akvo.match.actions",
    "akvo.match.board",
    "akvo.match.bots",
    "akvo.match.chance",
    "akvo.match.core",
    "akvo.match.engine",
    "akvo.match.flow",
    "akvo.match.geometry",
    "akvo.match.log",
    "akvo.match.names",
    "akvo.match.outcome",
    "akvo.match.phases",
    "akvo.match.records",
    "akvo.match.roster",
    "akvo.match.schema",
    "akvo.match.shooting",
    "akvo.match.state",
    "akvo.match.streams",
    "akvo.match.ultimes",
    "akvo.match.weather",
    "akvo.resolution",
)
#: The shared library mypyc builds for the group (``akvo/_engine__mypyc.*.so``).
GROUP = "akvo._engine"
#: Forces the pure-Python engine when set to ``1``.
PURE_SWITCH = "AKVO_PURE"

PACKAGE = Path(__file__).resolve().parent
ROOT = PACKAGE.parent
MANIFEST = PACKAGE / "compiled.json"

#: The reason when nothing was compiled (no warning then: the pure engine is expected).
NOT_COMPILED = "not compiled"

#: ``"compiled"`` or ``"pure"``: the engine this process runs (set by :func:`choose`).
ENGINE = "pure"
#: Why the pure engine runs (empty when compiled).
REASON = "not chosen yet"


def source_of(module: str) -> Path:
    """The file of an ``akvo`` module: ``akvo/x/y.py`` or ``akvo/x/y/__init__.py``."""
    base = ROOT.joinpath(*module.split("."))
    return base / "__init__.py" if base.is_dir() else base.with_suffix(".py")


def _is_module(name: str) -> bool:
    base = ROOT.joinpath(*name.split("."))
    return base.is_dir() or base.with_suffix(".py").is_file()


def _imports(module: str) -> set[str]:
    """The ``akvo`` modules that ``module`` imports, anywhere in its body."""
    import ast  # only when building

    tree = ast.parse(source_of(module).read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        else:
            continue
        for name in names:
            parts = name.split(".")
            # Every package on the way is imported too (its __init__ runs).
            for end in range(1, len(parts) + 1):
                prefix = ".".join(parts[:end])
                if parts[0] == "akvo" and _is_module(prefix):
                    found.add(prefix)
    return found


def build_sources(modules: Sequence[str] = MODULES) -> list[str]:
    """Every ``akvo`` module the compiled code is built from: ``modules`` and all the
    ``akvo`` modules they import, transitively (sorted)."""
    seen: set[str] = set()
    todo = list(modules)
    while todo:
        module = todo.pop()
        if module not in seen:
            seen.add(module)
            todo.extend(_imports(module) - seen)
    return sorted(seen)


def _digest(module: str) -> str:
    return hashlib.sha256(source_of(module).read_bytes()).hexdigest()


def _python() -> str:
    return f"{sys.implementation.cache_tag}-{sys.platform}"


def source_digests(modules: Sequence[str] = MODULES) -> dict[str, str]:
    """The SHA-256 of every source of a build (taken before compiling)."""
    return {module: _digest(module) for module in build_sources(modules)}


def write_manifest(sources: dict[str, str], modules: Sequence[str] = MODULES) -> None:
    """Record the sources of a finished build (called by ``setup.py`` after compiling)."""
    data = {"python": _python(), "modules": list(modules), "sources": sources}
    MANIFEST.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def _extension(module: str) -> Path | None:
    base = ROOT.joinpath(*module.split("."))
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = base.with_name(base.name + suffix)
        if path.is_file():
            return path
    return None


def extensions() -> list[Path]:
    """Every extension module in the package (a build's, or a stray one left by an older
    build with another list of modules)."""
    return sorted(
        {
            path
            for suffix in importlib.machinery.EXTENSION_SUFFIXES
            for path in PACKAGE.rglob(f"*{suffix}")
        }
    )


def _module_of(extension: Path) -> str:
    relative = extension.relative_to(ROOT)
    return ".".join((*relative.parent.parts, relative.name.split(".")[0]))


def stale_reason() -> str:
    """Why the compiled build cannot be used (empty if it can): no build, another Python,
    a missing extension, or an edited source."""
    if not MANIFEST.is_file():
        if any(_extension(module) for module in MODULES):
            return "compiled modules without a manifest (an unfinished build)"
        return NOT_COMPILED
    try:
        data = json.loads(MANIFEST.read_text(encoding="utf-8"))
        sources: dict[str, str] = data["sources"]
        if data["python"] != _python():
            return f"compiled for {data['python']}, this is {_python()}"
        if list(data["modules"]) != list(MODULES):
            return "the list of compiled modules changed"
    except (ValueError, KeyError, TypeError):
        return f"unreadable {MANIFEST.name}"
    expected = [*MODULES, f"{GROUP}__mypyc"]
    for module in expected:
        if _extension(module) is None:
            return f"no compiled {module}"
    for extension in extensions():
        if _module_of(extension) not in expected:
            return f"a stray compiled module {extension.relative_to(ROOT)}"
    for module, digest in sources.items():
        if not source_of(module).is_file() or _digest(module) != digest:
            return f"{source_of(module).relative_to(ROOT)} changed since it was compiled"
    return ""


class _SourceFinder(importlib.abc.MetaPathFinder):
    """Loads the ``.py`` source of every compiled module, never its extension."""

    def __init__(self, modules: set[str]) -> None:
        self.modules = modules

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in self.modules:
            return None
        return importlib.util.spec_from_file_location(fullname, source_of(fullname))


def choose() -> str:
    """Pick the engine for this process (once, before any compiled module is imported) and
    return it: ``"compiled"`` or ``"pure"``."""
    global ENGINE, REASON
    if any(isinstance(finder, _SourceFinder) for finder in sys.meta_path):
        return ENGINE
    forced = os.environ.get(PURE_SWITCH, "") == "1"
    reason = f"{PURE_SWITCH}=1" if forced else stale_reason()
    if not reason:
        ENGINE, REASON = "compiled", ""
        return ENGINE
    ENGINE, REASON = "pure", reason
    modules = set(MODULES) | {_module_of(path) for path in extensions()}
    sys.meta_path.insert(0, _SourceFinder({m for m in modules if source_of(m).is_file()}))
    if not forced and reason != NOT_COMPILED:
        warnings.warn(
            f"akvo: running the pure-Python engine, the compiled one is stale ({reason}); "
            "run `make compile` to rebuild it",
            RuntimeWarning,
            stacklevel=2,
        )
    return ENGINE
