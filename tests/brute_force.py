"""Brute-force references written independently of akvo's internals: every ordered tuple of
faces is enumerated and every Relance option tried, exactly as R12–R15 read."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from functools import cache

Outcome = tuple[bool, bool, bool]


def _flags(faces: tuple[int, ...], threshold: int, modifier: int, prodige: str) -> Outcome:
    total = sum(faces) + modifier
    if prodige == "four":
        is_prodige = len(faces) == 4 and len(set(faces)) == 1
    else:
        is_prodige = len(faces) >= 2 and len(set(faces)) == 1
    return (total >= threshold, total >= threshold + 4, is_prodige)


@cache
def brute_roll(
    threshold: int, dice: int, modifier: int, reroll: str | None, prodige: str
) -> tuple[dict[Outcome, Fraction], dict[int, Fraction]]:
    """(joint, totals) of one roll, by enumeration of all 6**dice ordered face tuples."""
    joint: Counter[Outcome] = Counter()
    totals: Counter[int] = Counter()
    for faces in itertools.product(range(1, 7), repeat=dice):
        # Each option: a list of 6 equally likely resulting face tuples.
        keep = [faces] * 6
        options = [keep]
        if reroll is not None:
            for position in sorted(range(dice), key=lambda i: faces[i]):
                options.append(
                    [(*faces[:position], g, *faces[position + 1 :]) for g in range(1, 7)]
                )

        def score(results: list[tuple[int, ...]]) -> tuple[int, int, int]:
            flags = [_flags(r, threshold, modifier, prodige) for r in results]
            s = sum(f[0] for f in flags)
            c = sum(f[1] for f in flags)
            p = sum(f[2] for f in flags)
            return (s, c, p) if reroll == "success" else (c, s, p)

        best = options[0]
        best_score = score(best) if reroll is not None else None
        for option in options[1:]:
            option_score = score(option)
            assert best_score is not None
            if option_score > best_score:  # keep unless strictly better (R15)
                best, best_score = option, option_score
        for result in best:
            joint[_flags(result, threshold, modifier, prodige)] += 1
            totals[sum(result) + modifier] += 1
    den = 6**dice * 6
    return (
        {k: Fraction(v, den) for k, v in joint.items()},
        {k: Fraction(v, den) for k, v in totals.items()},
    )
