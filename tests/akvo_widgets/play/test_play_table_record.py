"""« Revoir un match » opened by a finished online table's link (``?table=ID``): the
browser's answer (status and body of ``akvo/api/tables/ID/replay``) is loaded like a file
the reader picked, and a refusal or a broken answer shows a French message only."""

from __future__ import annotations

import json

from akvo.match import play_match
from akvo_widgets.play.replay import ReplayViewer
from akvo_widgets.play.table_record import UNREACHABLE


def _answer(status: int, body: str) -> str:
    return json.dumps({"table": "abc", "status": status, "body": body})


def test_a_finished_tables_record_is_loaded_and_checked_by_the_engine() -> None:
    viewer = ReplayViewer()
    record = play_match(11).record()
    viewer.from_table.answer = _answer(200, json.dumps(record))
    assert viewer.record == record and viewer.steps == len(record["actions"])
    assert "Match de la table en ligne chargé\u00a0: " in viewer.message.value
    assert viewer.analysis is not None  # « Analyser le match » reads viewer.record


def test_a_refusal_or_a_forged_record_changes_nothing_but_the_message() -> None:
    viewer = ReplayViewer()
    message = "Ce match n’est pas fini\u00a0: il se revoit une fois terminé."
    viewer.from_table.answer = _answer(409, json.dumps({"error": "playing", "message": message}))
    assert viewer.record is None and "Ce match n’est pas fini" in viewer.message.value
    viewer.from_table.answer = _answer(0, "")
    assert viewer.record is None and UNREACHABLE[:30] in viewer.message.value
    forged = {**play_match(11).record(), "actions": ["fly away"]}
    viewer.from_table.answer = _answer(200, json.dumps(forged))
    assert viewer.record is None and 'role="alert"' in viewer.message.value
    viewer.from_table.answer = "not json"
    assert viewer.record is None
