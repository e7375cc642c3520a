"""Saving and loading match records, with a French message for every bad file.

A record is :meth:`akvo.match.MatchState.record` as JSON. Loading goes through the engine
(:func:`akvo.match.replay`), which checks every action; this module only guards what comes
before (size, encoding, JSON shape) and turns every failure into one French sentence, raised
as the engine's own :class:`akvo.errors.RecordError` (one class for a bad record, engine or
page).
"""

from __future__ import annotations

import base64
import json
from html import escape
from typing import Any

from akvo.errors import AkvoError, RecordError
from akvo.match import MatchState, replay

from .refusals import record_refusal

MAX_BYTES = 1_000_000  # a whole match record is about 10 kB
MAX_ACTIONS = 20_000
RECORD_KEYS = ("rules", "teams", "actions")

__all__ = [
    "MAX_BYTES",
    "RecordError",
    "download_link",
    "load_record",
    "parse_record",
    "record_json",
]


def record_json(state: MatchState) -> str:
    return json.dumps(state.record(), ensure_ascii=False, indent=1)


def download_link(state: MatchState, label: str = "Télécharger le match (JSON)") -> str:
    """An HTML link that saves the record as ``match.json`` (ipywidgets has no download)."""
    payload = base64.b64encode(record_json(state).encode()).decode()
    return (
        f'<a class="akvo-play-download" download="match.json" '
        f'href="data:application/json;base64,{payload}">{escape(label)}</a>'
    )


def parse_record(data: bytes) -> dict[str, Any]:
    """The record inside a file's bytes, or :class:`RecordError` saying what is wrong."""
    if not isinstance(data, bytes | bytearray | memoryview):
        raise RecordError("Le fichier est illisible.")
    if len(data) == 0:
        raise RecordError("Le fichier est vide.")
    if len(data) > MAX_BYTES:
        raise RecordError(
            f"Le fichier est trop gros ({len(data)} octets) : un match fait moins de "
            f"{MAX_BYTES} octets."
        )
    try:
        text = bytes(data).decode("utf-8")
    except UnicodeDecodeError:
        raise RecordError("Le fichier n’est pas du texte UTF-8 : est-ce bien un match ?") from None
    try:
        record = json.loads(text)
    except RecursionError:
        raise RecordError("Le fichier est trop imbriqué pour être un match.") from None
    except json.JSONDecodeError as error:
        raise RecordError(
            f"Le fichier n’est pas du JSON valide (ligne {error.lineno}) : "
            "il est peut-être tronqué."
        ) from None
    if not isinstance(record, dict):
        raise RecordError("Le fichier ne contient pas un match (un objet JSON était attendu).")
    missing = [key for key in RECORD_KEYS if key not in record]
    if missing:
        raise RecordError(f"Il manque au match : {', '.join(missing)}.")
    actions = record["actions"]
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise RecordError("La liste des coups doit être une liste de textes.")
    if len(actions) > MAX_ACTIONS:
        raise RecordError(f"Trop de coups ({len(actions)}) pour un seul match.")
    return record


def load_record(data: bytes) -> tuple[dict[str, Any], MatchState]:
    """The record and its final state, replayed by the engine; nothing else changes."""
    record = parse_record(data)
    try:
        state = replay(record)
    except AkvoError as error:
        raise RecordError(record_refusal(error, record)) from None
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        raise RecordError("Le match est mal formé : une partie du fichier est illisible.") from None
    return record, state
