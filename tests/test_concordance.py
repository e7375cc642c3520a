"""The rule-by-rule concordance (akvo/concordance.toml): every rule sentence of the rulebook
is mapped to a chapter, rulings, engine code and tests that all exist."""

from __future__ import annotations

import ast
import hashlib
from functools import cache
from pathlib import Path

import pytest

from akvo.concordance import ConcordanceError, _sentence, excluded, resolve, sentences
from akvo.errors import AkvoError
from akvo_widgets import chapters as manifest

ROOT = Path(__file__).resolve().parents[1]
#: The rulebook as published (CC BY, see its "Licence" line), byte for byte: the text the
#: concordance maps and docs/rulings.md rules on, kept in the repository.
RULEBOOK = Path(__file__).parent / "data" / "akvolition-livret-de-regles.txt"
#: Its SHA-256: the published text, not an edited copy.
RULEBOOK_SHA256 = "8329e2e9c00e38ac3cbe9cdb274badc854e82290ae7bcaabf5bc0837c45b9b9e"
SENTENCES = sentences()


def _rulebook() -> list[str]:
    return RULEBOOK.read_text(encoding="utf-8").splitlines()


@cache
def _test_names(path: str) -> frozenset[str]:
    """``function`` and ``Class::method`` names of the tests a file defines."""
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    names = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.ClassDef):
            names |= {f"{node.name}::{f.name}" for f in node.body if isinstance(f, ast.FunctionDef)}
    return frozenset(names)


def test_every_rule_sentence_has_a_chapter_and_a_test() -> None:
    lacking = [s.id for s in SENTENCES if not s.chapters or not s.tests or not s.code]
    assert not lacking, f"rule sentences without a chapter, code or test: {lacking}"


def test_every_line_of_the_rulebook_is_mapped_or_excluded_once() -> None:
    lines = _rulebook()
    used = [n for s in SENTENCES for n in s.lines] + [n for e in excluded() for n in e.lines]
    assert len(used) == len(set(used)), "a line is mapped twice"
    text_lines = {n for n, text in enumerate(lines, 1) if text.strip()}
    assert set(used) == text_lines
    assert all(e.reason for e in excluded())


def test_sentence_texts_are_the_rulebook_lines() -> None:
    lines = _rulebook()
    for s in SENTENCES:
        assert s.text == " ".join(lines[n - 1].strip() for n in s.lines), s.id


def test_the_rulebook_copy_is_the_published_text() -> None:
    assert hashlib.sha256(RULEBOOK.read_bytes()).hexdigest() == RULEBOOK_SHA256
    assert len(_rulebook()) == 547


def test_chapters_are_in_the_manifest_or_planned() -> None:
    known = {c.file for c in manifest.CHAPTERS}
    for s in SENTENCES:
        for chapter in s.chapters:
            assert chapter in known, (s.id, chapter)
    # Each existing chapter that teaches rules is cited by some sentence.
    cited = {c for s in SENTENCES for c in s.chapters}
    for c in manifest.CHAPTERS:
        if c.part == manifest.PARTS[0]:
            assert c.file in cited, c.file


def test_sections_follow_the_manifest_and_each_is_covered() -> None:
    assert {s.section for s in SENTENCES} == set(manifest.RULEBOOK_SECTIONS)


def test_every_ruling_is_relied_on_by_some_sentence() -> None:
    rulings = {r for s in SENTENCES for r in s.rulings}
    assert rulings == {f"R{n}" for n in range(1, 29)}


def test_engine_references_resolve() -> None:
    for s in SENTENCES:
        for reference in s.code:
            assert resolve(reference) is not None, (s.id, reference)


def test_test_node_ids_exist() -> None:
    for s in SENTENCES:
        for node in s.tests:
            path, _, name = node.partition("::")
            assert (ROOT / path).is_file(), (s.id, node)
            assert name in _test_names(path), (s.id, node)


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ({"id": "x", "section": "tirs", "text": "t", "lines": []}, "lines"),
        ({"id": "x", "section": "tirs", "text": "t", "lines": [1], "rulings": ["R99"]}, "R99"),
        ({"id": "x", "section": "tirs", "text": "t", "lines": [1], "tests": ["nope"]}, "nope"),
        ({"id": "x", "section": "tirs", "text": "t", "lines": [1], "code": [3]}, "code"),
        ({"section": "tirs", "text": "t", "lines": [1]}, "id"),
    ],
)
def test_malformed_entries_are_refused(entry: dict[str, object], message: str) -> None:
    with pytest.raises(ConcordanceError, match=message):
        _sentence(entry)


@pytest.mark.parametrize("reference", ["os:path", "akvo.rules:nope", "akvo.nope:x", "akvo.rules"])
def test_bad_references_are_refused(reference: str) -> None:
    with pytest.raises(AkvoError):
        resolve(reference)


def test_the_rules_limits_point_to_tests_of_those_rules() -> None:
    """The defence modifiers, one rune per side, Tourbillon's duration and the 4/6-player
    sharing each cite a test of that very rule, and the page promises no chapter « à venir »."""
    one_rune = "test_match_limits.py::test_each_side_plays_at_most_one_rune_per_resolution"
    wanted = {
        "tirs.jet-defense": "test_match_limits.py::test_the_defence_modifiers_add_up",
        "runes.une-par-resolution": one_rune,
        "tirs.une-rune": one_rune,
        "ultimes.tourbillon": "test_match_limits.py::test_tourbillon_lasts_until",
        "equipes.quatre-joueurs": "test_tables_model.py::test_four_players_assemble_their_sides",
        "equipes.six-joueurs": "test_tables_model.py::test_at_six_players_the_ship_holder",
    }
    by_id = {s.id: s for s in SENTENCES}
    for sentence_id, test in wanted.items():
        assert any(test in node for node in by_id[sentence_id].tests), sentence_id
    assert "à venir" not in (ROOT / "book" / "concordance.ipynb").read_text(encoding="utf-8")
