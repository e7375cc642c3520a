"""Driving a real engine match for the book's pages: scripted lines and quiet turns.

The pages never decide a rule: they feed actions to :mod:`akvo.match` and show what the
engine logged. Two kinds of drivers live here:

- :func:`play_line` applies a written list of actions (decisions and chance outcomes, such
  as ``"roll 6652"``) and returns the new log lines;
- :func:`quiet_action` picks, at any node, the action that changes nothing on the board
  (every order Tirer, no rune, no Ultime, every attack roll a miss), so that a turn can be
  played to its end without moving anyone — e.g. to let the engine itself decide who wins
  a position (R25).
"""

from __future__ import annotations

from collections.abc import Iterable

from akvo.errors import AkvoError
from akvo.match import MatchState

#: The orders of a quiet turn: all four lateral mages and both central mages shoot.
QUIET_ORDERS = "orders TTTT TT"
_QUIET_CHOICES = (
    QUIET_ORDERS,
    "no trident",
    "no move",
    "hold",
    "no rune",
    "keep",
    "no rouleau",
    "stop",
    "first barreur",
    "shot first",
    "advance",
)
#: Safety bound for loops that play until something happens (a turn has far fewer nodes).
MAX_STEPS = 2_000


class LineError(AkvoError):
    """A scripted line that the engine refuses (the message names the action)."""


def new_events(state: MatchState, before: int) -> list[str]:
    return list(state.events[before:])


def play_line(state: MatchState, actions: Iterable[str]) -> list[str]:
    """Apply ``actions`` in order (in place); the log lines they produced."""
    before = len(state.events)
    for action in actions:
        try:
            state.apply_action(action)
        except AkvoError as error:
            raise LineError(f"{action!r}: {error}") from error
    return new_events(state, before)


def missed_roll(state: MatchState) -> str:
    """A roll outcome of the current roll node whose total is as low as possible, without a
    prodige (all faces 1 but the last, a 2): an attack that always misses."""
    dice = len(state.chance_outcomes()[0][0].split()[1])
    return "roll " + "1" * (dice - 1) + "2" if dice > 1 else "roll 1"


def quiet_action(state: MatchState) -> str:
    """The action that leaves the position as it is (see the module docstring)."""
    if state.is_chance_node():
        first = state.chance_outcomes()[0][0]
        return first if first.startswith("weather") else missed_roll(state)
    legal = state.legal_actions()
    for choice in _QUIET_CHOICES:
        if choice in legal:
            return choice
    for prefix in ("activate ", "shoot "):
        for action in legal:
            if action.startswith(prefix) and not action.endswith("souffle"):
                return action
    return legal[0]


def play_quietly_to_the_end(state: MatchState) -> list[str]:
    """Play quiet turns (in place) until the match ends; the log lines produced."""
    before = len(state.events)
    for _ in range(MAX_STEPS * 4):
        if state.is_terminal():
            return new_events(state, before)
        state.apply_action(quiet_action(state))
    raise LineError("the match did not end")  # pragma: no cover - a bound, not a rule
