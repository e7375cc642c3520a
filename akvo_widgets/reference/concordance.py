"""The concordance page: every rule sentence of the rulebook, section by section, with the
chapters that teach it, its rulings, the engine code and the tests (from akvo.concordance)."""

from __future__ import annotations

from html import escape
from typing import Any

import ipywidgets as w

from akvo.concordance import Sentence, sentences
from akvo_widgets.chapters import CHAPTERS, RULEBOOK_SECTIONS
from akvo_widgets.kit import controls as c
from akvo_widgets.text.formatting import french

ALL = "toutes"
RULINGS_PAGE = "arbitrages-et-variantes.ipynb"
_TITLES = {ch.file: ch.title for ch in CHAPTERS}
_STYLE = (
    "<style>.akvo-concordance td, .akvo-concordance th { text-align: left !important;"
    " vertical-align: top; } .akvo-concordance code { font-size: 0.8em; }</style>"
)


def in_section(section: str) -> tuple[Sentence, ...]:
    """The sentences of one rulebook section (``ALL``: every sentence)."""
    return tuple(s for s in sentences() if section in (ALL, s.section))


def _chapter_link(file: str) -> str:
    return f"<a href='{file}' target='_self'>{escape(_TITLES[file])}</a>"


def _row(s: Sentence) -> list[str]:
    lines = ", ".join(str(n) for n in s.lines)
    rulings = (
        ", ".join(f"<a href='{RULINGS_PAGE}' target='_self'>{r}</a>" for r in s.rulings) or "—"
    )
    code = "<br>".join(f"<code>{escape(ref)}</code>" for ref in s.code)
    tests = "<br>".join(f"<code>{escape(t.split('::')[1])}</code>" for t in s.tests)
    return [
        c.cell(f"<small>l. {lines}</small><br>{escape(s.text)}"),
        c.cell("<br>".join(_chapter_link(f) for f in s.chapters)),
        c.cell(rulings),
        c.cell(
            f"<details><summary>{len(s.code)} + {len(s.tests)}</summary>{code}<br>{tests}</details>"
        ),
    ]


def concordance_table(section: str) -> str:
    rows = [_row(s) for s in in_section(section)]
    header = ["Phrase du livret", "Chapitres", "Arbitrages", "Code + tests"]
    return _STYLE + c.table(header, rows)


class ConcordanceBrowser(w.VBox):
    """Pick a rulebook section: its rule sentences and what answers for each."""

    def __init__(self, section: str = ALL) -> None:
        options = [
            ("Toutes les sections", ALL),
            *((s[0].upper() + s[1:], s) for s in RULEBOOK_SECTIONS),
        ]
        self.section = c.dropdown("Section du livret", options, section, "akvo-concordance-section")
        self.count = c.html("akvo-concordance-summary")
        self.table = c.html("akvo-table")
        super().__init__([c.panel([self.section, self.count, self.table], "akvo-concordance")])
        self.section.observe(self._update, names="value")
        self._update()

    def _update(self, _change: Any = None) -> None:
        chosen = in_section(self.section.value)
        self.count.value = french(
            f"<p><b class='akvo-concordance-count'>{len(chosen)}</b> phrase(s) de règle.</p>"
        )
        self.table.value = concordance_table(self.section.value)
