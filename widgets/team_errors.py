"""French wording of the engine's team-list errors (R27), for readers of the book.

:class:`akvo.errors.TeamError` carries one English sentence; each case that
:func:`akvo.teams.parse_team` can raise is recognised here by its wording and said again in
French, naming the same letter, group or count. A case this module does not know (a new
engine message) still gets a French sentence, never the English one.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from akvo.errors import TeamError
from akvo.rules import Character

from .formatting import french

_GROUP = re.compile(r"group (\d)")


def _place(text: str) -> str:
    """``group 2`` → ``dans le groupe 2 (Kitesurfeur)``, ``the bonus`` → ``dans les runes
    bonus``."""

    def one(part: str) -> str:
        match = _GROUP.fullmatch(part.strip())
        if match:
            lane = int(match.group(1))
            return f"dans le groupe {lane} ({Character.from_lane(lane).label})"
        return "dans les runes bonus"

    return " et ".join(one(part) for part in text.split(" and "))


def _group_count(m: re.Match[str]) -> str:
    count = int(m.group(1))
    found = f"{count} groupe{'s' if count > 1 else ''} de lettres"
    return f"La liste a {found} : il en faut 6, un par couloir (R1)."


def _group_size(m: re.Match[str]) -> str:
    lane, letters, size = int(m.group(1)), m.group(2), int(m.group(3))
    who = Character.from_lane(lane).label
    return (
        f"Le groupe {lane} ({who}), « {letters} », a {size} lettre{'s' if size > 1 else ''} : "
        "chaque personnage a exactement 4 runes."
    )


def _bad_char(m: re.Match[str]) -> str:
    kind = "Le chiffre" if m.group(1) == "digit" else "Le caractère"
    return (
        f"{kind} « {m.group(2)} » (position {m.group(3)}) n’a pas sa place dans une liste : "
        "seulement des lettres de A à Z, des espaces, des « / » et un « + »."
    )


def _bonus_size(m: re.Match[str]) -> str:
    count = int(m.group(2))
    return (
        f"Les runes bonus « {m.group(1)} » comptent {count} lettre{'s' if count > 1 else ''} : "
        "il en faut exactement 2."
    )


def _twice(m: re.Match[str]) -> str:
    return (
        f"La lettre {m.group(1)} apparaît deux fois, {_place(m.group(2))} : "
        "chaque rune n’existe qu’une fois dans une équipe."
    )


_CASES: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], str]], ...] = (
    (re.compile(r"the list is empty"), lambda m: "La liste est vide : tapez 26 lettres."),
    (
        re.compile(r"unknown (digit|character) '(.)' at position (\d+)"),
        _bad_char,
    ),
    (
        re.compile(r"more than one '\+'"),
        lambda m: (
            "Il y a plus d’un « + » : les deux runes bonus viennent une seule fois, à la fin."
        ),
    ),
    (
        re.compile(r"no letter groups before '\+'"),
        lambda m: "Il n’y a aucun groupe de lettres avant le « + ».",
    ),
    (re.compile(r"found (\d+) letter groups"), _group_count),
    (re.compile(r"group (\d) '(\w*)' has (\d+) letters"), _group_size),
    (
        re.compile(r"the bonus part after '\+' is empty"),
        lambda m: "Rien après le « + » : il faut les 2 lettres des runes bonus.",
    ),
    (re.compile(r"the bonus part '(\w*)' has (\d+) letters"), _bonus_size),
    (re.compile(r"letter '(\w)' appears twice \(([^)]*)\)"), _twice),
)

FALLBACK = "Cette liste d’équipe n’est pas valide (R27)."


def team_error_french(error: TeamError) -> str:
    """The French sentence for a team-list error (typographic spaces included)."""
    text = str(error)
    for pattern, say in _CASES:
        match = pattern.search(text)
        if match:
            return french(say(match))
    return french(FALLBACK)
