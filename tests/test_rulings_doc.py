"""docs/rulings.md: the project's own statement of R1–R28, numbered as the code, the
concordance and the book cite them, with every rules variant named by its config field."""

from __future__ import annotations

import re
from pathlib import Path

from akvo.concordance import RULING, sentences
from akvo.config import CHOICES, DEFAULT_RULES
from akvo.variants import VARIANT_RULINGS

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "rulings.md"
HEADING = re.compile(r"^### (R\d+) — (.+)$", re.MULTILINE)
FIELD_LINE = re.compile(r"^Config field `(\w+)`: `(\w+)` \(default[^|]*\| `(\w+)`", re.MULTILINE)


def _sections() -> dict[str, str]:
    """Each ruling id → its text (from its heading to the next one)."""
    text = DOC.read_text(encoding="utf-8")
    heads = list(HEADING.finditer(text))
    ends = [h.start() for h in heads[1:]] + [len(text)]
    return {h.group(1): text[h.start() : end] for h, end in zip(heads, ends, strict=True)}


def test_the_rulings_are_r1_to_r28_in_order_each_once() -> None:
    ids = HEADING.findall(DOC.read_text(encoding="utf-8"))
    assert [rid for rid, _ in ids] == [f"R{n}" for n in range(1, 29)]
    assert all(RULING.match(rid) for rid, _ in ids)  # the concordance accepts exactly these


def test_every_ruling_the_concordance_cites_is_in_the_doc() -> None:
    cited = {r for s in sentences() for r in s.rulings}
    assert cited == set(_sections())


def test_each_variant_is_named_under_its_ruling_with_its_options_default_first() -> None:
    sections = _sections()
    named = {}
    for rid, body in sections.items():
        for field, default, other in FIELD_LINE.findall(body):
            named[field] = (rid, (default, other))
    assert set(named) == set(CHOICES)
    for field, (rid, options) in named.items():
        assert rid == VARIANT_RULINGS[field], field
        assert options == CHOICES[field], field
        assert options[0] == getattr(DEFAULT_RULES, field)
    headings = HEADING.findall(DOC.read_text(encoding="utf-8"))
    variant_headings = {rid for rid, title in headings if "variant" in title}
    assert variant_headings == set(VARIANT_RULINGS.values())
    assert {"R8", "R20"} <= variant_headings  # the weather's, the ship's and Rouleau's


def test_nothing_in_the_repository_reads_the_shared_folder() -> None:
    """The rulings and the rulebook travel with the repository: no code or test names a path
    outside it (the old ../shared/RULINGS.md)."""
    offenders = []
    for folder in ("akvo", "tests", "benchmarks"):
        for path in (ROOT / folder).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            if re.search(r"shared/(RULINGS|sources)|\.\./shared|RULINGS\.md", text):
                offenders.append(str(path.relative_to(ROOT)))
    offenders.remove("tests/test_rulings_doc.py")  # this test's own pattern
    assert offenders == []
