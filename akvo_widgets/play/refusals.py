"""The engine's refusals in French, for the reader.

The engine's error messages are English by design (they are for developers: field names,
action strings). The play pages never show them: a refused move is explained from the
state itself (what is decided now, what is allowed), and a refused file by the kind of
error, with the only pieces of the engine's text a reader can use (which move of the file,
which field), picked out and put into a French sentence.
"""

from __future__ import annotations

import re
from typing import Any

from akvo.errors import (
    AkvoError,
    DiceError,
    IllegalAction,
    MatchError,
    RulesError,
    ShotError,
    TeamError,
)
from akvo.errors import RecordError as EngineRecordError
from akvo.match import MatchState, Phase, replay
from akvo_widgets.text.formatting import french
from akvo_widgets.text.labels import action_label

#: One French sentence per kind of engine error (the most specific class wins).
ERROR_KINDS: dict[type[AkvoError], str] = {
    IllegalAction: "un coup n’est pas permis à ce moment du match",
    TeamError: "une équipe ne respecte pas la composition des équipes (R27)",
    MatchError: "une équipe, une unité ou un réglage du match est inconnu",
    RulesError: "un réglage sort de ce que prévoit le livret de règles",
    ShotError: "un tir est décrit d’une façon impossible",
    DiceError: "un lancer de dés est décrit d’une façon impossible",
    EngineRecordError: "le fichier ne suit pas le format d’un match enregistré",
    AkvoError: "le moteur refuse ce contenu",
}
SHOWN_OPTIONS = 4

_MOVE = re.compile(r"^actions\[(\d+)\]: ")
_MISSING = re.compile(r"field '([\w.\[\]]{1,40})' is missing")
_FIELD = re.compile(r"^([a-z_][\w.\[\]]{0,40})(?: =| must|: |\.)")


def error_kind(error: AkvoError) -> str:
    """The French sentence of the error's kind (its most specific known class)."""
    for kind in type(error).__mro__:
        if kind in ERROR_KINDS:
            return ERROR_KINDS[kind]
    return ERROR_KINDS[AkvoError]


def move_refusal(state: MatchState, action: Any) -> str:
    """Why ``action`` cannot be played in ``state``, in French, from the state alone."""
    if state.is_terminal():
        return "le match est déjà terminé."
    if not isinstance(action, str):
        return "un coup se choisit parmi les boutons proposés."
    if state.is_chance_node():
        if state.phase == Phase.WEATHER:
            return "c’est le tirage du jeton météo qui décide maintenant."
        dice = state.roll_dice()
        count = f"{dice} dé{'s' if dice > 1 else ''}"
        return f"ce sont les dés qui décident maintenant : {count}, chacun de 1 à 6."
    step = f"l’étape est « {state.prompt().rstrip('.')} »"
    if state.phase == Phase.ORDERS:
        return french(f"{step} : réglez vos quatre jetons et celui du navire, puis validez.")
    legal = state.legal_actions()
    shown = [f"« {action_label(state, a)} »" for a in legal[:SHOWN_OPTIONS]]
    more = f" et {len(legal) - SHOWN_OPTIONS} autre(s)" if len(legal) > SHOWN_OPTIONS else ""
    choices = ", ".join(shown) + more
    return french(f"{step} ; coups possibles : {choices}.")


def record_refusal(error: AkvoError, record: dict[str, Any] | None = None) -> str:
    """Why the engine refuses a record, as a French sentence: the move at fault and why (from
    the position just before it), or the kind of error and the field at fault."""
    text = str(error)
    move = _MOVE.match(text)
    actions = record.get("actions") if isinstance(record, dict) else None
    if move and isinstance(actions, list):
        index = int(move.group(1))
        try:
            before = replay({**record, "actions": actions[:index]})  # type: ignore[dict-item]
        except AkvoError:
            before = None
        if before is not None and index < len(actions):
            return french(
                f"Le match ne se rejoue pas selon les règles : le coup n° {index + 1} du "
                f"fichier n’est pas permis ; {move_refusal(before, actions[index])}"
            )
    head = f"Ce fichier n’est pas un match valide : {error_kind(error)}"
    missing = _MISSING.search(text)
    if missing:
        return french(f"{head} ; il manque le champ « {missing.group(1)} ».")
    field = _FIELD.match(text)
    if field and isinstance(error, EngineRecordError):
        return french(f"{head} ; le champ « {field.group(1)} » est invalide.")
    return french(head + ".")
