"""The six Ultimes (R24) and the rune U (R22), each in one place.

=================  ==============  ====================================================
Ultime             holder          behaviour (functions below)
=================  ==============  ====================================================
Souffle portant    Pédalair        an allied shot's distance −2, min. 1 (``souffle_*``;
                                   the arithmetic is :func:`akvo.resolution.souffle_distance`)
Tourbillon         Kitesurfeur     turn-long: its opponents roll one die fewer
                                   (``tourbillon_on``; :func:`akvo.resolution.attack_dice`)
Égide              Barreur         turn-long: +1 to allied defence / interception (``egide_on``)
Vigie              Lanceur         turn-long: +1 to allied attacks (``vigie_on``)
Rouleau            Surfeur         after pushing the enemy Surfeur: advance 1 (``rouleau_*``)
Trident            Plongeur        up to :data:`~akvo.resolution.TRIDENT_SHOTS` shots at mages
                                   in one activation (``trident_*``)
rune U             its holder      makes a used Ultime available again (``restore_ultime``)
=================  ==============  ====================================================

An Ultime is used once per match (``ult_used`` bit), unless the rune U restores it.
Adding an Ultime means a row here, its key in :data:`akvo.match.board.ULTIME_KEYS` (derived
from :mod:`akvo.rules`) and its hook in the phase that triggers it.
"""

from __future__ import annotations

from typing import Final

from akvo.config import RulesConfig
from akvo.match import log
from akvo.match.board import (
    BARREUR,
    CHARS,
    KITESURFEUR,
    LANCEUR,
    PEDALAIR,
    PLONGEUR,
    SIDE_NAMES,
    SURFEUR,
    UNIT_OF_CHAR,
)
from akvo.match.core import Shot, StateCore, rule_played
from akvo.match.geometry import advance
from akvo.match.roster import MOUVEMENT, RUNE_U, ULTIME, letter_bit
from akvo.match.schema import (
    EFFECT_EGIDE,
    EFFECT_TOURBILLON,
    EFFECT_VIGIE,
    RUNE_KINDS,
    USES_RUNES,
)
from akvo.resolution import TRIDENT_SHOTS, souffle_distance

#: Rouleau's advance (R24), without a Mouvement rune.
ROULEAU_CELLS: Final = 1

#: The turn-long effect bit of each Ultime declared at activation, by its holder.
EFFECT_OF_CHAR: Final = {
    KITESURFEUR: EFFECT_TOURBILLON,
    BARREUR: EFFECT_EGIDE,
    LANCEUR: EFFECT_VIGIE,
}


def ultime_free(s: StateCore, side: int, char: int) -> bool:
    return not s.ult_used[side] >> char & 1


def use_ultime(s: StateCore, side: int, char: int) -> None:
    s.ult_used[side] |= 1 << char
    s.ult_uses[side * CHARS + char] += 1


# --- Tourbillon, Égide, Vigie: declared at activation, active until the end of the turn ----
def declare_turn_ultime(s: StateCore, side: int, char: int) -> None:
    use_ultime(s, side, char)
    s.effects[side] |= EFFECT_OF_CHAR[char]
    if s.log:
        s.events.append(
            log.prefix(s.turn)
            + f"{log.mage(side, char)} déclare {log.ULTIME_NAMES[char]} jusqu'à la fin du tour."
        )


def tourbillon_on(s: StateCore, side: int, char: int) -> bool:
    """R24: this side's mage is the Kitesurfeur and its Tourbillon is active."""
    return char == KITESURFEUR and bool(s.effects[side] & EFFECT_TOURBILLON)


def egide_on(s: StateCore, side: int) -> bool:
    return bool(s.effects[side] & EFFECT_EGIDE)


def vigie_on(s: StateCore, side: int) -> bool:
    return bool(s.effects[side] & EFFECT_VIGIE)


# --- Souffle portant: chosen with the target -----------------------------------------------
def souffle_available(s: StateCore, side: int) -> bool:
    return ultime_free(s, side, PEDALAIR)


def use_souffle(s: StateCore, shot: Shot, distance: int) -> int:
    """Declare Souffle portant on this shot; returns the shortened distance."""
    use_ultime(s, shot.side, PEDALAIR)
    distance = souffle_distance(distance)
    shot.souffle = True
    if s.log:
        s.events.append(
            log.prefix(s.turn)
            + f"{log.mage(shot.side, PEDALAIR)} déclare Souffle portant : distance de tir "
            f"{distance}."
        )
    return distance


# --- Rouleau: after the Surfeur pushed the enemy Surfeur ------------------------------------
def rouleau_offered(s: StateCore, shot: Shot, moved: int) -> bool:
    """Reading: the enemy Surfeur must actually have moved at least 1 cell."""
    return (
        shot.shooter == SURFEUR
        and shot.target == SURFEUR
        and moved >= 1
        and ultime_free(s, shot.side, SURFEUR)
    )


def rouleau_mouvement(rules: RulesConfig) -> bool:
    """R20 variant ``rouleau_mouvement``: a Mouvement rune may be played on Rouleau's advance."""
    return rules.rouleau_mouvement == "plus_one"


def declare_rouleau(s: StateCore, side: int, rune: str = "") -> None:
    """Rouleau: the Surfeur advances 1 cell, 2 with a Mouvement ``rune`` (already spent)."""
    use_ultime(s, side, SURFEUR)
    cells = 2 if rune else ROULEAU_CELLS
    moved = advance(s.rows, side, UNIT_OF_CHAR[SURFEUR], cells)
    if s.log:
        played = f", {log.rune_played(rune, MOUVEMENT)}" if rune else ""
        how = f"avance de {log.cells(moved)}" if moved else "ne peut pas avancer"
        s.events.append(
            log.prefix(s.turn) + f"{log.mage(side, SURFEUR)} déclare Rouleau{played} et {how}."
        )


# --- Trident: the Plongeur's activation with Tirer -----------------------------------------
def trident_offered(s: StateCore, side: int, unit: int) -> bool:
    return unit == UNIT_OF_CHAR[PLONGEUR] and ultime_free(s, side, PLONGEUR)


def declare_trident(s: StateCore, side: int) -> None:
    use_ultime(s, side, PLONGEUR)
    s.trident = True
    if s.log:
        s.events.append(
            log.prefix(s.turn)
            + f"{log.mage(side, PLONGEUR)} déclare Trident : jusqu'à {TRIDENT_SHOTS} tirs."
        )


def trident_continues(s: StateCore) -> bool:
    """Another shot is offered while Trident is on and fewer than three were taken."""
    return s.trident and s.shots_done < TRIDENT_SHOTS


# --- the rune U (R22) ----------------------------------------------------------------------
def rune_u_restores(rules: RulesConfig) -> bool:
    return rules.rune_u == "restores_ultime"


def restore_ultime(s: StateCore, side: int, char: int) -> None:
    s.spent[side] |= letter_bit(RUNE_U)
    s.runes_spent_count[side] += 1
    s.uses[USES_RUNES + side * RUNE_KINDS + ULTIME] += 1
    rule_played(s, "rune_u")  # R22: played only where it restores an Ultime
    s.ult_used[side] &= ~(1 << char)
    if s.log:
        s.events.append(
            log.prefix(s.turn) + f"{SIDE_NAMES[side]} joue la rune U : {log.ULTIME_NAMES[char]} "
            f"({log.mage(side, char)}) redevient disponible."
        )
