"""What a reader would notice, checked mechanically on every page of the manifest (issue 18.9).

Each page is opened once, at 390 px (a phone), in a server of this module's own; every check
then reads that one visit (the cut-label check again after widening the same page to
1280 px, without reloading it):

- nothing past the right edge of the screen, unless inside a container that scrolls
  sideways (or clips) and itself fits the screen;
- no cut label: no button, drop-down or widget label whose text is wider than its box;
- no English word from :data:`ENGLISH` in any visible text (labels, options, tooltips,
  drawn text), no file counter on a button (« Charger (0) »);
- no character that this Chromium has no font for (it would draw an empty box: ⏮ ⏭),
  asked of fontconfig, which Chromium uses on Linux;
- the tab title agrees with the page's entry in the manifest (:mod:`akvo_widgets.chapters`);
- a « Légende » toggle beside every drawn board.

A failing check on a page owned by another engineer is marked ``xfail(strict=True)`` with the
defect it shows (:data:`KNOWN`), so that the fix flips it.
"""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from akvo_site.app import SMALL_POOLS, background_server
from akvo_widgets import chapters as manifest
from tests.browser.conftest import ARTIFACTS, BOOK
from tests.browser.shots import settle

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
PAGES = [manifest.HOME, *(c.file for c in manifest.CHAPTERS)]
#: Pages opened side by side (their kernels start together on the server).
AT_ONCE = 4

#: English words that must not appear in the book's visible text (whole words). Chosen so
#: that none is also a French word of the book (« file », « match », « score », « bot »).
ENGLISH = (
    "viewer", "upload", "download", "load", "loading", "save", "next", "previous", "back",
    "reset", "executing", "running", "error", "warning", "random", "greedy", "search",
    "true", "false", "none", "null", "undefined", "nan", "click", "submit", "cancel",
    "select", "choose", "browse", "files", "play", "start", "stop", "turn", "side", "shot",
    "player", "players", "kernel", "widget", "traceback", "exception", "winner", "draw",
)  # fmt: skip
_ENGLISH = re.compile(r"(?<![\w-])(" + "|".join(ENGLISH) + r")(?![\w-])", re.IGNORECASE)
#: A button that counts its files, the way ipywidgets' FileUpload does (« Upload (0) »).
_COUNTER = re.compile(r"\(\s*\d+\s*\)\s*$")

#: Elements past the right edge (or the left) of the screen that no container of theirs,
#: itself on the screen, scrolls or clips; only the outermost of each offending subtree.
_PAST_THE_EDGE = r"""(width) => {
  // One walk from the top: a subtree is skipped once its root scrolls or clips sideways
  // within the screen (whatever is inside is held there), or is itself past the edge (only
  // the outermost offender is named). One style read per element: the concordance is big.
  const bad = [];
  const walk = (e) => {
    for (const child of e.children) {
      const r = child.getBoundingClientRect();
      const s = getComputedStyle(child);
      if (s.display === 'none') continue;
      const shown = r.width > 0 && r.height > 0 && s.visibility !== 'hidden';
      if (shown && (r.right > width + 1 || r.left < -1)) {
        bad.push(child);
        if (bad.length >= 12) return;
        continue;
      }
      if (s.overflowX !== 'visible' && r.right <= width + 1 && r.left >= -1) continue;
      walk(child);
      if (bad.length >= 12) return;
    }
  };
  walk(document.querySelector('#rendered_cells') || document.body);
  return bad.map((e) => {
    const r = e.getBoundingClientRect();
    return e.tagName.toLowerCase() + '.' + String(e.className.baseVal ?? e.className)
      .trim().split(/\s+/).slice(0, 3).join('.') + ' «' +
      (e.innerText || e.textContent || '').trim().slice(0, 40) + '» [' +
      Math.round(r.left) + ', ' + Math.round(r.right) + ']';
  });
}"""

#: Buttons, drop-downs and widget labels whose text does not fit their box.
_CUT = """() => {
  const canvas = document.createElement('canvas').getContext('2d');
  const seen = (e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
  const cut = [];
  for (const e of document.querySelectorAll('button, .widget-label, .widget-readout, summary')) {
    if (seen(e) && e.scrollWidth > e.clientWidth + 1)
      cut.push(e.tagName.toLowerCase() + ' «' + e.textContent.trim().slice(0, 50) + '» ' +
               e.scrollWidth + ' > ' + e.clientWidth);
  }
  for (const e of document.querySelectorAll('select')) {
    if (!seen(e) || e.multiple || e.size > 1 || e.selectedIndex < 0) continue;
    const s = getComputedStyle(e);
    canvas.font = s.font;
    const text = e.options[e.selectedIndex].text;
    const room = e.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight);
    const arrow = parseFloat(s.paddingRight) >= 16 ? 0 : 16;  // the arrow's own room
    if (canvas.measureText(text).width > room - arrow + 1)
      cut.push('select «' + text.slice(0, 50) + '» ' +
               Math.round(canvas.measureText(text).width) + ' > ' + Math.round(room - arrow));
  }
  return cut;
}"""

#: Every text the reader can see: the page's rendered text, the options of drop-downs,
#: tooltips and placeholders, and the text drawn in pictures (of elements on the page, not
#: hidden ones: an empty widget label keeps an unseen title "null").
_TEXTS = r"""() => {
  const root = document.querySelector('#rendered_cells') || document.body;
  // A command line or code sample is code, not prose: its words are the program's.
  const hide = document.createElement('style');
  hide.textContent = '#rendered_cells pre, #rendered_cells code { display: none !important; }';
  document.head.append(hide);
  const texts = [root.innerText];
  hide.remove();
  const shown = (e) =>
    e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
  for (const o of root.querySelectorAll('select')) if (shown(o))
    for (const option of o.options) texts.push(option.text);
  const where = (e) => e.tagName.toLowerCase() + '.' +
    String(e.className.baseVal ?? e.className).trim().split(/\s+/).slice(0, 2).join('.');
  for (const e of [...root.querySelectorAll('[title]')].filter(shown))
    texts.push('[title of ' + where(e) + '] ' + e.getAttribute('title'));
  for (const e of [...root.querySelectorAll('[placeholder]')].filter(shown))
    texts.push('[placeholder] ' + e.getAttribute('placeholder'));
  for (const t of [...root.querySelectorAll('svg text, svg title')].filter(
      (t) => shown(t.parentElement)))
    texts.push('[' + where(t.parentElement) + '] ' + t.textContent);
  return texts.filter((t) => t && t.trim());
}"""

_BUTTONS = """() => [...document.querySelectorAll('button, .widget-upload')]
  .filter((e) => e.getBoundingClientRect().width > 0).map((e) => e.textContent.trim())"""

_BOARDS = """() => [...document.querySelectorAll('svg.akvo-board-svg')].map((svg) => {
  const board = svg.closest('.akvo-board');
  const toggle = board && board.querySelector('.akvo-board-legend > summary');
  return (svg.getAttribute('aria-label') || 'plateau') + ': ' +
    (toggle ? toggle.textContent.trim() : 'pas de légende');
})"""

#: Checks that fail on pages owned by another engineer: (check, page) → the defect.
KNOWN: dict[tuple[str, str], str] = {}


@pytest.fixture(scope="module")
def book(browser: Browser) -> Iterator[Callable[[str], dict[str, Any]]]:
    """This module's own book server and one 390 px visit per page, read by every check.

    Pages open :data:`AT_ONCE` at a time (their kernels start side by side); what each
    visit found is also written to ``test-artifacts/reading.json`` for the curious."""
    ARTIFACTS.mkdir(exist_ok=True)
    seen: dict[str, dict[str, Any]] = {}
    with background_server(BOOK, ARTIFACTS / "voila-reading.log", *SMALL_POOLS) as url:
        context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
        context.set_default_navigation_timeout(90_000)

        def visit(file: str) -> dict[str, Any]:
            if file not in seen:
                batch = [f for f in PAGES[PAGES.index(file) :] if f not in seen][:AT_ONCE]
                pages = [context.new_page() for _ in batch]
                try:
                    for page, name in zip(pages, batch, strict=True):
                        page.goto(f"{url}/voila/render/{name}", wait_until="commit")
                    for page, name in zip(pages, batch, strict=True):
                        seen[name] = read(page)
                finally:
                    for page in pages:
                        page.close()
                (ARTIFACTS / "reading.json").write_text(json.dumps(seen, indent=1))
            return seen[file]

        yield visit
        context.close()


def read(page: Page) -> dict[str, Any]:
    """Everything the checks need from one visit of the page (already on its way)."""
    page.bring_to_front()
    page.wait_for_selector(".akvo-nav, .akvo-toc", state="attached", timeout=90_000)
    settle(page, timeout_s=30.0, quiet_s=1.0)
    found = {
        "title": page.title(),
        "past_edge": page.evaluate(_PAST_THE_EDGE, PHONE["width"]),
        "cut": [f"390 px: {c}" for c in page.evaluate(_CUT)],
        "texts": page.evaluate(_TEXTS),
        "buttons": page.evaluate(_BUTTONS),
        "boards": page.evaluate(_BOARDS),
    }
    page.set_viewport_size(DESKTOP)
    page.wait_for_timeout(200)  # one layout pass at the new width
    found["cut"] += [f"1280 px: {c}" for c in page.evaluate(_CUT)]
    return found


def cases(check: str) -> list[Any]:
    """Every page, the known failures of ``check`` marked as strict expected failures."""
    return [
        pytest.param(f, marks=pytest.mark.xfail(strict=True, reason=KNOWN[check, f]))
        if (check, f) in KNOWN
        else f
        for f in PAGES
    ]


def english_words(texts: list[str]) -> list[str]:
    return sorted({m.group(0) for text in texts for m in _ENGLISH.finditer(text)})


@cache
def has_font(char: str) -> bool:
    """Whether any installed font draws ``char`` (fontconfig, which Chromium uses here)."""
    query = f":charset={ord(char):x}"
    found = subprocess.run(["fc-list", query], capture_output=True, text=True, check=False)
    return bool(found.stdout.strip())


def missing_glyphs(texts: list[str]) -> list[str]:
    chars = {ch for text in texts for ch in text if ord(ch) > 0x7F and not ch.isspace()}
    return sorted(f"{ch} U+{ord(ch):04X}" for ch in chars if not has_font(ch))


def expected_title(file: str) -> str:
    """The home page's title, or the chapter's number and title as the contents list them."""
    if file == manifest.HOME:
        return manifest.HOME_TITLE
    return f"{manifest.number(file)}. {manifest.chapter(file).title} · Akvolition"


@pytest.mark.parametrize("file", cases("edge"))
def test_nothing_past_the_right_edge_on_a_phone(book: Any, file: str) -> None:
    assert book(file)["past_edge"] == []


@pytest.mark.parametrize("file", cases("cut"))
def test_no_cut_label(book: Any, file: str) -> None:
    assert book(file)["cut"] == []


@pytest.mark.parametrize("file", cases("english"))
def test_no_english_word(book: Any, file: str) -> None:
    assert english_words(book(file)["texts"]) == []


@pytest.mark.parametrize("file", cases("counter"))
def test_no_file_counter_on_a_button(book: Any, file: str) -> None:
    assert [b for b in book(file)["buttons"] if _COUNTER.search(b)] == []


@pytest.mark.parametrize("file", cases("glyph"))
def test_no_glyph_drawn_as_an_empty_box(book: Any, file: str) -> None:
    assert missing_glyphs(book(file)["texts"] + book(file)["buttons"]) == []


@pytest.mark.parametrize("file", cases("title"))
def test_tab_title_agrees_with_the_table_of_contents(book: Any, file: str) -> None:
    title = re.sub(r"[\s\u00a0\u202f]+", " ", book(file)["title"]).strip()
    assert title == re.sub(r"[\s\u00a0\u202f]+", " ", expected_title(file))


@pytest.mark.parametrize("file", cases("legend"))
def test_a_legend_beside_every_board(book: Any, file: str) -> None:
    boards = book(file)["boards"]
    assert [b for b in boards if not b.endswith(": Légende")] == []


def test_the_checks_see_what_they_look_for(browser: Browser) -> None:
    """Each check finds its defect on a page made to have it (no server needed)."""
    page = browser.new_page(viewport=PHONE)
    page.set_content(
        "<html><body><div id='rendered_cells'>"
        "<p style='width: 600px'>trop large</p>"
        "<div style='overflow-x: auto'><table style='width: 900px'><tr><td>défile</td>"
        "</tr></table></div>"
        "<button style='width: 40px; overflow: hidden; white-space: nowrap'>Recommencer"
        "</button><button>Charger (0)</button>"
        "<select style='width: 60px'><option>Équipe Perrockiss</option></select>"
        "<p title='Open viewer'>Suivant ⏭</p>"
        "<pre>akvo simulate --bots greedy</pre>"
        "<label title='null'>Tour</label><label title='null' style='display: none'></label>"
        "<svg class='akvo-board-svg' aria-label='Plateau'></svg>"
        "</div></body></html>"
    )
    assert [e.split(" ")[0] for e in page.evaluate(_PAST_THE_EDGE, PHONE["width"])] == ["p."]
    cut = page.evaluate(_CUT)
    assert [c.split(" ")[0] for c in cut] == ["button", "select"], cut
    texts = page.evaluate(_TEXTS)
    assert english_words(texts) == ["null", "viewer"]
    assert sum(t.endswith("] null") for t in texts) == 1  # the hidden label's title is unseen
    assert missing_glyphs(texts) == ["⏭ U+23ED"]
    assert [b for b in page.evaluate(_BUTTONS) if _COUNTER.search(b)] == ["Charger (0)"]
    assert page.evaluate(_BOARDS) == ["Plateau: pas de légende"]
    assert expected_title("des.ipynb") == f"{manifest.number('des.ipynb')}. Les dés · Akvolition"
    page.close()
