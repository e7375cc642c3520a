"""The rule-by-rule concordance: each rule sentence of the rulebook → the chapters that teach
it, the rulings it relies on, the engine code that implements it and the tests that check it.

The map is data (``akvo/concordance.toml``): TOML rather than JSON because it is written and
reviewed by hand — one ``[[sentence]]`` table per rule, comments allowed, no trailing-comma
traps — and Python reads it with the standard library (:mod:`tomllib`). Lines of the rulebook
that hold no rule (headings, flavour text, board layout) are listed as ``[[excluded]]`` with
a reason, so that a test can check that every line is accounted for.
"""

from __future__ import annotations

import importlib
import re
import tomllib
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from typing import Any

from akvo.errors import AkvoError

RULING = re.compile(r"^R([1-9]|1\d|2[0-8])$")
NODE_ID = re.compile(r"^tests/[\w/]+\.py::\w+$")


class ConcordanceError(AkvoError):
    """A malformed concordance entry or an engine reference that does not resolve."""


@dataclass(frozen=True, slots=True)
class Sentence:
    """One rule sentence of the rulebook and everything that answers for it."""

    id: str
    section: str
    lines: tuple[int, ...]
    text: str
    chapters: tuple[str, ...]
    rulings: tuple[str, ...]
    code: tuple[str, ...]
    tests: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Excluded:
    """Rulebook lines that hold no rule, and why."""

    reason: str
    lines: tuple[int, ...]


def _strings(entry: dict[str, Any], key: str) -> tuple[str, ...]:
    value = entry.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConcordanceError(f"{entry.get('id', '?')}: {key} must be a list of strings")
    return tuple(value)


def _lines(entry: dict[str, Any]) -> tuple[int, ...]:
    value = entry.get("lines")
    if not isinstance(value, list) or not value or not all(isinstance(v, int) for v in value):
        raise ConcordanceError(f"{entry.get('id', '?')}: lines must be a non-empty integer list")
    return tuple(value)


def _sentence(entry: dict[str, Any]) -> Sentence:
    sentence = Sentence(
        id=str(entry.get("id", "")),
        section=str(entry.get("section", "")),
        lines=_lines(entry),
        text=str(entry.get("text", "")),
        chapters=_strings(entry, "chapters"),
        rulings=_strings(entry, "rulings"),
        code=_strings(entry, "code"),
        tests=_strings(entry, "tests"),
    )
    if not sentence.id or not sentence.section or not sentence.text:
        raise ConcordanceError(f"entry {entry!r} needs an id, a section and a text")
    bad = [r for r in sentence.rulings if not RULING.match(r)]
    bad += [t for t in sentence.tests if not NODE_ID.match(t)]
    if bad:
        raise ConcordanceError(f"{sentence.id}: malformed ruling or test id {bad}")
    return sentence


@cache
def _load() -> tuple[tuple[Sentence, ...], tuple[Excluded, ...]]:
    data = tomllib.loads(files("akvo").joinpath("concordance.toml").read_text("utf-8"))
    sentences = tuple(_sentence(e) for e in data.get("sentence", []))
    ids = [s.id for s in sentences]
    if len(set(ids)) != len(ids):
        raise ConcordanceError("sentence ids must be unique")
    excluded = tuple(
        Excluded(str(e.get("reason", "")), _lines(e)) for e in data.get("excluded", [])
    )
    return sentences, excluded


def sentences() -> tuple[Sentence, ...]:
    """Every mapped rule sentence, in the rulebook's order."""
    return _load()[0]


def excluded() -> tuple[Excluded, ...]:
    """The rulebook lines that hold no rule, grouped by reason."""
    return _load()[1]


def sentence(sentence_id: str) -> Sentence:
    for s in sentences():
        if s.id == sentence_id:
            return s
    raise ConcordanceError(f"no rule sentence {sentence_id!r} in the concordance")


def resolve(reference: str) -> object:
    """Import ``module:qualname`` (an ``akvo`` module only) and return the object it names."""
    module_name, _, qualname = reference.partition(":")
    if not module_name.startswith("akvo.") or not qualname:
        raise ConcordanceError(f"{reference!r} is not an akvo module:qualname reference")
    try:
        target: object = importlib.import_module(module_name)
        for part in qualname.split("."):
            target = getattr(target, part)
    except (ImportError, AttributeError) as error:
        raise ConcordanceError(f"{reference!r} does not resolve: {error}") from None
    return target
