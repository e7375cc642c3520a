"""A bot forbidden to play some runes or Ultimes: the balance report's counterfactual.

To measure what a rune kind or an Ultime is worth to a side, the same bot plays the same
seeds without it (:mod:`akvo.lab.tournament`). :class:`Forbidding` wraps any bot: where the
bot picks a forbidden action, it is asked again on a copy of the position whose legal
actions leave the forbidden ones out (and whose forbidden Ultimes count as used, so that its
values do not count on them); if it still answers with something not allowed, the first
declining action (no rune, no Trident…) is played. Where the bot never picks a forbidden
action, the match is the very same: the dice are keyed by event (:mod:`akvo.match.streams`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Final

from akvo.errors import choose_among, did_you_mean, excerpt
from akvo.lab.coverage import RUNE_KINDS, ULTIMES
from akvo.lab.results import LabError
from akvo.match.actions import (
    ADVANCE,
    HOLD,
    NO_MOVE,
    NO_ROULEAU,
    NO_RUNE,
    NO_TRIDENT,
    ROULEAU,
    TRIDENT,
    ULTIME_ACTIONS,
)
from akvo.match.phases import (
    ACTIVATE,
    ATTACK_RUNE,
    DEFENCE_RUNE,
    PRE_SHOT,
)
from akvo.match.phases import (
    ADVANCE as ADVANCE_PHASE,
)
from akvo.match.state import MatchState

#: What can be forbidden: the rune kinds (the rune U too) and the Ultimes, named as in the
#: lab's per-match columns (``attaque``…, ``ultime_vigie``…).
FORBIDDABLE: Final = (*RUNE_KINDS, *(f"ultime_{name}" for name in ULTIMES))
_RUNE_PHASES: Final = (ATTACK_RUNE, DEFENCE_RUNE, PRE_SHOT, ADVANCE_PHASE)
_RUNE_PREFIXES: Final = ("rune ", "move ", "advance +")
_RUNE_U_PREFIX: Final = "rune U "
_SOUFFLE_SUFFIX: Final = " souffle"
_DECLINES: Final = (NO_RUNE, NO_MOVE, ADVANCE, NO_TRIDENT, NO_ROULEAU, HOLD)
_ULTIME_OF_ACTION: Final = {
    **{action: ULTIMES[char] for action, char in ULTIME_ACTIONS.items()},
    ROULEAU: "rouleau",
    TRIDENT: "trident",
}
_CHAR_OF_ULTIME: Final = {name: char for char, name in enumerate(ULTIMES)}


def check_forbidden(items: Iterable[str]) -> tuple[str, ...]:
    """``items`` as a sorted tuple of :data:`FORBIDDABLE` names (a clear error otherwise)."""
    if isinstance(items, str):
        items = (items,)
    out = []
    for item in items:
        if item not in FORBIDDABLE:
            hint = did_you_mean(item, FORBIDDABLE)
            raise LabError(
                f"cannot forbid {excerpt(item)}{choose_among(hint, ', '.join(FORBIDDABLE))}"
            )
        out.append(item)
    return tuple(item for item in FORBIDDABLE if item in out)  # in the report's order


def played(state: MatchState, action: str) -> str:
    """The :data:`FORBIDDABLE` item ``action`` plays at this decision, or ``""``."""
    phase = state.phase
    if phase in _RUNE_PHASES and action.startswith(_RUNE_PREFIXES):
        return RUNE_KINDS[state.rosters[state.player].category_of[action[-1]]]
    if phase == ACTIVATE and action.startswith(_RUNE_U_PREFIX):
        return "rune_u"
    if action.endswith(_SOUFFLE_SUFFIX):
        return "ultime_souffle"
    ultime = _ULTIME_OF_ACTION.get(action, "")
    return f"ultime_{ultime}" if ultime else ""


class Forbidding:
    """``bot`` that never plays the :data:`FORBIDDABLE` items named (see the module)."""

    __slots__ = ("bot", "forbidden", "ultimes")

    def __init__(self, bot: Callable[[MatchState], str], forbidden: Iterable[str]) -> None:
        self.bot = bot
        self.forbidden = frozenset(check_forbidden(forbidden))
        self.ultimes = [
            _CHAR_OF_ULTIME[item.removeprefix("ultime_")]
            for item in self.forbidden
            if item.startswith("ultime_")
        ]

    def allowed(self, state: MatchState, action: str) -> bool:
        return played(state, action) not in self.forbidden

    def __call__(self, state: MatchState) -> str:
        action = self.bot(state)
        if self.allowed(state, action):
            return action
        allowed = tuple(a for a in state.legal if self.allowed(state, a))
        decline = next((a for a in _DECLINES if a in allowed), allowed[0])
        if len(allowed) == 1:
            return decline
        probe = state.copy()
        probe.legal = allowed
        for char in self.ultimes:
            probe.ult_used[state.player] |= 1 << char
        try:
            again = self.bot(probe)
        except IndexError:  # a bot that expected an action the engine would have offered
            return decline
        return again if again in allowed else decline
