"""The lab's play loop and its dice-luck accounting, compiled with the engine.

:func:`play_out` plays a match to the end as :func:`akvo.match.decisions` does (chance from a
:class:`~akvo.match.streams.KeyedChance`, each decision from the side's bot) and, on the
way, notes which side activates first each turn and every roll's luck (:func:`roll_luck`).
It is in :data:`akvo.compiled.MODULES`: run interpreted beside the compiled engine, this
loop cost the lab's greedy matches about 4.6 M instructions each, 0.70× the reference's
speed (``benchmarks/results/lab-count.md``).

It imports nothing from the rest of :mod:`akvo.lab` (a compiled module's imports are part
of its build, and an edit to any of them would make the build stale): the stake weights
come from :mod:`akvo.lab.stats` through the :class:`Stakes` memo that
:mod:`akvo.lab.play` builds.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from akvo.match.board import CHEST, SIDE_NAMES
from akvo.match.chance import ROLLS
from akvo.match.core import CHANCE
from akvo.match.phases import ORDERS, REROLL, WEATHER
from akvo.match.shooting import can_intercept, roll_dice, roll_target
from akvo.match.state import MatchState
from akvo.match.streams import KeyedChance
from akvo.rules import CRITICAL_MARGIN

#: A roll's luck is counted in 1/1296 of a success: 1296 = 6**4, the rolls of four dice,
#: so that the chance of any roll is a whole number of units
#: (:data:`akvo.lab.results.LUCK_UNIT`).
LUCK_UNIT: Final = 1296
#: How many rolls ``count`` dice have (6**count), by count.
ROLL_COUNTS: Final[tuple[int, ...]] = tuple(max(1, len(rolls)) for rolls in ROLLS)
#: Each roll's (or rerolled die's) chance action → its count of dice and their sum.
_DICE: Final[dict[str, tuple[int, int]]] = {
    action: (len(faces), sum(faces)) for rolls in ROLLS for action, faces in rolls
}
#: ``_REACH[count][need]``: how many of the rolls of ``count`` dice sum to ``need`` or
#: more, for ``need`` from 0 to ``6 * count + 1`` (below: every roll; above: none).
_REACH: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(
        sum(1 for _, faces in ROLLS[count] if sum(faces) >= need) for need in range(6 * count + 2)
    )
    for count in range(len(ROLLS))
)

#: A roll's situation: at the chest, the stage (0 the shooter's roll), A's lead, the turn,
#: the shooting side, the rolls that parry, of how many, after a critical attack.
Situation = tuple[bool, int, int, int, int, int, int, bool]
#: :func:`akvo.lab.stats.roll_stakes` with its weights in whole units: a situation →
#: (first stake column, success's weight, critical's weight).
Weigh = Callable[[Situation], tuple[int, int, int]]
#: A bot: the decision at a state → its action.
Bot = Callable[[MatchState], object]


def reach(count: int, need: int) -> int:
    """How many of the 6**count rolls of ``count`` dice sum to ``need`` or more."""
    table = _REACH[count]
    return table[min(max(need, 0), len(table) - 1)]


def luck(count: int, need: int, total: int) -> int:
    """Reaching ``need`` with ``total`` or not (1 or 0) minus its chance with ``count`` dice,
    in 1/:data:`LUCK_UNIT`."""
    rolls = ROLL_COUNTS[count]
    return LUCK_UNIT // rolls * ((rolls if total >= need else 0) - reach(count, need))


class Stakes:
    """The stake weights of each roll's situation (:data:`Weigh`), each worked out once:
    a few hundred situations recur (keyed by one packed int, not a tuple of eight)."""

    def __init__(self, weigh: Weigh) -> None:
        self.weigh = weigh
        self.known: dict[int, tuple[int, int, int]] = {}

    def of(
        self,
        chest: bool,
        stage: int,
        lead: int,
        turn: int,
        shooter: int,
        parried: int,
        count: int,
        critical: bool,
    ) -> tuple[int, int, int]:
        """The weights of a roll; the parry's chance is ``parried`` of the rolls of
        ``count`` dice."""
        # Every field below its room (parried ≤ 1296, a count ≤ 4, a turn < 4096), the lead
        # (any sign) above them all: distinct situations, distinct keys.
        key = (
            ((lead * 4096 + turn) * 2048 + parried) * 64
            + count * 8
            + chest * 4
            + stage * 2
            + critical
        ) * 2 + shooter
        known = self.known.get(key)
        if known is None:
            rolls = ROLL_COUNTS[count]
            known = self.weigh((chest, stage, lead, turn, shooter, parried, rolls, critical))
            self.known[key] = known
        return known


def roll_luck(
    state: MatchState, chance: KeyedChance, luck_: list[int], stakes: list[int], table: Stakes
) -> None:
    """Draw and apply a roll (or reroll) from ``chance``; add its luck for the side that
    rolled to ``luck_`` (:data:`~akvo.lab.results.LUCK_COLUMNS` order; A's plus, B's
    minus), and to ``stakes`` the same luck times what the roll puts at stake
    (``table``, in millionths), weighed before the dice come."""
    shot = state.shot
    assert shot is not None  # a roll's chance node is inside a shot
    stage = shot.stage  # 0: the shooter rolls, 1: the defender
    sign = 1 if (shot.side == 0) == (stage == 0) else -1
    modifier, threshold = roll_target(state)
    need = threshold - modifier
    if state.phase == REROLL:  # the other dice stay: the new face must make up the rest
        dice = shot.dice
        need -= sum(dice) - dice[shot.relanced - 1]
    chest = shot.target == CHEST
    at = stage + (4 if chest else 0)  # a shot at a mage, then the chest
    attack = shot.attack
    critical = stage == 1 and attack is not None and attack.critical
    parried, count = 0, 0
    if stage == 0 and can_intercept(shot):
        # The defence or interception roll that the attack's success would bring: its
        # dice and target are set by then (runes, Résilience, distance), read ahead.
        count = roll_dice(state, 1)
        parry_modifier, parry_threshold = roll_target(state, 1)
        parried = reach(count, parry_threshold - parry_modifier)
    lead = state.scores[0] - state.scores[1]
    column, weight, weight_critical = table.of(
        chest, stage, lead, state.turn, shot.side, parried, count, critical
    )
    dice_count, total = _DICE[chance.apply(state)]
    success = luck(dice_count, need, total)
    critical_luck = luck(dice_count, need + CRITICAL_MARGIN, total)
    luck_[at] += sign * success
    luck_[at + 2] += sign * critical_luck
    stakes[column] += sign * weight * success
    stakes[column + 1] += sign * weight_critical * critical_luck


class Played:
    """What :func:`play_out` noted of a match besides its final state."""

    def __init__(self, favoured: str, edge: int, luck_: list[int], stakes: list[int]) -> None:
        #: The side activating first each turn ("A" or "B"), turn by turn.
        self.favoured = favoured
        #: Points of the side activating first minus the other's, summed over the turns.
        self.edge = edge
        #: The dice luck and the stake-weighted luck (:func:`roll_luck`).
        self.luck = luck_
        self.stakes = stakes


def play_out(
    state: MatchState,
    chance: KeyedChance,
    bots: Sequence[Bot],
    table: Stakes,
    luck_columns: int,
    stake_columns: int,
) -> Played:
    """Play ``state`` to its end: chance from ``chance``, each decision from the bot of the
    side to play (``bots[0]`` for A), every roll's luck counted (:func:`roll_luck`)."""
    favoured: list[str] = []
    edge = 0
    start_a, start_b = 0, 0
    luck_ = [0] * luck_columns
    stakes = [0] * stake_columns
    bot_a, bot_b = bots[0], bots[1]
    while True:
        player = state.player
        if player >= 0:
            if state.phase == ORDERS and state.side == 0:  # a new turn: weather is known
                scores = state.scores
                if favoured:
                    edge += _turn_edge(favoured[-1], start_a, start_b, scores)
                start_a, start_b = scores[0], scores[1]
                favoured.append(SIDE_NAMES[state.favoured])
            state.apply_action(bot_a(state) if player == 0 else bot_b(state))
        elif player == CHANCE:
            if state.phase == WEATHER:
                chance.apply(state)
            else:
                roll_luck(state, chance, luck_, stakes, table)
        else:
            break
    if favoured:
        edge += _turn_edge(favoured[-1], start_a, start_b, state.scores)
    return Played("".join(favoured), edge, luck_, stakes)


def _turn_edge(favoured: str, start_a: int, start_b: int, scores: list[int]) -> int:
    gained = (scores[0] - start_a) - (scores[1] - start_b)
    return gained if favoured == "A" else -gained
