"""The book's notebooks as files: committed without outputs, linked together, written in
French typography, thin (prose + one-line widget calls). Executing them is nbval's job
(``pytest`` collects ``book/`` with ``--nbval-lax``)."""

from __future__ import annotations

import copy
import itertools
import re
from pathlib import Path

import nbformat
import pytest
from nbstripout import strip_output

from akvo_widgets import chapters as manifest

BOOK = Path(__file__).resolve().parents[2] / "book"
NOTEBOOKS = sorted(BOOK.glob("*.ipynb"))
CHAPTERS = [BOOK / c.file for c in manifest.CHAPTERS]
MAX_CODE_LINES = 3
LINK = re.compile(r"\]\(([^)#\s]+\.ipynb)\)")


def _read(path: Path) -> nbformat.NotebookNode:
    return nbformat.read(path, as_version=4)


def _markdown(path: Path) -> str:
    return "\n".join(c.source for c in _read(path).cells if c.cell_type == "markdown")


def test_every_notebook_is_the_home_or_a_chapter_of_the_manifest() -> None:
    assert sorted([*CHAPTERS, BOOK / manifest.HOME]) == NOTEBOOKS
    assert len(set(CHAPTERS)) == len(CHAPTERS)


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_chapter_title_is_the_manifest_title(path: Path) -> None:
    first = _read(path).cells[0]
    assert first.source.startswith(f"# {manifest.chapter(path.name).title}\n")
    assert "[Sommaire](index.ipynb)" in first.source


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


def test_manifest_navigation_links_follow_the_order() -> None:
    files = [c.file for c in manifest.CHAPTERS]
    for before, after in itertools.pairwise(files):
        assert manifest.next_of(before) == manifest.chapter(after)
        assert manifest.previous_of(after) == manifest.chapter(before)
    assert manifest.previous_of(files[0]) is None
    assert manifest.next_of(files[-1]) is None
    with pytest.raises(ValueError, match="not a chapter"):
        manifest.chapter("nope.ipynb")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_links_between_notebooks_resolve(path: Path) -> None:
    targets = LINK.findall(_markdown(path))
    assert targets or path.name == manifest.HOME, f"{path.name} links to no other page"
    for target in targets:
        assert (BOOK / target).is_file(), f"{path.name} links to missing {target}"


def test_home_shows_the_manifest_table_of_contents() -> None:
    sources = [c.source for c in _read(BOOK / manifest.HOME).cells if c.cell_type == "code"]
    assert "from akvo_widgets.chapters import toc\ntoc()" in sources
    html = manifest.toc_html()
    for path in CHAPTERS:
        assert f'href="{path.name}"' in html


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_chapter_ends_with_a_summary_and_the_manifest_navigation(path: Path) -> None:
    *_, summary, navigation = _read(path).cells
    assert summary.cell_type == "markdown"
    assert "**À retenir**" in summary.source
    assert navigation.source == f'from akvo_widgets.chapters import nav\nnav("{path.name}")'
    following = manifest.next_of(path.name)
    html = manifest.nav_html(path.name)
    assert f'href="{following.file if following else manifest.HOME}"' in html


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


def test_every_rulebook_section_is_taught_by_a_chapter() -> None:
    """Issue 8, part 3: from the presentation to the team lists, nothing is left out."""
    taught = {section for c in manifest.CHAPTERS for section in c.sections}
    missing = [s for s in manifest.RULEBOOK_SECTIONS if s not in taught]
    assert not missing, f"no chapter teaches: {missing}"
    with pytest.raises(ValueError, match="unknown rulebook sections"):
        manifest.Chapter("x.ipynb", "X", "x", sections=("tirs au but",))
