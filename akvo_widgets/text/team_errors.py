"""French wording of the engine's team-list errors (R27), for readers of the book.

:func:`akvo.teams.parse_team` raises :class:`akvo.teams.TeamListError`, whose fields (the
kind of mistake, its place in the text, the offending group or letter…) say what is wrong;
the English message is for developers. Each kind is said here in French from those fields
alone, and :func:`mistake_html` shows where the mistake is in the typed list. An error
without those fields (a plain :class:`~akvo.errors.TeamError`) still gets a French
sentence, never the English one.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape

from akvo.errors import TeamError
from akvo.rules import Character
from akvo.teams import BONUS_PLACE, GROUP_COUNT, GROUP_SIZE, TeamListError, TeamMistake

from .formatting import french

FALLBACK = "Cette liste d’équipe n’est pas valide (R27)."


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'s' if count > 1 else ''}"


def _group(place: int) -> str:
    """``2`` → ``le groupe 2 (Kitesurfeur)``; the bonus place → ``les runes bonus``."""
    if place == BONUS_PLACE:
        return "les runes bonus"
    return f"le groupe {place} ({Character.from_lane(place).label})"


def _where(error: TeamListError) -> str:
    """``position 9``, or ``ligne 2, position 4`` past the first line of the list."""
    if error.line is None or error.line == 1:
        return f"position {error.position}"
    return f"ligne {error.line}, position {error.column}"


def _forbidden(error: TeamListError) -> str:
    kind = "Le chiffre" if error.character.isdigit() else "Le caractère"
    return (
        f"{kind} « {error.character} » ({_where(error)}) n’a pas sa place dans une liste : "
        "seulement des lettres de A à Z, des espaces, des « / » et un « + »."
    )


def _group_count(error: TeamListError) -> str:
    found = _plural(error.count or 0, "groupe")
    return f"La liste a {found} de lettres : il en faut {GROUP_COUNT}, un par couloir (R1)."


def _group_size(error: TeamListError) -> str:
    lane = error.places[0]
    return (
        f"Le groupe {lane} ({Character.from_lane(lane).label}), « {error.token} », a "
        f"{_plural(error.count or 0, 'lettre')} : chaque personnage a exactement "
        f"{GROUP_SIZE} runes."
    )


def _bonus_size(error: TeamListError) -> str:
    return (
        f"Les runes bonus « {error.token} » comptent {_plural(error.count or 0, 'lettre')} : "
        "il en faut exactement 2."
    )


def _repeated(error: TeamListError) -> str:
    places = " et ".join(f"dans {_group(place)}" for place in error.places)
    return (
        f"La lettre {error.character} apparaît deux fois, {places} : chaque rune n’existe "
        "qu’une fois dans une équipe."
    )


_SAY: dict[TeamMistake, Callable[[TeamListError], str]] = {
    TeamMistake.NOT_A_STRING: lambda e: "La liste d’équipe doit être un texte de 26 lettres.",
    TeamMistake.EMPTY: lambda e: "La liste est vide : tapez 26 lettres.",
    TeamMistake.FORBIDDEN_CHARACTER: _forbidden,
    TeamMistake.SEVERAL_PLUS: lambda e: (
        "Il y a plus d’un « + » : les deux runes bonus viennent une seule fois, à la fin."
    ),
    TeamMistake.NO_GROUPS: lambda e: "Il n’y a aucun groupe de lettres avant le « + ».",
    TeamMistake.GROUP_COUNT: _group_count,
    TeamMistake.GROUP_SIZE: _group_size,
    TeamMistake.EMPTY_BONUS: lambda e: (
        "Rien après le « + » : il faut les 2 lettres des runes bonus."
    ),
    TeamMistake.BONUS_SIZE: _bonus_size,
    TeamMistake.REPEATED_LETTER: _repeated,
    TeamMistake.UNKNOWN_PRESET: lambda e: (
        f"Le livret n’a pas d’équipe « {e.token} » : choisissez-en une dans la liste."
    ),
    TeamMistake.TOO_LONG: lambda e: "La liste est trop longue : 26 lettres suffisent.",
    TeamMistake.NOT_IN_TEAM: lambda e: (
        f"« {e.character} » n’est pas une lettre de rune de cette équipe."
    ),
}


def team_error_french(error: TeamError) -> str:
    """The French sentence for a team-list error (typographic spaces included)."""
    if isinstance(error, TeamListError):
        return french(_SAY[error.kind](error))
    return french(FALLBACK)


def mistake_html(text: str, error: TeamError) -> str:
    """The typed list with its mistake marked (``<mark>``), or ``""`` when the mistake has
    no single place (a missing group, an empty list)."""
    if not isinstance(error, TeamListError) or error.position is None:
        return ""
    start = error.position - 1
    length = len(error.token) if error.kind is TeamMistake.GROUP_SIZE else 1
    end = start + length
    if error.kind is TeamMistake.GROUP_SIZE:  # a group's letters may be spaced out
        while sum(ch.isalpha() for ch in text[start:end]) < length and end < len(text):
            end += 1
    return f"{escape(text[:start])}<mark>{escape(text[start:end])}</mark>{escape(text[end:])}"
