"""Exact roll odds (R12–R15): sums of d6, success / critical / prodige, optional Relance.

The public API speaks :class:`fractions.Fraction`; inside, every roll is computed once per
*effective* threshold (threshold − modifier) with integer counts over the multisets of
faces, vectorised with numpy, and cached.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from types import MappingProxyType
from typing import Literal

import numpy as np
import numpy.typing as npt

from akvo.errors import DiceError
from akvo.rules import CRITICAL_MARGIN

RerollPolicy = Literal["success", "critical"]
ProdigeRule = Literal["four", "all"]
REROLL_POLICIES: tuple[RerollPolicy | None, ...] = (None, "success", "critical")
PRODIGE_RULES: tuple[ProdigeRule, ...] = ("four", "all")
DEFAULT_DICE = 4
MAX_DICE = 8
FACES = 6
Outcome = tuple[bool, bool, bool]
#: The eight (success, critical, prodige) keys of :attr:`RollOdds.joint`, in a fixed order.
OUTCOME_KEYS: tuple[Outcome, ...] = tuple(
    (s, c, p) for s in (False, True) for c in (False, True) for p in (False, True)
)

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]


# --- Sums of d6 ---------------------------------------------------------------------------


@cache
def _sum_counts(dice: int) -> IntArray:
    counts = np.ones(1, dtype=np.int64)
    face = np.ones(FACES, dtype=np.int64)
    for _ in range(dice):
        counts = np.convolve(counts, face)
    out = np.zeros(FACES * dice + 1, dtype=np.int64)
    out[dice:] = counts
    out.setflags(write=False)
    return out


def _check_dice_count(dice: object, *, allow_zero: bool = False) -> int:
    if isinstance(dice, bool) or not isinstance(dice, int):
        raise DiceError(f"dice must be an integer, got {dice!r}")
    low = 0 if allow_zero else 1
    if not low <= dice <= MAX_DICE:
        raise DiceError(f"dice count {dice} is outside {low}–{MAX_DICE}")
    return dice


def sum_counts(dice: int) -> IntArray:
    """Read-only array ``c`` where ``c[s]`` counts the ways ``dice`` d6 sum to ``s`` (of 6^n)."""
    return _sum_counts(_check_dice_count(dice, allow_zero=True))


def sum_distribution(dice: int) -> dict[int, Fraction]:
    """Exact distribution of the sum of ``dice`` d6: total → probability."""
    counts = sum_counts(dice)
    total = FACES**dice
    return {s: Fraction(int(c), total) for s, c in enumerate(counts) if c}


def at_least(dice: int, threshold: int) -> Fraction:
    """Exact P(sum of ``dice`` d6 ≥ ``threshold``)."""
    counts = sum_counts(dice)
    _check_int("threshold", threshold)
    start = min(max(threshold, 0), len(counts))
    return Fraction(int(counts[start:].sum()), FACES**dice)


@lru_cache(maxsize=1)
def at_least_table() -> FloatArray:
    """Float table ``T[n, t]`` = P(sum of n d6 ≥ t), n in 0–8, t in 0–49 (clamp t to look up).

    For fast lookups in simulations and plots; the exact values are :func:`at_least`.
    """
    width = FACES * MAX_DICE + 2
    table = np.zeros((MAX_DICE + 1, width), dtype=np.float64)
    for n in range(MAX_DICE + 1):
        counts = _sum_counts(n)
        tail = np.cumsum(counts[::-1])[::-1] / FACES**n
        table[n, : len(tail)] = tail
    table.setflags(write=False)
    return table


# --- One roll, with the Relance option ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Enumeration:
    """Every multiset of faces with its weight, and every option's six sub-outcomes.

    Option 0 keeps the dice (its six sub-outcomes repeat the kept roll); option j ≥ 1
    rerolls the j-th smallest die and lists the six faces it may show. Argmax over options
    therefore keeps the dice unless a reroll is strictly better, and else rerolls the
    lowest die among equally good ones (R15).
    """

    weights: IntArray  # (M,)
    sums: IntArray  # (M, n + 1, 6)
    prodiges: npt.NDArray[np.bool_]  # (M, n + 1, 6)


@cache
def _enumeration(dice: int, prodige_rule: ProdigeRule) -> _Enumeration:
    multisets = list(itertools.combinations_with_replacement(range(1, FACES + 1), dice))
    faces = np.array(multisets, dtype=np.int64)  # (M, n), sorted
    weights = np.array(
        [
            math.factorial(dice)
            // math.prod(math.factorial(k) for k in np.unique(m, return_counts=True)[1])
            for m in faces
        ],
        dtype=np.int64,
    )
    can_be_prodige = dice == 4 if prodige_rule == "four" else dice >= 2
    kept_sum = faces.sum(axis=1)
    kept_prodige = (faces.min(axis=1) == faces.max(axis=1)) & can_be_prodige
    new_face = np.arange(1, FACES + 1, dtype=np.int64)
    sums = np.empty((len(faces), dice + 1, FACES), dtype=np.int64)
    prodiges = np.empty((len(faces), dice + 1, FACES), dtype=bool)
    sums[:, 0, :] = kept_sum[:, None]
    prodiges[:, 0, :] = kept_prodige[:, None]
    for j in range(dice):
        others = np.delete(faces, j, axis=1)
        sums[:, j + 1, :] = (kept_sum - faces[:, j])[:, None] + new_face[None, :]
        if dice == 1:
            prodiges[:, j + 1, :] = False
        else:
            others_equal = others.min(axis=1) == others.max(axis=1)
            prodiges[:, j + 1, :] = (
                can_be_prodige & others_equal[:, None] & (new_face[None, :] == others[:, :1])
            )
    for array in (weights, sums, prodiges):
        array.setflags(write=False)
    return _Enumeration(weights, sums, prodiges)


@dataclass(frozen=True, slots=True)
class _Counts:
    """Integer outcome counts of one roll at an effective threshold, over ``denominator``."""

    joint: tuple[int, ...]  # indexed like OUTCOME_KEYS
    sums: tuple[tuple[int, int], ...]  # (dice sum, count)
    denominator: int


@lru_cache(maxsize=4096)
def _roll_counts(
    effective: int, dice: int, reroll: RerollPolicy | None, prodige_rule: ProdigeRule
) -> _Counts:
    table = _enumeration(dice, prodige_rule)
    success = table.sums >= effective
    critical = table.sums >= effective + CRITICAL_MARGIN
    if reroll is None:
        choice = np.zeros(len(table.weights), dtype=np.int64)
    else:
        s = success.sum(axis=2)
        c = critical.sum(axis=2)
        p = table.prodiges.sum(axis=2)
        key = s * 64 + c * 8 + p if reroll == "success" else c * 64 + s * 8 + p
        choice = key.argmax(axis=1)
    rows = np.arange(len(table.weights))
    chosen_sums = table.sums[rows, choice]  # (M, 6)
    outcome = (
        success[rows, choice].astype(np.int64) * 4
        + critical[rows, choice].astype(np.int64) * 2
        + table.prodiges[rows, choice].astype(np.int64)
    )
    weight = np.broadcast_to(table.weights[:, None], outcome.shape)
    joint = np.bincount(outcome.ravel(), weights=weight.ravel(), minlength=8)
    sums = np.bincount(chosen_sums.ravel(), weights=weight.ravel())
    return _Counts(
        joint=tuple(round(x) for x in joint),
        sums=tuple((s, round(x)) for s, x in enumerate(sums) if x),
        denominator=FACES**dice * FACES,
    )


@dataclass(frozen=True, slots=True)
class RollOdds:
    """Exact odds of one roll (R12–R15).

    ``joint`` maps every ``(success, critical, prodige)`` triple to its probability (the
    eight keys are always present and sum to 1); ``totals`` maps each final total
    (dice + modifier) to its probability.
    """

    threshold: int
    dice: int
    modifier: int
    reroll: RerollPolicy | None
    prodige_rule: ProdigeRule
    success: Fraction
    critical: Fraction
    prodige: Fraction
    joint: Mapping[Outcome, Fraction]
    totals: Mapping[int, Fraction]

    @property
    def failure(self) -> Fraction:
        return 1 - self.success

    def probability(
        self,
        *,
        success: bool | None = None,
        critical: bool | None = None,
        prodige: bool | None = None,
    ) -> Fraction:
        """P(the outcome matches every flag given); ``None`` leaves a flag free."""
        wanted = (success, critical, prodige)
        return sum(
            (
                p
                for key, p in self.joint.items()
                if all(w is None or w == k for w, k in zip(wanted, key, strict=True))
            ),
            Fraction(0),
        )


def _check_int(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise DiceError(f"{name} must be an integer, got {value!r}")
    return value


def roll(
    threshold: int,
    *,
    dice: int = DEFAULT_DICE,
    modifier: int = 0,
    reroll: RerollPolicy | None = None,
    prodige: ProdigeRule = "four",
) -> RollOdds:
    """Exact odds of rolling ``dice`` d6 + ``modifier`` against ``threshold``.

    ``dice`` below 1 counts as 1 (R14: a roll keeps at least one die). ``reroll`` is the
    Relance policy of R15 (``None``, ``"success"`` or ``"critical"``); ``prodige`` the R13
    variant (``"four"`` or ``"all"``). Anything else raises :class:`~akvo.errors.DiceError`.
    """
    _check_int("threshold", threshold)
    _check_int("modifier", modifier)
    _check_int("dice", dice)
    if dice > MAX_DICE:
        raise DiceError(f"dice count {dice} is above the maximum of {MAX_DICE}")
    if reroll not in REROLL_POLICIES:
        raise DiceError(f"reroll must be one of {REROLL_POLICIES}, got {reroll!r}")
    if prodige not in PRODIGE_RULES:
        raise DiceError(f"prodige must be one of {PRODIGE_RULES}, got {prodige!r}")
    return _roll(threshold, max(dice, 1), modifier, reroll, prodige)


@lru_cache(maxsize=65536)
def _roll(
    threshold: int,
    dice: int,
    modifier: int,
    reroll: RerollPolicy | None,
    prodige_rule: ProdigeRule,
) -> RollOdds:
    counts = _roll_counts(threshold - modifier, dice, reroll, prodige_rule)
    den = counts.denominator
    joint = {key: Fraction(n, den) for key, n in zip(OUTCOME_KEYS, counts.joint, strict=True)}
    # OUTCOME_KEYS is the binary count s·4 + c·2 + p, matching the bincount index.
    success = sum((joint[k] for k in OUTCOME_KEYS if k[0]), Fraction(0))
    critical = sum((joint[k] for k in OUTCOME_KEYS if k[1]), Fraction(0))
    prodige = sum((joint[k] for k in OUTCOME_KEYS if k[2]), Fraction(0))
    totals = {s + modifier: Fraction(n, den) for s, n in counts.sums}
    return RollOdds(
        threshold=threshold,
        dice=dice,
        modifier=modifier,
        reroll=reroll,
        prodige_rule=prodige_rule,
        success=success,
        critical=critical,
        prodige=prodige,
        joint=MappingProxyType(joint),
        totals=MappingProxyType(totals),
    )
