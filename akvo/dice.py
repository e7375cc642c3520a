"""Exact roll odds (R12–R15): sums of d6, success / critical / prodige, optional Relance.

The public API speaks :class:`fractions.Fraction`; inside, every roll is computed once per
*effective* threshold (threshold − modifier) with integer counts over the multisets of
faces, vectorised with numpy, and cached.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache, cached_property, lru_cache
from types import MappingProxyType
from typing import get_args

import numpy as np
import numpy.typing as npt

from akvo.config import ProdigeRule
from akvo.errors import DiceError, choice_index, excerpt, require_bool, require_int
from akvo.resolution import DEFAULT_DICE, RELANCE_POLICIES, RelancePolicy, prodige_possible
from akvo.rules import CRITICAL_MARGIN

REROLL_POLICIES: tuple[RelancePolicy | None, ...] = (None, *RELANCE_POLICIES)
PRODIGE_RULES: tuple[ProdigeRule, ...] = get_args(ProdigeRule)
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
    dice = require_int("dice", dice, DiceError)
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
    at_least: IntArray  # (M, n + 1, 6n + 6): how many of the six sums are ≥ v
    prodige_count: IntArray  # (M, n + 1): how many of the six results are prodiges


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
    can_be_prodige = prodige_possible(dice, prodige_rule)
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
    values = np.arange(FACES * dice + FACES, dtype=np.int64)
    at_least = (sums[:, :, :, None] >= values).sum(axis=2)
    prodige_count = prodiges.sum(axis=2)
    for array in (weights, sums, prodiges, at_least, prodige_count):
        array.setflags(write=False)
    return _Enumeration(weights, sums, prodiges, at_least, prodige_count)


@dataclass(frozen=True, slots=True)
class _Counts:
    """Integer outcome counts of one roll at an effective threshold, over ``denominator``."""

    joint: tuple[int, ...]  # indexed like OUTCOME_KEYS
    sums: tuple[tuple[int, int], ...]  # (dice sum, count)
    denominator: int


@cache
def _threshold_batch(
    dice: int, reroll: RelancePolicy | None, prodige_rule: ProdigeRule
) -> tuple[int, tuple[_Counts, ...]]:
    """Counts for every effective threshold that matters, in one vectorised pass.

    Below ``dice − 4`` every roll is a critical success and above ``6·dice + 1`` none
    succeeds, so the Relance choices (and all counts) are constant outside that window.
    Returns the window's first threshold and one :class:`_Counts` per threshold.
    """
    table = _enumeration(dice, prodige_rule)
    low, high = dice - CRITICAL_MARGIN, FACES * dice + 1
    ts = np.arange(low, high + 1, dtype=np.int64)
    n_m, n_t = len(table.weights), len(ts)
    if reroll is None:
        choice = np.zeros((n_m, n_t), dtype=np.int64)
    else:
        top = table.at_least.shape[2] - 1
        s = table.at_least[:, :, np.clip(ts, 0, top)]  # (M, O, T)
        c = table.at_least[:, :, np.clip(ts + CRITICAL_MARGIN, 0, top)]
        p = table.prodige_count[:, :, None]
        key = s * 64 + c * 8 + p if reroll == "success" else c * 64 + s * 8 + p
        choice = key.argmax(axis=1)  # (M, T): first best option, 0 = keep (R15)
    rows = np.arange(n_m)[:, None]
    chosen_sums = table.sums[rows, choice]  # (M, T, 6)
    chosen_prodiges = table.prodiges[rows, choice]
    t3 = ts[None, :, None]
    outcome = (
        (chosen_sums >= t3).astype(np.int64) * 4
        + (chosen_sums >= t3 + CRITICAL_MARGIN).astype(np.int64) * 2
        + chosen_prodiges.astype(np.int64)
    )
    weight = np.broadcast_to(table.weights[:, None, None], outcome.shape).ravel()
    column = np.arange(n_t)[None, :, None]
    width = FACES * dice + 1
    joint = np.bincount((column * 8 + outcome).ravel(), weights=weight, minlength=n_t * 8)
    sums = np.bincount(
        (column * width + chosen_sums).ravel(), weights=weight, minlength=n_t * width
    )
    joint = joint.reshape(n_t, 8).round().astype(np.int64)
    sums = sums.reshape(n_t, width).round().astype(np.int64)
    denominator = FACES**dice * FACES
    batch = tuple(
        _Counts(
            joint=tuple(int(x) for x in joint[i]),
            sums=tuple((total, int(x)) for total, x in enumerate(sums[i]) if x),
            denominator=denominator,
        )
        for i in range(n_t)
    )
    return low, batch


def _roll_counts(
    effective: int, dice: int, reroll: RelancePolicy | None, prodige_rule: ProdigeRule
) -> _Counts:
    low, batch = _threshold_batch(dice, reroll, prodige_rule)
    return batch[min(max(effective - low, 0), len(batch) - 1)]


@dataclass(frozen=True)
class RollOdds:
    """Exact odds of one roll (R12–R15).

    ``joint`` maps every ``(success, critical, prodige)`` triple to its probability (the
    eight keys are always present and sum to 1); ``totals`` maps each final total
    (dice + modifier) to its probability.
    """

    threshold: int
    dice: int
    modifier: int
    reroll: RelancePolicy | None
    prodige_rule: ProdigeRule
    success: Fraction
    critical: Fraction
    prodige: Fraction
    joint: Mapping[Outcome, Fraction]
    _sum_counts: tuple[tuple[int, int], ...] = field(repr=False, compare=False)
    _denominator: int = field(repr=False, compare=False)

    @cached_property
    def totals(self) -> Mapping[int, Fraction]:
        """Final total (dice + modifier) → probability; built on first use."""
        den = self._denominator
        return MappingProxyType(
            {total + self.modifier: Fraction(n, den) for total, n in self._sum_counts}
        )

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
        """P(the outcome matches every flag given); ``None`` leaves a flag free. A flag that
        is neither (``success="yes"``, ``1``) raises :class:`~akvo.errors.DiceError`: it
        would match no outcome and read as a probability of 0."""
        wanted = tuple(
            None if value is None else require_bool(name, value, DiceError)
            for name, value in (("success", success), ("critical", critical), ("prodige", prodige))
        )
        return sum(
            (
                p
                for key, p in self.joint.items()
                if all(w is None or w == k for w, k in zip(wanted, key, strict=True))
            ),
            Fraction(0),
        )


def prepare_tables(prodige: ProdigeRule = "four", *, most_dice: int = MAX_DICE) -> None:
    """Compute the rolls of 1 to ``most_dice`` dice at every threshold now, for the R13
    variant ``prodige``: the first roll of 8 dice otherwise waits ~0.1 s for its face
    enumeration (R13's prodiges need every roll, not only the totals). Pre-heated and spare
    kernels of the book do it before any reader comes."""
    _check_dice_count(most_dice)
    rule = choice_index(prodige, PRODIGE_RULES)
    if rule < 0:
        raise DiceError(f"prodige must be one of {PRODIGE_RULES}, got {excerpt(prodige)}")
    for dice in range(1, most_dice + 1):
        _threshold_batch(dice, None, PRODIGE_RULES[rule])


def clear_caches(*, keep_tables: bool = False) -> None:
    """Forget cached results (for benchmarks); ``keep_tables`` keeps the face enumerations."""
    keep_tables = require_bool("keep_tables", keep_tables, DiceError)
    for cached in (_threshold_batch, _roll, at_least_table):
        cached.cache_clear()
    if not keep_tables:
        _sum_counts.cache_clear()
        _enumeration.cache_clear()


def _check_int(name: str, value: object) -> int:
    return require_int(name, value, DiceError)


def roll(
    threshold: int,
    *,
    dice: int = DEFAULT_DICE,
    modifier: int = 0,
    reroll: RelancePolicy | None = None,
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
    policy, rule = choice_index(reroll, REROLL_POLICIES), choice_index(prodige, PRODIGE_RULES)
    if policy < 0:
        raise DiceError(f"reroll must be one of {REROLL_POLICIES}, got {excerpt(reroll)}")
    if rule < 0:
        raise DiceError(f"prodige must be one of {PRODIGE_RULES}, got {excerpt(prodige)}")
    reroll, prodige = REROLL_POLICIES[policy], PRODIGE_RULES[rule]
    return _roll(threshold, max(dice, 1), modifier, reroll, prodige)


@lru_cache(maxsize=65536)
def _roll(
    threshold: int,
    dice: int,
    modifier: int,
    reroll: RelancePolicy | None,
    prodige_rule: ProdigeRule,
) -> RollOdds:
    counts = _roll_counts(threshold - modifier, dice, reroll, prodige_rule)
    den = counts.denominator
    joint = {key: Fraction(n, den) for key, n in zip(OUTCOME_KEYS, counts.joint, strict=True)}
    # OUTCOME_KEYS[i] is the binary count i = s·4 + c·2 + p, matching the batch's index.
    n = counts.joint
    success = Fraction(n[4] + n[5] + n[6] + n[7], den)
    critical = Fraction(n[6] + n[7], den)
    prodige = Fraction(n[1] + n[3] + n[5] + n[7], den)
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
        _sum_counts=counts.sums,
        _denominator=den,
    )
