"""The optional compiled engine, built with mypyc: ``make compile`` runs
``AKVO_COMPILE=1 python setup.py build_ext --inplace``.

Without ``AKVO_COMPILE=1`` (``pip install -e .``, a plain ``pip install .``) this declares no
extension and the package is pure Python; everything else is in pyproject.toml. With it,
mypyc compiles :data:`akvo.compiled.MODULES` (type-checked with the ``[tool.mypy]`` settings)
into extension modules placed beside their sources, then writes ``akvo/compiled.json`` (the
hashes of the sources compiled, checked at import: see :mod:`akvo.compiled`) and
``build/engine.d`` (the same sources as Make prerequisites, so that ``make`` recompiles after
an edit).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
COMPILING = os.environ.get("AKVO_COMPILE") == "1"
DEPENDENCIES = HERE / "build" / "engine.d"


def engine_extensions() -> list[Any]:
    """mypyc's extensions for the engine, or none when not compiling."""
    if not COMPILING:
        return []
    os.environ["AKVO_PURE"] = "1"  # read akvo.compiled without loading an old build
    sys.path.insert(0, str(HERE))
    from mypyc.build import mypycify

    from akvo import compiled

    compiled.MANIFEST.unlink(missing_ok=True)  # until this build has finished
    for old in compiled.extensions():  # an older build's, maybe of other modules
        old.unlink()
    global SOURCES
    SOURCES = compiled.source_digests()
    paths = [str(compiled.source_of(m).relative_to(HERE)) for m in compiled.MODULES]
    return mypycify(paths, group_name=compiled.GROUP)


SOURCES: dict[str, str] = {}


class BuildEngine(build_ext):
    """``build_ext`` that records the build's sources once every extension is in place."""

    def run(self) -> None:
        super().run()
        if not (COMPILING and self.inplace):
            return
        from akvo import compiled

        compiled.write_manifest(SOURCES)
        files = " ".join(str(compiled.source_of(m).relative_to(HERE)) for m in SOURCES)
        DEPENDENCIES.parent.mkdir(exist_ok=True)
        DEPENDENCIES.write_text(f"build/engine.stamp: {files}\n", encoding="utf-8")


setup(ext_modules=engine_extensions(), cmdclass={"build_ext": BuildEngine})
