"""What the reader sees, checked without a browser (issue 18.7, 18.8): wide tables carry
their scroll cue, chart labels are few enough not to overprint, the glossary's terms stand
on their own line, no control shows the tooltip « null », no chart shows its toolbar, and
each notebook's tab title is its entry in the table of contents."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

from akvo.duel import rune_duel
from akvo.tables import odds_grid
from akvo_widgets import chapters as manifest
from akvo_widgets.kit import controls as c
from akvo_widgets.learn.duel import payoff_table
from akvo_widgets.learn.matrix import WindMatrix, matrix_table
from akvo_widgets.learn.roll import MAX_TICKS, RollCalculator
from akvo_widgets.learn.shot import ShotCalculator
from akvo_widgets.reference import aide_memoire as reference
from akvo_widgets.reference import glossary

BOOK = Path(__file__).resolve().parents[2] / "book"


def test_wide_tables_carry_the_scroll_cue() -> None:
    assert matrix_table(odds_grid("mage")).startswith(c.SCROLL_CUE)
    assert payoff_table(rune_duel("mage", 2, 2)).startswith(c.SCROLL_CUE)
    aide = reference.matrix()
    assert f"<div class='akvo-scroll'>{c.SCROLL_CUE}<table class='akvo-aide-matrix'>" in aide
    assert "white-space: normal" in reference.STYLE  # the aide-mémoire matrix wraps on phones


def labelled(count: int, num_ticks: int) -> int:
    """How many of ``count`` ordinal values bqplot labels with ``num_ticks`` (its axis rule:
    every ``count // (num_ticks - 1)``-th value once ``count > num_ticks``)."""
    return count if count <= num_ticks else len(range(0, count, count // (num_ticks - 1)))


@pytest.mark.parametrize("dice", [1, 4, 8])
def test_the_dice_chart_labels_at_most_a_few_totals(dice: int) -> None:
    calculator = RollCalculator()
    calculator.dice.value = dice
    totals = list(calculator.figure.marks[0].x)
    axis = calculator.figure.axes[0]
    assert axis.num_ticks == MAX_TICKS
    assert labelled(len(totals), axis.num_ticks) <= MAX_TICKS
    if dice == 4:
        assert len(totals) == 21 and labelled(21, MAX_TICKS) == 11  # 4, 6, …, 24


def test_no_chart_toolbar_and_no_null_tooltip() -> None:
    calculator = RollCalculator()
    assert calculator.figure.display_toolbar is False
    assert ShotCalculator(kind="mage").figure.display_toolbar is False
    assert WindMatrix().figure.display_toolbar is False
    for control in (calculator.dice, calculator.threshold):
        assert control.tooltip == control.description != ""


def test_glossary_terms_stand_on_their_own_line() -> None:
    html = glossary.glossary_html()
    assert ".akvo-glossary dt { float: none; width: auto;" in html
    assert ".akvo-glossary dd { float: none; width: auto;" in html
    assert html.index("<style>") < html.index("<dl class='akvo-glossary'>")


@pytest.mark.parametrize("file", [manifest.HOME, *(ch.file for ch in manifest.CHAPTERS)])
def test_tab_title_is_the_table_of_contents_entry(file: str) -> None:
    title = nbformat.read(BOOK / file, as_version=4).metadata["title"]
    if file == manifest.HOME:
        assert title == manifest.HOME_TITLE
    else:
        assert title == f"{manifest.number(file)}. {manifest.chapter(file).title} · Akvolition"
