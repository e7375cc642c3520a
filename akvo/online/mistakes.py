"""« Vos erreurs » kept on the server for an online player (issue 34.7).

A profile's browser sends the set it keeps (the JSON text of
:func:`akvo.coach.exercises.export_json`) with the profile's secret key; the server checks
it as it checks a file (:func:`akvo.coach.exercises.import_json`: a hostile set is refused,
nothing changes), merges it with the set it keeps for that profile
(:func:`akvo.coach.exercises.merge`: nothing lost, each card at its furthest) and answers
the merged set, which the browser keeps in turn. Only the key's holder reads or changes the
set (:meth:`akvo.online.service.TableService.keep_mistakes`); one set per profile, at most
an import's size.
"""

from __future__ import annotations

import logging
from typing import Final

from akvo.coach.exercises import MAX_FILE_CHARS, Kept, export_json, import_json, merge
from akvo.errors import AkvoError
from akvo.online.seating import refuse

log = logging.getLogger("akvo.online")

#: The keys a request may hold: the profile's key, and the set (optional: without it, the
#: kept set is only read).
REQUEST_KEYS: Final = frozenset(("key", "mistakes"))
EMPTY: Kept = ((), ())
NOT_TEXT: Final = "Les erreurs s’envoient comme le texte de leur fichier\u00a0: rien n’a changé."
REFUSED: Final = "Ces erreurs ne forment pas un ensemble d’akvo valide\u00a0: rien n’a changé."


def merged_text(stored: str, sent: object) -> str:
    """The set to keep once ``sent`` (a set's text, or None) joins ``stored`` ("" for
    none): its text, "" when it holds no exercise. A set that is not one refuses the
    request; so does a merged set longer than an import allows."""
    if sent is None:
        mine = EMPTY
    elif not isinstance(sent, str):
        raise refuse("mistakes", NOT_TEXT)
    else:
        try:
            mine = import_json(sent)
        except AkvoError:
            raise refuse(
                "mistakes",
                "Ces erreurs ne forment pas un ensemble d’akvo valide\u00a0: rien n’a changé.",
            ) from None
    kept = merge(_read(stored), mine)
    if not kept[0]:
        return ""
    text = export_json(*kept)
    if len(text) > MAX_FILE_CHARS:
        raise refuse(
            "mistakes",
            "Trop d’erreurs pour les garder sur le serveur\u00a0: rien n’a changé "
            "(elles restent dans ce navigateur).",
        )
    return text


def _read(stored: str) -> Kept:
    """The kept set; one the engine no longer reads (its rules changed) is dropped, as a
    browser drops it."""
    if not stored:
        return EMPTY
    try:
        return import_json(stored)
    except AkvoError as error:
        log.warning("a profile's kept mistakes no longer read: %s", error)
        return EMPTY
