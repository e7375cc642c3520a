"""Rune duels: which rune should each side play in one shot?

For one situation, every attacker option (no rune, Attaque, Confusion, Relance) meets every
defender option (no rune, Défense, Confusion, Relance); the payoff is P(push) for a mage
shot or expected points for a chest shot (attacker maximises, defender minimises). Runes
are priced at nothing here: that a played rune is spent (R21) is the player's concern.

Two readings of the duel are given: the zero-sum game with simultaneous, secret choices
(mixed strategies by linear programming), and R18's actual order — the attacker declares
first, the defender answers knowing it — whose value is the attacker's pure maximin.
scipy is imported only when a duel is solved, so that ``import akvo`` stays light.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache

from akvo.config import DEFAULT_RULES, RulesConfig
from akvo.errors import ShotError
from akvo.shots import (
    ATTACK_RUNES,
    DEFENCE_RUNES,
    NO_SIDE,
    RuneChoice,
    ShotKind,
    Side,
    shot,
    shot_on_chest,
)

ATTACK_OPTIONS: tuple[RuneChoice, ...] = ATTACK_RUNES
DEFENCE_OPTIONS: tuple[RuneChoice, ...] = DEFENCE_RUNES
#: Options when a chest shot cannot be intercepted: only the attack roll remains, so only
#: the runes acting on it (R17, R20): no Confusion for the attacker, nothing but Confusion
#: for the defender.
UNINTERCEPTED_ATTACK_OPTIONS: tuple[RuneChoice, ...] = tuple(
    r for r in ATTACK_RUNES if r != "confusion"
)
UNINTERCEPTED_DEFENCE_OPTIONS: tuple[RuneChoice, ...] = (None, "confusion")

Matrix = tuple[tuple[Fraction, ...], ...]


@dataclass(frozen=True, slots=True)
class RuneDuel:
    """Payoff matrix of a rune duel, with best responses and both game values."""

    kind: ShotKind
    attacker_options: tuple[RuneChoice, ...]
    defender_options: tuple[RuneChoice, ...]
    payoff: Matrix  # payoff[i_attacker][j_defender]; the attacker maximises
    attacker_best_response: tuple[int, ...]  # for each defender option j, best attacker i
    defender_best_response: tuple[int, ...]  # for each attacker option i, best defender j
    value: float  # value of the zero-sum game in mixed strategies
    attacker_strategy: tuple[float, ...]
    defender_strategy: tuple[float, ...]
    sequential_value: Fraction  # R18: the attacker declares first, the defender responds
    sequential_attacker_choice: int

    @property
    def pure_maximin(self) -> Fraction:
        """What the attacker guarantees with one rune announced first (= sequential value)."""
        return max(min(row) for row in self.payoff)

    @property
    def pure_minimax(self) -> Fraction:
        """What the defender guarantees with one rune announced first."""
        columns: list[tuple[Fraction, ...]] = list(zip(*self.payoff, strict=True))
        return min(max(column) for column in columns)


def _argmax(values: list[Fraction]) -> int:
    return max(range(len(values)), key=lambda i: (values[i], -i))


def _argmin(values: list[Fraction]) -> int:
    return min(range(len(values)), key=lambda i: (values[i], i))


@lru_cache(maxsize=4096)
def solve_zero_sum(payoff: Matrix) -> tuple[float, tuple[float, ...], tuple[float, ...]]:
    """(value, row strategy, column strategy) of the zero-sum game where rows maximise.

    Two linear programs (scipy HiGHS): rows maximise v with Σ x_i A_ij ≥ v for every j;
    columns minimise w with Σ y_j A_ij ≤ w for every i. Cached by matrix: the solver is
    ~85 % of a duel once the shots are cached (a calculator's control moving back and
    forth re-asks the same games).
    """
    import numpy as np
    from scipy.optimize import linprog  # lazy: scipy costs ~0.3 s to import

    a = np.array([[float(v) for v in row] for row in payoff], dtype=np.float64)
    m, n = a.shape
    # Rows: variables (x_1..x_m, v); minimise −v.
    rows = linprog(
        c=np.r_[np.zeros(m), -1.0],
        A_ub=np.c_[-a.T, np.ones(n)],
        b_ub=np.zeros(n),
        A_eq=np.r_[np.ones(m), 0.0][None, :],
        b_eq=[1.0],
        bounds=[(0, None)] * m + [(None, None)],
        method="highs",
    )
    # Columns: variables (y_1..y_n, w); minimise w.
    cols = linprog(
        c=np.r_[np.zeros(n), 1.0],
        A_ub=np.c_[a, -np.ones(m)],
        b_ub=np.zeros(m),
        A_eq=np.r_[np.ones(n), 0.0][None, :],
        b_eq=[1.0],
        bounds=[(0, None)] * n + [(None, None)],
        method="highs",
    )
    if not (rows.success and cols.success):  # pragma: no cover - a finite game always solves
        raise ShotError(f"the duel's linear program failed: {rows.message} / {cols.message}")
    return float(-rows.fun), _strategy(rows.x[:m]), _strategy(cols.x[:n])


def _strategy(weights: Iterable[float]) -> tuple[float, ...]:
    """Clip the solver's rounding noise (tiny negatives) and renormalise."""
    clipped = [max(0.0, float(w)) for w in weights]
    total = sum(clipped)
    return tuple(w / total for w in clipped)


def rune_duel(
    kind: ShotKind = "mage",
    tier: int = 1,
    distance: int = 1,
    *,
    interception_distance: int | None = 1,
    attack: Side = NO_SIDE,
    defence: Side = NO_SIDE,
    rules: RulesConfig = DEFAULT_RULES,
) -> RuneDuel:
    """The rune duel of one shot. ``attack`` / ``defence`` give each side's standing state
    (Résilience, Ultimes, Souffle, Relance policy); their ``rune`` is replaced by each
    option in turn. A chest shot that cannot be intercepted only offers the options that
    can act (R20): the attacker's Confusion and the defender's Défense and Relance drop."""
    if kind not in ("mage", "chest"):
        raise ShotError(f"unknown shot kind {kind!r}; choose 'mage' or 'chest'")
    if not isinstance(attack, Side) or not isinstance(defence, Side):
        raise ShotError("attack and defence must be Side objects")
    attacker_options, defender_options = ATTACK_OPTIONS, DEFENCE_OPTIONS
    if kind == "chest":
        # Probe once to learn whether an interception happens (validates the arguments too).
        probe = shot_on_chest(
            tier,
            distance,
            interception_distance,
            replace(attack, rune=None),
            replace(defence, rune=None),
            rules=rules,
        )
        if probe.interception_distance is None:
            attacker_options = UNINTERCEPTED_ATTACK_OPTIONS
            defender_options = UNINTERCEPTED_DEFENCE_OPTIONS

    def payoff_of(a_rune: RuneChoice, d_rune: RuneChoice) -> Fraction:
        a_side, d_side = replace(attack, rune=a_rune), replace(defence, rune=d_rune)
        return shot(kind, tier, distance, interception_distance, a_side, d_side, rules=rules).value

    payoff: Matrix = tuple(
        tuple(payoff_of(a, d) for d in defender_options) for a in attacker_options
    )
    columns: list[tuple[Fraction, ...]] = list(zip(*payoff, strict=True))
    attacker_best = tuple(_argmax(list(column)) for column in columns)
    defender_best = tuple(_argmin(list(row)) for row in payoff)
    # R18: the attacker declares first; the defender answers with its best response.
    guaranteed = [min(row) for row in payoff]
    sequential_choice = _argmax(guaranteed)
    value, x, y = solve_zero_sum(payoff)
    return RuneDuel(
        kind=kind,
        attacker_options=attacker_options,
        defender_options=defender_options,
        payoff=payoff,
        attacker_best_response=attacker_best,
        defender_best_response=defender_best,
        value=value,
        attacker_strategy=x,
        defender_strategy=y,
        sequential_value=guaranteed[sequential_choice],
        sequential_attacker_choice=sequential_choice,
    )
