"""The README and the manual in docs/ stay true to the code: every page of the book's manifest
is listed in docs/book.md, every ``akvo …`` subcommand and ``make …`` target they show exists,
and every relative link points to a file of the repository."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

from akvo.cli import main
from akvo_widgets import chapters as manifest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]
#: The manual's pages the README must lead to (issue 35.4).
MANUAL = ("book", "site", "tables", "cli", "engine", "bots-and-lab", "coach", "testing")

_FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
_SPAN = re.compile(r"`([^`\n]+)`")
#: ``akvo odds``, ``$ akvo simulate``…, not ``akvo_site``, ``akvo.cli`` or ``akvo[lab]``.
_AKVO = re.compile(r"(?:^|[\s$(])akvo ([a-z][a-z-]*)", re.MULTILINE)
_MAKE = re.compile(r"(?:^|[\s$(;&])make ([a-z][a-z-]*)", re.MULTILINE)
_LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def _code(path: Path) -> str:
    """The page's code: fenced blocks and inline spans (prose may say « make » freely)."""
    text = path.read_text(encoding="utf-8")
    blocks = _FENCE.findall(text)
    spans = _SPAN.findall(_FENCE.sub("", text))
    return "\n".join([*blocks, *spans])


def _shown(pattern: re.Pattern[str]) -> dict[str, set[str]]:
    shown: dict[str, set[str]] = {}
    for path in PAGES:
        for word in pattern.findall(_code(path)):
            shown.setdefault(word, set()).add(path.name)
    return shown


def test_the_manual_exists_and_the_readme_is_a_front_door() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 200
    assert "make book" in readme and "make test" in readme and "make check" in readme
    for page in (*MANUAL, "rulings", "adding-a-switch"):
        assert (DOCS / f"{page}.md").is_file(), page
        assert f"](docs/{page}.md)" in readme, f"the README does not link docs/{page}.md"


def test_every_page_of_the_manifest_is_listed_in_the_book_page() -> None:
    book = (DOCS / "book.md").read_text(encoding="utf-8")
    files = [manifest.HOME, *(chapter.file for chapter in manifest.CHAPTERS)]
    missing = [file for file in files if f"`book/{file}`" not in book]
    assert missing == [], f"docs/book.md does not list {missing}"
    for file in files:
        assert (ROOT / "book" / file).is_file(), file


def test_every_make_target_shown_exists() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    targets = set(re.findall(r"^([a-z][\w-]*):", makefile, re.MULTILINE))
    shown = _shown(_MAKE)
    assert {"book", "test", "check"} <= set(shown)
    unknown = {target: pages for target, pages in shown.items() if target not in targets}
    assert unknown == {}, f"make targets shown but not in the Makefile: {unknown}"


def _help(argv: list[str]) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(argv)
    return status, out.getvalue()


SUBCOMMANDS = sorted(_shown(_AKVO))


def test_the_docs_show_every_subcommand_of_the_cli() -> None:
    status, text = _help(["--help"])
    assert status == 0
    listed = re.search(r"\{([a-z,]+)\}", text)
    assert listed is not None
    assert set(listed.group(1).split(",")) <= set(SUBCOMMANDS), "a subcommand is not documented"


@pytest.mark.parametrize("subcommand", SUBCOMMANDS)
def test_every_akvo_subcommand_shown_answers_help(subcommand: str) -> None:
    status, text = _help([subcommand, "--help"])
    assert status == 0, f"`akvo {subcommand} --help` exits {status}"
    assert text.startswith(f"usage: akvo {subcommand}")


def test_every_relative_link_points_to_a_file() -> None:
    broken = []
    for path in PAGES:
        for target in _LINK.findall(path.read_text(encoding="utf-8")):
            if re.match(r"[a-z][a-z+.-]*:|#", target):  # https:, mailto:, an anchor
                continue
            if not (path.parent / target.split("#", 1)[0]).exists():
                broken.append(f"{path.relative_to(ROOT)} → {target}")
    assert broken == []
