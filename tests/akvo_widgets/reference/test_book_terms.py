"""The book's words, read in its order (issue 18.6): a game term appears only after the
chapter that introduces it, or with a link to where it is; one word for the favoured side;
the glossary's counts are the engine's."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

from akvo.bots import BOTS, LADDER
from akvo.config import CHOICES
from akvo.variants import VARIANT_RULINGS
from akvo_widgets import chapters as manifest
from akvo_widgets.reference import glossary

BOOK = Path(__file__).resolve().parents[3] / "book"
ORDER = [c.file for c in manifest.CHAPTERS]
#: The game's own words (glossary anchors), as opposed to everyday ones (« coffre », « tir »):
#: a newcomer cannot guess them, so each must be taught, or linked, before it is used.
JARGON = ("mile", "souffle-portant", "tourbillon", "egide", "vigie", "rouleau", "trident",
          "ultime", "resilience", "feuille-de-score", "palier", "seuil", "prodige",
          "double-jeton", "departage", "matrice", "interception", "rune-bonus", "grimoire",
          "defense-critique")  # fmt: skip
#: Words for the side the weather token designates, other than the book's « avantagé ».
OTHER_FAVOURED = re.compile(r"\bfavoris\w*|\bfavorise\w*", re.IGNORECASE)


def markdown_cells(file: str) -> list[str]:
    notebook = nbformat.read(BOOK / file, as_version=4)
    return [c.source for c in notebook.cells if c.cell_type == "markdown"]


def mention(term: glossary.Term) -> re.Pattern[str]:
    """The term as a word, singular or plural (« mile », « miles », « Ultimes »)."""
    return re.compile(rf"(?<![\w-]){re.escape(term.term)}s?(?![\w-])", re.IGNORECASE)


def introduced_in(term: glossary.Term) -> int:
    """The first chapter that teaches the term: its glossary chapter, or an earlier one where
    it is printed in bold (``**Ultime**`` or ``**[Ultime](…)**``)."""
    bold = re.compile(rf"\*\*\[?{re.escape(term.term)}s?[\]*]", re.IGNORECASE)
    for index, file in enumerate(ORDER):
        if file == term.chapter or any(bold.search(cell) for cell in markdown_cells(file)):
            return index
    raise AssertionError(f"{term.term}: taught nowhere")


@pytest.mark.parametrize("anchor", JARGON)
def test_a_term_is_taught_or_linked_before_it_is_used(anchor: str) -> None:
    term = glossary.BY_ANCHOR[anchor]
    first = introduced_in(term)
    links = (f"glossaire.ipynb#{anchor}", f"]({ORDER[first]}", f"]({term.chapter}")
    unlinked = []
    for file in ORDER[:first]:
        cell = next((c for c in markdown_cells(file) if mention(term).search(c)), None)
        if cell is not None and not any(link in cell for link in links):
            unlinked.append(file)
    assert unlinked == [], f"« {term.term} » used before {ORDER[first]}, without a link"


def test_the_checker_sees_an_unlinked_early_term() -> None:
    """The check above can fail: chapter 1 names the Trident only in its table, unlinked."""
    term = glossary.BY_ANCHOR["trident"]
    assert introduced_in(term) > 0
    assert not mention(term).search(markdown_cells(ORDER[0])[0])
    assert mention(term).search("le Trident du Plongeur")
    assert mention(glossary.BY_ANCHOR["mile"]).search("à 2 miles")
    assert not mention(glossary.BY_ANCHOR["mile"]).search("milieu")


@pytest.mark.parametrize(
    "file",
    [manifest.HOME, *ORDER],
)
def test_one_word_for_the_favoured_side(file: str) -> None:
    found = [m.group(0) for cell in markdown_cells(file) for m in OTHER_FAVOURED.finditer(cell)]
    assert found == [], f"{file}: say « avantagé », as the glossary does: {found}"


def test_the_glossary_has_the_words_the_pages_use() -> None:
    for anchor in ("mile", "feuille-de-score", "double-jeton", "camp-avantage", "departage",
                   "bot", "variante", "mage-lateral", "mage-central"):  # fmt: skip
        assert anchor in glossary.BY_ANCHOR, anchor
    html = glossary.glossary_html()
    assert "id='mile'" in html and "id='feuille-de-score'" in html


def test_the_glossary_counts_are_the_engines() -> None:
    variant = glossary.BY_ANCHOR["variante"].definition
    rulings = sorted(set(VARIANT_RULINGS.values()), key=lambda r: int(r[1:]))
    assert len(CHOICES) == 7  # R20 has two (the ship, Rouleau)
    assert "il en connaît 7 (R8, R13, R18, R19, R20 (deux), R22)" in variant
    assert rulings == ["R8", "R13", "R18", "R19", "R20", "R22"]
    bot = glossary.BY_ANCHOR["bot"].definition
    assert f"en {len(LADDER)} niveaux" in bot  # the ladder; « hasard » is outside it
    labels = [BOTS[name] for name in LADDER]
    assert all(f"« {label} »" in bot for label in BOTS.values())
    assert [bot.index(f"« {label} »") for label in labels] == sorted(
        bot.index(f"« {label} »") for label in labels
    )  # weakest first
    # No code name (random, greedy, search…), unless it is also the French label (expert).
    assert not any(name in bot for name, label in BOTS.items() if name != label)
