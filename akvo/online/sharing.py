"""Who plays which characters at 2, 4 or 6 players (the rulebook's annex « Jeu en équipes »).

Not a rule of the engine (the engine plays sides, not people): the table arrangement of the
annex. Each side has 1, 2 or 3 players; its 6 characters are shared « aussi équitablement que
possible »; when the two central characters (Barreur and Lanceur, who share the ship) have
different players, those two decide the ship's double token and its resolution order
together. Used by the online tables (:mod:`akvo.online.table`) and the book's sharing widget.

A *split* maps each character to its player, numbered from 1 within the side.
"""

from __future__ import annotations

from collections.abc import Mapping

from akvo.errors import AkvoError, excerpt
from akvo.rules import CENTRAL_CHARACTERS, CHARACTERS, Character

#: Players at a table, and so players per side (1, 2 or 3).
PLAYER_COUNTS = (2, 4, 6)

Split = Mapping[Character, int]


class SharingError(AkvoError):
    """A sharing of characters that the annex does not allow (names the problem)."""


def default_split(per_side: int) -> dict[Character, int]:
    """Characters dealt in lane order, the same number to each player (1-based players)."""
    if per_side not in (1, 2, 3):
        raise SharingError(f"a side has 1, 2 or 3 players, got {excerpt(per_side)}")
    size = len(CHARACTERS) // per_side
    return {ch: index // size + 1 for index, ch in enumerate(CHARACTERS)}


def player_counts(split: Split, per_side: int) -> list[int]:
    """How many characters each player holds, players 1…``per_side`` in order."""
    return [sum(1 for p in split.values() if p == player) for player in range(1, per_side + 1)]


def is_even(split: Split, per_side: int) -> bool:
    """True when no player holds two characters more than another (the annex's « aussi
    équitablement que possible »)."""
    counts = player_counts(split, per_side)
    return max(counts) - min(counts) <= 1


def ship_holders(split: Split) -> tuple[int, int]:
    """The players of the Barreur and of the Lanceur (the ship's two mages)."""
    barreur, lanceur = (split[ch] for ch in CENTRAL_CHARACTERS)
    return barreur, lanceur


def ship_shared(split: Split) -> bool:
    """True when the ship's two mages have different players, who then decide its double
    token and its resolution order together."""
    barreur, lanceur = ship_holders(split)
    return barreur != lanceur


def check_split(split: object, per_side: int) -> dict[Character, int]:
    """``split`` checked for a side of ``per_side`` players: every character has a player
    between 1 and ``per_side``, every player has a character, the sharing is even."""
    if not isinstance(split, Mapping) or set(split) != set(CHARACTERS):
        raise SharingError(
            f"a sharing gives a player to each of the 6 characters, got {excerpt(split)}"
        )
    checked: dict[Character, int] = {}
    for ch in CHARACTERS:
        player = split[ch]
        if isinstance(player, bool) or not isinstance(player, int) or not 1 <= player <= per_side:
            raise SharingError(f"{ch.label}: the player is 1 to {per_side}, got {excerpt(player)}")
        checked[ch] = player
    counts = player_counts(checked, per_side)
    if min(counts) == 0:
        raise SharingError(f"player {counts.index(0) + 1} has no character")
    if not is_even(checked, per_side):
        raise SharingError(f"the characters are not shared evenly: {counts} per player")
    return checked
