"""The book's notebooks as files: committed without outputs, linked together, written in
French typography, thin (prose + one-line widget calls). Executing them is nbval's job
(``pytest`` collects ``book/`` with ``--nbval-lax``)."""

from __future__ import annotations

import copy
import re
from pathlib import Path

import nbformat
import pytest
from nbstripout import strip_output

BOOK = Path(__file__).resolve().parents[1] / "book"
NOTEBOOKS = sorted(BOOK.glob("*.ipynb"))
CHAPTERS = [p for p in NOTEBOOKS if p.name != "index.ipynb"]
MAX_CODE_LINES = 3
LINK = re.compile(r"\]\(([^)#\s]+\.ipynb)\)")


def _read(path: Path) -> nbformat.NotebookNode:
    return nbformat.read(path, as_version=4)


def _markdown(path: Path) -> str:
    return "\n".join(c.source for c in _read(path).cells if c.cell_type == "markdown")


def test_the_book_has_a_home_and_five_chapters() -> None:
    assert (BOOK / "index.ipynb") in NOTEBOOKS
    assert len(CHAPTERS) == 5


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_is_committed_without_outputs(path: Path) -> None:
    """Same rule as nbstripout: no outputs, no execution counts, no widget state."""
    notebook = _read(path)
    stripped = strip_output(copy.deepcopy(notebook), False, False, True)
    assert notebook == stripped, f"run `nbstripout {path.relative_to(BOOK.parent)}`"
    assert "widgets" not in notebook.metadata


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_code_cells_stay_thin(path: Path) -> None:
    for cell in _read(path).cells:
        if cell.cell_type == "code":
            assert len(cell.source.splitlines()) <= MAX_CODE_LINES, cell.source
            assert "akvo_widgets" in cell.source or cell.source.startswith("ex.")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_links_between_notebooks_resolve(path: Path) -> None:
    targets = LINK.findall(_markdown(path))
    assert targets, f"{path.name} links to no other page"
    for target in targets:
        assert (BOOK / target).is_file(), f"{path.name} links to missing {target}"


def test_home_lists_every_chapter() -> None:
    linked = set(LINK.findall(_markdown(BOOK / "index.ipynb")))
    assert {p.name for p in CHAPTERS} <= linked


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_chapter_ends_with_a_summary_and_the_next_link(path: Path) -> None:
    last = _read(path).cells[-1]
    assert last.cell_type == "markdown"
    assert "**À retenir**" in last.source
    index = CHAPTERS.index(path)
    following = CHAPTERS[index + 1].name if index + 1 < len(CHAPTERS) else "index.ipynb"
    assert following in LINK.findall(last.source)


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_chapter_cites_rulings(path: Path) -> None:
    assert re.search(r"\bR\d{1,2}\b", _markdown(path))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_french_typography(path: Path) -> None:
    """No plain space before : ; ! ? or %, no straight apostrophe, guillemets spaced."""
    text = LINK.sub("](…)", _markdown(path))
    for pattern in (r" [:;!?%]", r"'", r"«(?!\u00a0)", r"(?<!\u00a0)»"):
        found = re.findall(r".{0,20}" + pattern + r".{0,10}", text)
        assert not found, f"{path.name}: {found[:3]}"
