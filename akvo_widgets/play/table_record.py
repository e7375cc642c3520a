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

import anywidget
import traitlets

HERE = Path(__file__).resolve().parent
#: What the reader reads when the server did not give the record.
UNREACHABLE = "Le match de cette table n’a pas pu être chargé\u00a0: le serveur ne répond pas."


class TableRecord(anywidget.AnyWidget):  # type: ignore[misc]
    """Calls ``load(record bytes)`` with the linked table's record, or ``say(html)`` with
    the server's French refusal; nothing at all on a page opened without ``?table=``."""

    _esm = HERE / "table_record.js"
    answer = traitlets.Unicode("").tag(sync=True)

    def __init__(self, load: Callable[[bytes], None], say: Callable[[str], None]) -> None:
        super().__init__()
        self._load, self._say = load, say
        self.observe(self._answered, "answer")

    def _answered(self, change: dict[str, object]) -> None:
        try:
            answer = json.loads(str(change["new"]))
            status, body = int(answer["status"]), str(answer["body"])
        except (ValueError, KeyError, TypeError):
            return
        if status == 200:
            self._load(body.encode("utf-8"))
            return
        try:
            message = str(json.loads(body)["message"])
        except (ValueError, KeyError, TypeError):
            message = UNREACHABLE
        self._say(f'<p role="alert">{escape(message)}</p>')
