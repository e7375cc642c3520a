"""Shared helpers of the match tests: scripted play, seeded random play, spent-everything
positions."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from akvo.match import MatchState, new_match
from akvo.match.scenario import scenario

ALL = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
EVERY_ULTIME = ["pedalair", "kitesurfeur", "barreur", "lanceur", "surfeur", "plongeur"]


def play(state: MatchState, *actions: str) -> MatchState:
    """Apply scripted actions (decisions and chance outcomes) in order."""
    for action in actions:
        state.apply_action(action)
    return state


def play_random(
    state: MatchState, seed: int, stop: Callable[[MatchState], bool] | None = None
) -> MatchState:
    """Seeded uniform random play until ``stop(state)`` holds, or to the end of the match."""
    rng = random.Random(seed)
    while stop is None or not stop(state):
        if state.is_terminal():
            assert stop is None, "the match ended before the wanted node"
            break
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def play_step(
    state: MatchState,
    bots: Sequence[Callable[[MatchState], str]],
    chance: Callable[[MatchState], object],
) -> None:
    """One node of a match between bots: ``chance(state)`` at a chance node (the dice as the
    test draws them), else the bot of the player to move decides."""
    if state.is_chance_node():
        chance(state)
    else:
        state.apply_action(bots[state.current_player](state))


def bare(
    keep: dict[str, str] | None = None,
    ultimes: dict[str, list[str]] | None = None,
    **setup: Any,
) -> MatchState:
    """A scenario where every rune is spent but ``keep``'s letters and every Ultime is used
    but ``ultimes``' characters, so that only the orders, targets and dice matter."""
    keep = keep or {}
    ultimes = ultimes or {}
    spent = {side: "".join(c for c in ALL if c not in keep.get(side, "")) for side in "AB"}
    used = {side: [c for c in EVERY_ULTIME if c not in ultimes.get(side, [])] for side in "AB"}
    return scenario(spent=spent, ultimes_used=used, **setup)


def b_programs_after(a_orders: str) -> MatchState:
    """Turn 1 (seeded weather), A has programmed ``a_orders`` (hidden from B), B to program:
    the bots' tests compare two such states that differ only by A's hidden orders, and a
    bot that answers them differently peeks."""
    rng = random.Random(8)
    state = new_match()
    while state.is_chance_node():
        state.apply_action(state.sample_chance(rng))
    state.apply_action(a_orders)
    return state
