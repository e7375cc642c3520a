"""The highest score one side can reach in a match (R26), played out by the engine.

Upper bound, for side A (B is symmetric). Points come only from chest captures, at most 2
each (a critical attack whose interception fails, R17, R26). A mage shoots at most once a
turn (a lateral Tirer token, one of the ship's Tirer/Tirer; Trident's extra shots hit mages
only, R24): at most 6 captures, 12 points a turn. In turn 1 A's units stand on row 3,
chest distance 6 (R2, R5), and a unit that shoots moves at most 1 cell first (Mouvement,
R20), before each shot for the ship: only the ship's second shot reaches distance 4, every
other capture needs Souffle portant (−2, R24). Souffle portant serves once, twice if the
rune U makes it available again (R22: U held by the Pédalair, or a bonus U as the engine
reads it; U is spent once and no prodige recovers it, R23). So turn 1 gives at most
2 × 3 = 6 points (4 when U cannot restore Souffle portant) and turn 8 ends at most at
6 + 7 × 12 = 90 (88). A tie after turn 8 (R25) adds at most 24 points to a score S that
B holds too; but in a turn both sides capture in the same lateral lane only with Souffle
portant (the later shooter starts its activation out of range and moves 1 cell at most,
units never cross, R10–R11), and both ships together capture at most 3 times without it,
so 2S ≤ 2 × (8 × 7 + 4 Souffle portant uses): S ≤ 60 and a tie-break ends at most at 84.

The line reaching the bound (:func:`highest_score_line`): B cooperates — Tirer everywhere,
so it never blocks, and every B roll is 1 1 1 2 (5: its shots miss, its interceptions
fail); A rolls 6 6 6 6 on every shot (24: a critical at every tier and distance, and a
prodige that takes back a spent Mouvement rune, R23). Turn 1: the ship shoots twice
(Mouvement + Souffle portant from row 4, then Mouvement to row 5); when U restores Souffle
portant, the Pédalair shoots too (Mouvement + Souffle portant); the lateral units that do
not shoot advance 2 cells (Avancer + Mouvement). Turns 2–8: every A mage captures from
row 5, chest distance 4, next to B's units on row 6: 12 points a turn.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from akvo.config import DEFAULT_RULES, RulesConfig
from akvo.errors import IllegalAction
from akvo.match.actions import PARSED, RUNE_LETTER, ShootAt
from akvo.match.board import CHAR_NAMES, CHEST, PEDALAIR, SIDE_NAMES, UNIT_NAMES, UNIT_OF_CHAR
from akvo.match.geometry import chest_distance, in_range
from akvo.match.phases import Phase
from akvo.match.scenario import apply_setup
from akvo.match.state import MatchState, new_match
from akvo.rules import CHARACTERS, TURNS
from akvo.teams import Team, parse_team, preset_team

__all__ = [
    "BONUS_U_TEAM",
    "PEDALAIR_U_TEAM",
    "HighestScore",
    "highest_score",
    "highest_score_bound",
    "highest_score_line",
    "points_per_turn",
    "souffle_portant_twice",
]

PEDALAIR_U_TEAM = parse_team(
    "UEGS/VLNF/JACK/ZBIM/PYTH/DROX+QW", name="Perrockiss, rune U au Pédalair"
)
"""Perrockiss with the Pédalair's L and the Kitesurfeur's U swapped (valid under R27)."""

BONUS_U_TEAM = parse_team("LEGS/VQNF/JACK/ZBIM/PYTH/DROX+UW", name="Perrockiss, rune U en bonus")
"""Perrockiss with the Kitesurfeur's U and the bonus Q swapped (valid under R27)."""

POINTS_PER_CAPTURE = 2  # a critical attack whose interception fails (R17)
SHOTS_PER_TURN = 6  # one per mage: four lateral Tirer tokens and the ship's Tirer/Tirer
A_ROLL = "roll 6666"  # 24: a critical at every tier and distance, and a prodige (R13, R23)
B_ROLL = "roll 1112"  # 5: below every attack and interception threshold, no prodige
SHOOTING_ROW = 5  # A's row next to B's units (row 6, R2): chest distance 4 (R5)
_ACTIVATION_ORDER = ("navire", "pedalair", "kitesurfeur", "surfeur", "plongeur")


def souffle_portant_twice(team: Team, rules: RulesConfig = DEFAULT_RULES) -> bool:
    """Whether the rune U can make Souffle portant available again (R22)."""
    return rules.rune_u == "restores_ultime" and team.holder("U") in (None, CHARACTERS[PEDALAIR])


def highest_score_bound(team: Team | str, rules: RulesConfig = DEFAULT_RULES) -> int:
    """The upper bound of the module docstring: 90, or 88 when U cannot restore Souffle.

    A bound for every team; :func:`highest_score_line` reaches it when the team's Mouvement
    runes cover the line (not for Fish Tank, whose Pédalair and Kitesurfeur have none).
    """
    team = preset_team(team) if isinstance(team, str) else team
    turn_one_captures = 1 + (2 if souffle_portant_twice(team, rules) else 1)
    later = (len(TURNS) - 1) * SHOTS_PER_TURN
    return POINTS_PER_CAPTURE * (turn_one_captures + later)


def _with_mouvement(legal: tuple[str, ...], who: str, turn: int) -> str:
    """The first Mouvement rune on offer (the mage's own, then the bonus ones), or raise."""
    offered = [a for a in legal if a in RUNE_LETTER]
    if not offered:
        raise IllegalAction(
            f"the highest-score line needs a Mouvement rune for the {who} at turn {turn}; "
            f"legal: {', '.join(legal)}"
        )
    return offered[0]


class _Line:
    """The scripted decisions: each node's wanted action, checked against the legal ones."""

    def __init__(self, team: Team, rules: RulesConfig) -> None:
        self.twice = souffle_portant_twice(team, rules)

    def chance(self, state: MatchState) -> str:
        outcomes = dict(state.chance_outcomes())
        if state.phase == Phase.WEATHER:
            # Alternate the favoured side, so that the R8 bag never runs dry of the wanted one.
            wanted = "weather A" if state.turn % 2 else "weather B"
            return wanted if wanted in outcomes else next(iter(outcomes))
        shot = state.shot
        assert shot is not None
        roller = shot.side if shot.stage == 0 else 1 - shot.side
        return A_ROLL if roller == 0 else B_ROLL

    def decision(self, state: MatchState) -> str:
        side = state.current_player
        phase = state.phase_enum
        legal = state.legal_actions()
        if phase is Phase.ORDERS:
            if side == 1 or state.turn > 1:
                return "orders TTTT TT"
            # Turn 1: the ship shoots twice; the Pédalair shoots only if Souffle comes back.
            return "orders TAAA TT" if self.twice else "orders AAAA TT"
        if phase is Phase.ACTIVATE:
            if side == 0 and "rune U pedalair" in legal and "activate pedalair" in legal:
                return "rune U pedalair"
            return next(f"activate {u}" for u in _ACTIVATION_ORDER if f"activate {u}" in legal)
        if phase is Phase.SHIP_ORDER:
            return "first barreur"
        if phase is Phase.TRIDENT:
            return "no trident"
        if side == 1:
            return self._cooperative_b(phase, legal)
        if phase is Phase.ADVANCE:  # turn 1 only: Avancer + Mouvement, 2 cells (R20)
            return _with_mouvement(legal, UNIT_NAMES[state.unit], state.turn)
        if phase in (Phase.ATTACK_RUNE, Phase.DEFENCE_RUNE):
            return "no rune"
        if phase is Phase.PRODIGE:
            return legal[0]  # any spent rune: the line only spends Mouvement runes (and U)
        shot = state.shot
        assert shot is not None
        row = state.rows[UNIT_OF_CHAR[shot.shooter]]
        if phase is Phase.PRE_SHOT:
            if row >= SHOOTING_ROW:
                return "no move"
            return _with_mouvement(legal, CHAR_NAMES[shot.shooter], state.turn)
        if phase is Phase.TARGET:
            return "shoot chest" if in_range(chest_distance(0, row)) else "shoot chest souffle"
        raise IllegalAction(f"the highest-score line has no decision for phase {phase.label!r}")

    @staticmethod
    def _cooperative_b(phase: Phase, legal: tuple[str, ...]) -> str:
        """B never moves, never plays a rune and shoots (and misses) a mage."""
        if phase is Phase.TARGET:
            aims = [(a, PARSED[a]) for a in legal]
            plain = [a for a, aim in aims if isinstance(aim, ShootAt) and not aim.souffle]
            mages = [a for a, aim in aims if isinstance(aim, ShootAt) and aim.target != CHEST]
            return (mages or plain or ["hold"])[0]  # the roll misses whatever the target
        if phase is Phase.PRE_SHOT:
            return "no move"
        if phase in (Phase.ATTACK_RUNE, Phase.DEFENCE_RUNE):
            return "no rune"
        if phase is Phase.PRODIGE:
            return legal[0]
        raise IllegalAction(f"the highest-score line has no B decision for phase {phase.label!r}")


def highest_score_line(
    team_a: Team | str = PEDALAIR_U_TEAM,
    team_b: Team | str = "fish-tank",
    rules: RulesConfig = DEFAULT_RULES,
) -> MatchState:
    """Play the line of the module docstring to the end of the match and return the state.

    Every scripted decision must be legal (else :class:`~akvo.errors.IllegalAction`); with
    a team whose rune U restores Souffle portant A scores 90, else 88
    (:func:`highest_score_bound`).
    """
    state = new_match(team_a, team_b, rules)
    line = _Line(state.teams[0], rules)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(line.chance(state))
            continue
        action = line.decision(state)
        if action not in state.legal_actions():
            raise IllegalAction(
                f"the highest-score line wants {action!r} at turn {state.turn} "
                f"({state.phase_name()}), legal: {', '.join(state.legal_actions())}"
            )
        state.apply_action(action)
    return state


def points_per_turn(state: MatchState, side: int | str = 0) -> tuple[int, ...]:
    """Points a side scored in each turn played, by replaying the state's record.

    The first entry is the record's first turn (1, or a scenario's turn); the last is the
    turn in progress when the match is not over.
    """
    index = side if isinstance(side, int) else SIDE_NAMES.index(side)
    record = state.record()
    again = MatchState(state.teams[0], state.teams[1], state.rules)
    if record["setup"]:
        apply_setup(again, record["setup"])
    totals = [again.scores[index]]
    turn = again.turn
    for action in record["actions"]:
        again.apply_action(action)
        if again.turn != turn:  # the action ended a turn: its points are final
            totals.append(again.scores[index])
            turn = again.turn
    totals.append(again.scores[index])
    return tuple(b - a for a, b in itertools.pairwise(totals))


@dataclass(frozen=True, slots=True)
class HighestScore:
    """The line's outcome, for the book: computed by the engine, never typed."""

    team: str  # the team's name (or its list)
    team_list: str  # e.g. "UEGS/VLNF/JACK/ZBIM/PYTH/DROX+QW"
    total: int
    per_turn: tuple[int, ...]
    opponent: int
    result: str
    bound: int


def highest_score(
    team_a: Team | str = PEDALAIR_U_TEAM,
    team_b: Team | str = "fish-tank",
    rules: RulesConfig = DEFAULT_RULES,
) -> HighestScore:
    """Play :func:`highest_score_line` and sum it up (total, points per turn, bound)."""
    state = highest_score_line(team_a, team_b, rules)
    team = state.teams[0]
    return HighestScore(
        team=team.name or str(team),
        team_list=str(team),
        total=state.scores[0],
        per_turn=points_per_turn(state, 0),
        opponent=state.scores[1],
        result=state.result or "",
        bound=highest_score_bound(team, rules),
    )
