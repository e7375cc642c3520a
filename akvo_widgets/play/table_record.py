"""A finished online table opened in « Revoir un match » by a link (issue 37.5).

The page's address carries the table's id (``rejouer-un-match.ipynb?table=ID``): an
invisible anywidget reads it in the browser, fetches the table's public record from the
book server (``akvo/api/tables/ID/replay``, which answers for a finished match only) and
sends the text to the kernel, which loads it like a file the reader picked (the engine
checks every action). The browser does the fetch because a kernel does not always know its
page's address: a pre-heated or spare kernel was started before the reader came.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from html import escape
from pathlib import Path
from typing import Any

import anywidget
import traitlets

from akvo_widgets.text.formatting import NBSP

from .records import RecordError, load_record

HERE = Path(__file__).resolve().parent
#: What the reader reads when the server did not give the record.
UNREACHABLE = "Le match de cette table n’a pas pu être chargé\u00a0: le serveur ne répond pas."


class TableRecord(anywidget.AnyWidget):  # type: ignore[misc]
    """Calls ``load(record)`` with the linked table's record once the engine has replayed
    it, then ``say(html)`` to name where it came from; ``say`` alone with the French reason
    when there is none; nothing at all on a page opened without ``?table=``."""

    _esm = HERE / "table_record.js"
    answer = traitlets.Unicode("").tag(sync=True)

    def __init__(self, load: Callable[[dict[str, Any]], None], say: Callable[[str], None]) -> None:
        super().__init__()
        self._load, self._say = load, say
        self.observe(self._answered, "answer")

    def _answered(self, change: dict[str, object]) -> None:
        try:
            answer = json.loads(str(change["new"]))
            status, body = int(answer["status"]), str(answer["body"])
        except (ValueError, KeyError, TypeError):
            return
        if status != 200:
            try:
                message = str(json.loads(body)["message"])
            except (ValueError, KeyError, TypeError):
                message = UNREACHABLE
            self._say(f'<p role="alert">{escape(message)}</p>')
            return
        try:
            record, _final = load_record(body.encode("utf-8"))
        except RecordError as error:
            self._say(f'<p role="alert">{escape(str(error))}</p>')
            return
        self._load(record)
        steps = len(record["actions"])
        self._say(
            f"<p>Match de la table en ligne chargé{NBSP}: {steps} coups et jets, vérifiés par "
            f"le moteur. Avancez ou reculez avec les boutons ou le curseur{NBSP}; "
            f"«{NBSP}Analyser le match{NBSP}» en donne l’analyse.</p>"
        )
