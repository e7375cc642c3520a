"""The engine's phases: where a match can rest, and the bookkeeping steps between them.

A *resting* phase waits for a decision (``legal_actions``) or a chance outcome; an
*internal* phase is bookkeeping that :func:`akvo.match.engine.settle` runs at once. The
table from each phase to its legal-action, decision and player functions is in
:mod:`akvo.match.engine`. Numbers are stable: saved states store them.
"""

from __future__ import annotations

import enum
from typing import Final


class Phase(enum.IntEnum):
    """Every phase, with a unique human-readable :attr:`label` (``state.phase_name()``)."""

    WEATHER = 0  # chance: the weather token (R8)
    ORDERS = 1  # each side programs its orders in secret (R9)
    ACTIVATE = 2  # a side activates a unit, declares an Ultime or plays the rune U
    SHIP_ORDER = 3  # the ship's double token: which task first
    TRIDENT = 4  # the Plongeur may declare Trident (R24)
    ADVANCE = 5  # an Avancer step, optionally with a Mouvement rune
    PRE_SHOT = 6  # a Mouvement rune before a shot
    TARGET = 7  # the shooter chooses a target (Souffle portant)
    ATTACK_RUNE = 8  # the attacker's rune (R18)
    DEFENCE_RUNE = 9  # the defender's rune (R18)
    ROLL = 10  # chance: one roll's dice
    RELANCE = 11  # the roller keeps the dice or rerolls one (R15)
    REROLL = 12  # chance: the rerolled die
    PRODIGE = 13  # a prodige takes back a spent rune (R23)
    ROULEAU = 14  # the Surfeur may declare Rouleau (R24)
    TRIDENT_AGAIN = 15  # the Plongeur may shoot again under Trident
    END = 16  # the match is over
    START_TURN = 20  # internal: the lighthouse moves
    NEXT_TASK = 21  # internal: the activation's next task
    END_ACTIVATION = 22  # internal: the other side's turn to activate (R9)
    END_TURN = 23  # internal: scores, tie-break turns, end of match (R25)
    AFTER_SHOT = 24  # internal: prodiges, Rouleau and Trident after a shot

    @property
    def label(self) -> str:
        return LABELS[self]

    @property
    def is_internal(self) -> bool:
        return self >= Phase.START_TURN


LABELS: dict[Phase, str] = {
    Phase.WEATHER: "weather",
    Phase.ORDERS: "orders",
    Phase.ACTIVATE: "activate",
    Phase.SHIP_ORDER: "ship order",
    Phase.TRIDENT: "trident",
    Phase.ADVANCE: "advance",
    Phase.PRE_SHOT: "pre-shot",
    Phase.TARGET: "target",
    Phase.ATTACK_RUNE: "attack rune",
    Phase.DEFENCE_RUNE: "defence rune",
    Phase.ROLL: "roll",
    Phase.RELANCE: "relance",
    Phase.REROLL: "reroll",
    Phase.PRODIGE: "prodige",
    Phase.ROULEAU: "rouleau",
    Phase.TRIDENT_AGAIN: "trident again",
    Phase.END: "end",
    Phase.START_TURN: "start of turn",
    Phase.NEXT_TASK: "next task",
    Phase.END_ACTIVATION: "end of activation",
    Phase.END_TURN: "end of turn",
    Phase.AFTER_SHOT: "after shot",
}
PHASE_OF_LABEL: Final = {label: phase for phase, label in LABELS.items()}
RESTING: Final = tuple(p for p in Phase if not p.is_internal)
PHASE_COUNT: Final = max(Phase) + 1

# Plain ints for the engine's hot paths: ``state.phase`` holds one (an int compares and
# indexes faster than an IntEnum member); ``state.phase_enum`` gives the Phase.
WEATHER: Final = int(Phase.WEATHER)
ORDERS: Final = int(Phase.ORDERS)
ACTIVATE: Final = int(Phase.ACTIVATE)
SHIP_ORDER: Final = int(Phase.SHIP_ORDER)
TRIDENT: Final = int(Phase.TRIDENT)
ADVANCE: Final = int(Phase.ADVANCE)
PRE_SHOT: Final = int(Phase.PRE_SHOT)
TARGET: Final = int(Phase.TARGET)
ATTACK_RUNE: Final = int(Phase.ATTACK_RUNE)
DEFENCE_RUNE: Final = int(Phase.DEFENCE_RUNE)
ROLL: Final = int(Phase.ROLL)
RELANCE: Final = int(Phase.RELANCE)
REROLL: Final = int(Phase.REROLL)
PRODIGE: Final = int(Phase.PRODIGE)
ROULEAU: Final = int(Phase.ROULEAU)
TRIDENT_AGAIN: Final = int(Phase.TRIDENT_AGAIN)
END: Final = int(Phase.END)
START_TURN: Final = int(Phase.START_TURN)
NEXT_TASK: Final = int(Phase.NEXT_TASK)
END_ACTIVATION: Final = int(Phase.END_ACTIVATION)
END_TURN: Final = int(Phase.END_TURN)
AFTER_SHOT: Final = int(Phase.AFTER_SHOT)
