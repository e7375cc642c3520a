"""Pseudonymous profiles of online players, and what a finished table does to them.

A profile is a name and a secret key (``secrets.token_urlsafe(32)``), made by the server
once and kept by the player's browser; the server keeps only the key's SHA-256 (like a
seat's token), never an e-mail or anything else. A player chooses to play a seat under
their profile when creating or joining a table (:meth:`TableService.join
<akvo.online.service.TableService.join>`); a seat without one is a guest's, not rated.

When a table finishes, :func:`rated_table` turns it into one Glicko-2 rating period
(:mod:`akvo.online.ratings`): each seat with a profile, its side, the decisions its player
made themself (a bot's rows do not count as theirs), whether a bot held it at the end
because its player left (a loss for them, and a leave: the karma shown next to the
name). Where the match's luck is measured (:func:`luck_scores`, the coach's ledger
:mod:`akvo.coach.luck`), each side's score is its luck-adjusted result rather than 1 / ½ / 0.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from typing import Any, Final

from akvo.online.ratings import Profile, Rating, SeatResult
from akvo.online.ratings import Table as RatedTable
from akvo.online.seating import refuse
from akvo.online.table import PLAYER, Table

#: The longest profile name (it is shown next to a seat, at 390 px).
NAME_LIMIT: Final = 24
#: The keys a request creating a profile, or joining a seat with one, may hold.
CREATE_KEYS: Final = frozenset(("name",))
JOIN_KEYS: Final = frozenset(("token", "key"))
#: A karma worth showing: a profile that left at least this share of its tables (and
#: at least :data:`KARMA_TABLES` of them) is shown as one who leaves often.
KARMA_SHARE: Final = 0.2
KARMA_TABLES: Final = 2


def profile_name(name: object) -> str:
    """A checked profile name: 1 to :data:`NAME_LIMIT` letters, digits, spaces or
    ``-_.'``, spaces trimmed."""
    if not isinstance(name, str):
        raise refuse("profile", "Le nom du profil est un texte.")
    name = unicodedata.normalize("NFC", " ".join(name.split()))
    allowed = all(ch.isalnum() or ch in " -_.'’" for ch in name)
    if not 0 < len(name) <= NAME_LIMIT or not allowed:
        raise refuse(
            "profile",
            f"Le nom du profil a de 1 à {NAME_LIMIT} caractères\u00a0: lettres, chiffres, "
            "espaces, tirets, points ou apostrophes.",
        )
    return name


def public(name: str, standing: Profile) -> dict[str, Any]:
    """What anyone may read of a profile: its name, rating ± deviation (95 %: ± 2 RD),
    tables rated, tables left and whether that makes it one who leaves often."""
    rating = standing.rating
    return {
        "name": name,
        "rating": round(rating.rating),
        "deviation": round(rating.deviation),
        "low": round(rating.rating - 2 * rating.deviation),
        "high": round(rating.rating + 2 * rating.deviation),
        "tables": standing.tables,
        "leaves": standing.leaves,
        "leave_share": round(standing.leave_share, 3),
        "leaves_often": standing.tables >= KARMA_TABLES and standing.leave_share >= KARMA_SHARE,
    }


def rated_table(
    table: Table,
    profiles: Mapping[int, str],
    bot_rating: Mapping[str, Rating],
    scores: tuple[float, float] | None = None,
) -> RatedTable:
    """A finished table as one rating period: its seats with their profile (by seat
    index), the decisions each player made themself, and who left."""
    result = table.state.result
    if result is None:
        raise refuse("playing", "Le match n’est pas fini.")
    own = [0] * len(table.seats)
    for (seat, _), author in zip(table.rows, table.authors, strict=True):
        if author == PLAYER:
            own[seat] += 1
    seats = tuple(
        SeatResult(
            profiles.get(s.index),
            s.side,
            own_decisions=own[s.index],
            left=table.handed(s.index) is not None,
            bot=table.controller(s.index),
        )
        for s in table.seats
    )
    return RatedTable(seats, result, bot_rating, scores)


def luck_scores(record: dict[str, Any]) -> tuple[float, float] | None:
    """Each side's luck-adjusted result (result − luck, clipped to 0–1) from the coach's
    luck ledger, or None when it cannot be measured for this record."""
    from akvo.coach.luck import match_luck  # the learned evaluation: loaded on first use

    try:
        luck = match_luck(record)
    except (ValueError, KeyError, TypeError):  # the engine's errors are ValueErrors
        return None
    adjusted = [luck.adjusted(side) for side in (0, 1)]
    if adjusted[0] is None or adjusted[1] is None:
        return None
    return min(1.0, max(0.0, adjusted[0])), min(1.0, max(0.0, adjusted[1]))


def bot_ratings(ladder: Mapping[str, Any], anchor: str = "greedy") -> dict[str, Rating]:
    """The bots' ratings from the ladder's Elo (``akvo ladder``: each level's Elo and its
    95 % interval relative to ``anchor``), ``anchor`` put at a newcomer's 1500; the
    deviation is the interval's half-width / 1.96. Glicko's scale is Elo's."""
    elo = ladder.get("elo", {})
    ratings = {}
    for name, value in elo.items():
        if not (isinstance(value, list) and len(value) == 3):
            continue
        middle, low, high = (float(v) for v in value)
        offset = float(elo.get(anchor, [0.0])[0])
        deviation = max(30.0, (high - low) / 2 / 1.96)  # the anchor's own: Glicko's floor
        ratings[name] = Rating(1500.0 + middle - offset, min(350.0, deviation))
    return ratings
