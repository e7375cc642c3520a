"""Which characters take each decision of a match: the people side of the engine's sides.

The engine asks a *side* to decide; at a table of 4 or 6 players (annex « Jeu en équipes »)
each player programs and activates only their own characters, so every decision belongs to
one or more characters and a player may take it when they hold one of them:

- activating a unit belongs to its character(s) (the ship to both central mages), an
  Ultime declared at activation to its holder, the rune U to the character whose Ultime it
  restores (it is that character's own rune or a bonus rune, R22);
- the ship's resolution order (Avancer/Tirer, Tirer/Tirer) is *joint*: both central mages;
- an advance belongs to the advancing unit; for the ship, a Mouvement rune belongs to the
  mage holding it (a bonus rune to either);
- a shot's steps (Mouvement before it, target, Souffle portant, attack rune, Rouleau)
  belong to the shooter, the defence rune to the defending mage, a Relance to the mage
  rolling, a prodige's recovery to the mage who rolled it, Trident to the Plongeur.

Orders (one engine action per side) are assembled from each player's part by
:mod:`akvo.online.table`. Readings beyond the annex, for a table without a referee: a
decision open to two players goes to the first who takes it; Souffle portant is chosen by
the shooter's player (the annex speaks only of the ship).
"""

from __future__ import annotations

from typing import Final

from akvo.match.actions import PARSED, Activate, DeclareUltime, PlayRune, RestoreUltime
from akvo.match.board import BARREUR, CHARS_OF_UNIT, LANCEUR, PLONGEUR, SHIP
from akvo.match.phases import (
    ACTIVATE,
    ADVANCE,
    ATTACK_RUNE,
    DEFENCE_RUNE,
    PRE_SHOT,
    PRODIGE,
    RELANCE,
    ROULEAU,
    SHIP_ORDER,
    TARGET,
    TRIDENT,
    TRIDENT_AGAIN,
)
from akvo.match.roster import BONUS
from akvo.match.state import MatchState

#: The ship's two mages.
CENTRAL: Final = frozenset((BARREUR, LANCEUR))
_SHOOTER_PHASES: Final = (PRE_SHOT, TARGET, ATTACK_RUNE, ROULEAU)


def is_joint(state: MatchState) -> bool:
    """True when the decision now is the ship's resolution order (both central mages)."""
    return state.phase == SHIP_ORDER


def action_characters(state: MatchState, action: str) -> frozenset[int]:
    """The characters (0–5) of the side to play, any of whose players may take ``action``,
    one of ``state.legal``."""
    phase = state.phase
    if phase == ACTIVATE:
        parsed = PARSED[action]
        if isinstance(parsed, Activate):
            return frozenset(CHARS_OF_UNIT[parsed.unit])
        if isinstance(parsed, DeclareUltime | RestoreUltime):
            return frozenset((parsed.character,))
        raise ValueError(f"not an activation: {action!r}")
    if phase == SHIP_ORDER:
        return CENTRAL
    if phase in (TRIDENT, TRIDENT_AGAIN):
        return frozenset((PLONGEUR,))
    if phase == ADVANCE:
        if state.unit != SHIP:
            return frozenset(CHARS_OF_UNIT[state.unit])
        parsed = PARSED[action]
        if isinstance(parsed, PlayRune):
            holder = state.rosters[state.side].holder_of[parsed.letter]
            return CENTRAL if holder == BONUS else frozenset((holder,))
        return CENTRAL
    shot = state.shot
    if shot is None:
        raise ValueError(f"no decision of a character at phase {state.phase_name()!r}")
    if phase in _SHOOTER_PHASES:
        return frozenset((shot.shooter,))
    if phase == DEFENCE_RUNE:
        return frozenset((shot.defender,))
    if phase == RELANCE:
        return frozenset((shot.shooter if shot.stage == 0 else shot.defender,))
    if phase == PRODIGE:
        return frozenset((shot.pending[0][1],))
    raise ValueError(f"no decision of a character at phase {state.phase_name()!r}")
