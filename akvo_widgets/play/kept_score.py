"""The exercise score kept in the reader's own browser (issue 19.5).

The page « Exercices » hands :class:`.keeper.MatchKeeper` a small JSON record after each
answer: the score, the exercise on screen and the answer given to it, if any. On a reload,
the back button or a reopened tab the browser hands it back, and anything may come back
(a hostile client, an old format, a hand-edited value): :func:`load_score` accepts only a
record this module could have written, and otherwise raises :class:`KeptScoreError` with
a French sentence; the page then keeps its fresh score.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from akvo.errors import AkvoError

#: The first field of every record: a record of another shape is refused, not guessed at.
VERSION = 1
#: A kept record is about 60 characters; anything much longer is not one.
MAX_CHARS = 1_000
#: More answers than a reader gives in years: a larger count is not a real score.
MAX_ASKED = 1_000_000
FIELDS = ("version", "right", "asked", "number", "answer")


class KeptScoreError(AkvoError):
    """A kept score that is not one this page wrote; the message is French, for the page."""


@dataclass(frozen=True)
class KeptScore:
    """The score (``right`` out of ``asked``), the exercise on screen, the answer given to it
    (``None`` while it is unanswered)."""

    right: int
    asked: int
    number: int
    answer: str | None = None

    def to_json(self) -> str:
        return json.dumps(
            {
                "version": VERSION,
                "right": self.right,
                "asked": self.asked,
                "number": self.number,
                "answer": self.answer,
            },
            ensure_ascii=False,
            separators=(",", ":"),
        )


REFUSAL = "Le score gardé dans ce navigateur est illisible : la page repart d’un score nul."


def _count(record: dict[str, Any], name: str, least: int, most: int) -> int:
    value = record[name]
    if isinstance(value, bool) or not isinstance(value, int) or not least <= value <= most:
        raise KeptScoreError(REFUSAL)
    return int(value)


def load_score(text: object, first: int, last: int) -> KeptScore:
    """The kept score in ``text``, with an exercise number from ``first`` to ``last``, or
    :class:`KeptScoreError` (French) for anything this page would not have written. Whether
    the answer is one of the exercise's options is the page's check (it knows the options)."""
    if not isinstance(text, str) or not text or len(text) > MAX_CHARS:
        raise KeptScoreError(REFUSAL)
    try:
        record = json.loads(text)
    except (ValueError, RecursionError):
        raise KeptScoreError(REFUSAL) from None
    if not isinstance(record, dict) or sorted(record) != sorted(FIELDS):
        raise KeptScoreError(REFUSAL)
    _count(record, "version", VERSION, VERSION)
    asked = _count(record, "asked", 0, MAX_ASKED)
    right = _count(record, "right", 0, asked)
    number = _count(record, "number", first, last)
    answer = record["answer"]
    if answer is not None and (type(answer) is not str or not answer or asked == 0):
        raise KeptScoreError(REFUSAL)  # an answered exercise was counted in ``asked``
    return KeptScore(right, asked, number, answer)
