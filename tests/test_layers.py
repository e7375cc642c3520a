"""The import directions of the three packages, read from their sources (ast, no import).

- :mod:`akvo`, the engine, imports neither the book nor its server;
- in :mod:`akvo_widgets`, the layers point one way, text ← kit ← board ← parts: ``text/``
  (French wording) imports the engine and the standard library only, never a UI library;
  ``kit/`` the text; ``board/`` the kit and the text; the book's four parts (``learn/``,
  ``play/``, ``design/``, ``reference/``) the layers below and the manifest
  (:mod:`akvo_widgets.chapters`), never one another;
- :mod:`akvo_site`, the server, reads the engine, :mod:`akvo_widgets.text` and the board's
  SVG (:mod:`akvo_widgets.board.svg`) only, and no widget library.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("akvo", "akvo_widgets", "akvo_site")
PARTS = ("learn", "play", "design", "reference")
#: Libraries that draw widgets: the server and the book's text never import them.
UI_LIBRARIES = frozenset({"ipywidgets", "bqplot", "anywidget", "IPython", "ipykernel"})
#: What the server may read of the book's package.
SITE_READS = ("akvo_widgets.text", "akvo_widgets.board.svg")


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def is_module(name: str) -> bool:
    path = ROOT.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def imports_of(path: Path) -> Iterator[str]:
    """Every module ``path`` imports, anywhere in it (functions included), by its full name;
    ``from package import module`` counts as the module."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                origin = ".".join([*base, *([node.module] if node.module else [])])
            else:
                origin = node.module or ""
            for alias in node.names:
                full = f"{origin}.{alias.name}"
                yield full if is_module(full) else origin


def _within(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def layer(name: str) -> str:
    """``akvo_widgets.learn.roll`` → ``learn``; the facade and the manifest by their names."""
    parts = name.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


#: What each layer of akvo_widgets may import of akvo_widgets.
ALLOWED = {
    "__init__": (),
    "chapters": (),
    "text": ("text",),
    "kit": ("text", "kit"),
    "board": ("text", "kit", "board"),
    **{part: ("text", "kit", "board", "chapters", part) for part in PARTS},
}


def violation(importer: str, imported: str) -> str | None:
    """Why ``importer`` must not import ``imported``, or None when it may."""
    top = imported.split(".")[0]
    if _within(importer, "akvo") and top in ("akvo_widgets", "akvo_site"):
        return "the engine imports neither the book nor its server"
    if _within(importer, "akvo_site"):
        if top in UI_LIBRARIES:
            return "the server imports no widget library"
        read = imported in ("akvo_widgets", "akvo_widgets.board") or any(
            _within(imported, allowed) for allowed in SITE_READS
        )
        if top == "akvo_widgets" and not read:
            return f"the server reads only {', '.join(SITE_READS)} of the book"
    if _within(importer, "akvo_widgets"):
        own = layer(importer)
        engine_or_stdlib = top in ("akvo", "akvo_widgets") or top in sys.stdlib_module_names
        if own == "text" and not engine_or_stdlib:
            return "text/ imports the engine and the standard library only"
        if top == "akvo_site":
            return "the book's kernel side does not import the server"
        below = imported == "akvo_widgets" or layer(imported) in ALLOWED[own]
        if top == "akvo_widgets" and not below:
            return f"{own} may import {', '.join(ALLOWED[own]) or 'nothing'} of akvo_widgets"
    return None


def _sources() -> Iterator[Path]:
    for package in PACKAGES:
        yield from sorted((ROOT / package).rglob("*.py"))


def test_every_import_points_the_right_way() -> None:
    found = [
        f"{module_name(path)} → {imported}: {why}"
        for path in _sources()
        for imported in imports_of(path)
        if (why := violation(module_name(path), imported))
    ]
    assert found == []


def test_the_scan_reads_the_imports_it_checks() -> None:
    """Relative imports resolve and the server's reads of the book are seen."""
    api = set(imports_of(ROOT / "akvo_site" / "tables" / "api.py"))
    assert {"akvo_site.tables.coach", "akvo_widgets.board.svg", "akvo_widgets.text.labels"} <= api
    tutorial = set(imports_of(ROOT / "akvo_widgets" / "play" / "tutorial.py"))
    assert {"akvo_widgets.board.height", "akvo_widgets.kit.controls"} <= tutorial
    assert {layer(module_name(p)) for p in (ROOT / "akvo_widgets").rglob("*.py")} == set(ALLOWED)


@pytest.mark.parametrize(
    ("importer", "imported"),
    [
        ("akvo.match.state", "akvo_widgets.text.labels"),
        ("akvo.online.service", "akvo_site.tables.api"),
        ("akvo_site.tables.api", "akvo_widgets.design.variants"),
        ("akvo_site.app", "ipywidgets"),
        ("akvo_site.app", "akvo_widgets.board.widget"),
        ("akvo_widgets.text.labels", "ipywidgets"),
        ("akvo_widgets.text.labels", "akvo_widgets.kit.controls"),
        ("akvo_widgets.kit.controls", "akvo_widgets.board.svg"),
        ("akvo_widgets.board.view", "akvo_widgets.play.game"),
        ("akvo_widgets.learn.stepper", "akvo_widgets.play.game"),
        ("akvo_widgets.reference.glossary", "akvo_widgets.learn.team_builder"),
        ("akvo_widgets.play.game", "akvo_site.app"),
        ("akvo_widgets.chapters", "akvo_widgets.learn.roll"),
    ],
)
def test_a_wrong_direction_is_named(importer: str, imported: str) -> None:
    assert violation(importer, imported)


@pytest.mark.parametrize(
    ("importer", "imported"),
    [
        ("akvo_site.tables.api", "akvo_widgets.text.readings"),
        ("akvo_site.tables.api", "akvo_widgets.board.svg"),
        ("akvo_widgets.text.formatting", "fractions"),
        ("akvo_widgets.board.widget", "akvo_widgets.kit.controls"),
        ("akvo_widgets.reference.glossary", "akvo_widgets.chapters"),
        ("akvo_widgets.play.tutorial", "akvo_widgets.play.game"),
    ],
)
def test_a_right_direction_passes(importer: str, imported: str) -> None:
    assert violation(importer, imported) is None
