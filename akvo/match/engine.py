"""The engine's one table: for each phase, who decides, what is legal, what a decision does,
and the bookkeeping steps between resting phases.

=================  ============================  =================================
phase              legal actions / chance        decision / step
=================  ============================  =================================
weather            chance (:mod:`.weather`)      :func:`.flow.weather`
orders             :func:`.flow.legal_orders`    :func:`.flow.decide_orders`
activate           :func:`.flow.legal_activation`  :func:`.flow.decide_activation`
ship order         :func:`.flow.legal_ship_order`  :func:`.flow.decide_ship_order`
trident            :func:`.flow.legal_trident`   :func:`.flow.decide_trident`
advance            :func:`.flow.legal_advance`   :func:`.flow.decide_advance`
pre-shot … rouleau :mod:`.shooting`              :mod:`.shooting`, :mod:`.outcome`
roll, reroll       chance (:mod:`.chance`)       :func:`.shooting.rolled` / ``rerolled``
=================  ============================  =================================

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

#: phase → (legal actions, decision, deciding side) for decision phases.
DECISIONS: dict[Phase, tuple[Legal, Decide, Player]] = {
    Phase.ORDERS: (flow.legal_orders, flow.decide_orders, shooting.activating_side),
    Phase.ACTIVATE: (flow.legal_activation, flow.decide_activation, shooting.activating_side),
    Phase.SHIP_ORDER: (flow.legal_ship_order, flow.decide_ship_order, shooting.activating_side),
    Phase.TRIDENT: (flow.legal_trident, flow.decide_trident, shooting.activating_side),
    Phase.ADVANCE: (flow.legal_advance, flow.decide_advance, shooting.activating_side),
    Phase.PRE_SHOT: (shooting.legal_pre_shot, shooting.decide_pre_shot, shooting.shooter_side),
    Phase.TARGET: (shooting.legal_target, shooting.decide_target, shooting.shooter_side),
    Phase.ATTACK_RUNE: (
        shooting.legal_attack_rune,
        shooting.decide_attack_rune,
        shooting.shooter_side,
    ),
    Phase.DEFENCE_RUNE: (
        shooting.legal_defence_rune,
        shooting.decide_defence_rune,
        shooting.defender_side,
    ),
    Phase.RELANCE: (shooting.legal_relance, shooting.decide_relance, shooting.roller_side),
    Phase.PRODIGE: (shooting.legal_prodige, shooting.decide_prodige, shooting.prodige_side),
    Phase.ROULEAU: (shooting.legal_rouleau, shooting.decide_rouleau, shooting.shooter_side),
    Phase.TRIDENT_AGAIN: (
        shooting.legal_trident_again,
        shooting.decide_trident_again,
        shooting.activating_side,
    ),
}
#: internal phase → its bookkeeping step.
STEPS: dict[Phase, Step] = {
    Phase.START_TURN: flow.start_turn,
    Phase.NEXT_TASK: flow.next_task,
    Phase.END_ACTIVATION: flow.end_activation,
    Phase.END_TURN: flow.end_turn,
    Phase.AFTER_SHOT: shooting.after_shot,
}
CHANCE_PHASES: Final = (Phase.WEATHER, Phase.ROLL, Phase.REROLL)

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
