"""The engine's one table: for each phase, who decides, what is legal, what a decision does,
and the bookkeeping steps between resting phases.

Each decision phase ``X`` has ``legal_x`` (the legal actions) and ``decide_x`` (apply one)
in its module: :mod:`.flow` for the turn sequence (orders, activate, ship order, trident,
advance), :mod:`.shooting` for a shot (pre-shot, target, attack rune, defence rune, relance,
prodige, rouleau, trident again; the outcome is :mod:`.outcome`). Chance phases: the
weather (:mod:`.weather`, applied by :func:`.flow.weather`), a roll and a reroll
(:mod:`.chance`, applied by :func:`.shooting.rolled` / ``rerolled``).

:func:`settle` runs internal phases and plays every decision node that has a single legal
action (such *forced* nodes are not recorded in ``history``, so that a record replays the
same way; their effects are logged as usual, the choice itself is not). The legal-action
functions are pure look-ups, whatever the phase: only a decision (or ``settle`` playing a
forced one) changes the state.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from akvo.match import flow, shooting
from akvo.match.core import CHANCE, TERMINAL, StateCore
from akvo.match.phases import PHASE_COUNT, Phase
from akvo.match.weather import forced_weather

Legal = Callable[[StateCore], tuple[str, ...]]
Decide = Callable[[StateCore, str], None]
Player = Callable[[StateCore], int]
Step = Callable[[StateCore], None]

#: The decision phases of the turn sequence (:mod:`.flow`); the others are a shot's
#: (:mod:`.shooting`). Each phase ``X`` has ``legal_x`` and ``decide_x`` in its module.
TURN_DECISIONS: Final[tuple[Phase, ...]] = (
    Phase.ORDERS,
    Phase.ACTIVATE,
    Phase.SHIP_ORDER,
    Phase.TRIDENT,
    Phase.ADVANCE,
)
#: Who decides, by phase: the side activating, unless the shot's sides decide.
SHOT_DECIDERS: Final[dict[Phase, Player]] = {
    Phase.PRE_SHOT: shooting.shooter_side,
    Phase.TARGET: shooting.shooter_side,
    Phase.ATTACK_RUNE: shooting.shooter_side,
    Phase.DEFENCE_RUNE: shooting.defender_side,
    Phase.RELANCE: shooting.roller_side,
    Phase.PRODIGE: shooting.prodige_side,
    Phase.ROULEAU: shooting.shooter_side,
}
CHANCE_PHASES: Final[tuple[Phase, ...]] = (Phase.WEATHER, Phase.ROLL, Phase.REROLL)


def _decision(phase: Phase) -> tuple[Legal, Decide, Player]:
    module = flow if phase in TURN_DECISIONS else shooting
    name = phase.name.lower()
    player = SHOT_DECIDERS.get(phase, shooting.activating_side)
    return getattr(module, f"legal_{name}"), getattr(module, f"decide_{name}"), player


#: phase → (legal actions, decision, deciding side) for decision phases.
DECISIONS: dict[Phase, tuple[Legal, Decide, Player]] = {
    phase: _decision(phase)
    for phase in Phase
    if not phase.is_internal and phase not in CHANCE_PHASES and phase is not Phase.END
}
#: internal phase → its bookkeeping step.
STEPS: dict[Phase, Step] = {
    Phase.START_TURN: flow.start_turn,
    Phase.NEXT_TASK: flow.next_task,
    Phase.END_ACTIVATION: flow.end_activation,
    Phase.END_TURN: flow.end_turn,
    Phase.AFTER_SHOT: shooting.after_shot,
}
# Flat lists indexed by phase number for the hot loop.
_LEGAL: list[Legal | None] = [None] * PHASE_COUNT
_DECIDE: list[Decide | None] = [None] * PHASE_COUNT
_PLAYER: list[Player | None] = [None] * PHASE_COUNT
_STEP: list[Step | None] = [None] * PHASE_COUNT
for _phase, (_legal, _decide, _player) in DECISIONS.items():
    _LEGAL[_phase], _DECIDE[_phase], _PLAYER[_phase] = _legal, _decide, _player
for _phase, _step in STEPS.items():
    _STEP[_phase] = _step
_WEATHER, _END = Phase.WEATHER, Phase.END
#: The decision of each phase by number (None for chance and internal phases).
DECIDE: Final = _DECIDE


def decide(s: StateCore, action: str) -> None:
    """Apply a legal decision of the current phase (no check here)."""
    handler = _DECIDE[s.phase]
    assert handler is not None
    handler(s, action)


def settle(
    s: StateCore,
    _step_of: list[Step | None] = _STEP,
    _legal_of: list[Legal | None] = _LEGAL,
    _decide_of: list[Decide | None] = _DECIDE,
) -> None:
    """Run internal phases and forced single-action nodes until a real choice or chance
    (the tables are bound as locals: this loop runs after every action)."""
    while True:
        phase = s.phase
        step = _step_of[phase]
        if step is not None:
            step(s)
            continue
        legal_of = _legal_of[phase]
        if legal_of is None:
            if phase == _END:
                s.player = TERMINAL
            elif phase == _WEATHER and (forced := forced_weather(s.rules, s.bag)) >= 0:
                flow.weather(s, forced)  # one kind of token left: no chance
                continue
            else:
                s.player = CHANCE
            s.legal = ()
            return
        legal = legal_of(s)
        if len(legal) == 1:
            _decide_of[phase](s, legal[0])  # type: ignore[misc]
            continue
        s.player = _PLAYER[phase](s)  # type: ignore[misc]
        s.legal = legal
        return
