"""French number formatting for the book: ``33,6 %``, ``1 296``, ``7/18``.

French typography puts a no-break space before ``%`` and groups thousands with a narrow
no-break space; the decimal mark is a comma. Every number the book shows goes through
these helpers, so the widgets, the worked examples and the tests agree to the character.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from akvo.rules import TIER_NUMERALS, TURNS, tier_for_turn

NBSP = "\u00a0"  # espace insécable, before % : ; ! ?
NNBSP = "\u202f"  # espace fine insécable, between groups of thousands

Number = Fraction | float | int


def integer(value: int) -> str:
    """``1296`` → ``1 296`` (narrow no-break space between groups of three)."""
    return f"{value:,}".replace(",", NNBSP)


def decimal(value: Number, digits: int = 1) -> str:
    """``1.25`` → ``1,3`` with ``digits`` decimals and a decimal comma."""
    text = f"{float(value):,.{digits}f}"
    return text.replace(",", NNBSP).replace(".", ",")


def percent(probability: Number, digits: int = 1) -> str:
    """A probability as a French percentage: ``Fraction(1, 3)`` → ``33,3 %``."""
    return f"{decimal(float(probability) * 100, digits)}{NBSP}%"


#: The least chance shown with one decimal; below it a page says « < 0,1 % ».
LEAST_PERCENT = Fraction(1, 2000)


@lru_cache(maxsize=4096)
def exact_percent(value: Number) -> str:
    """A chance in French that never claims a false « 0,0 % » or « 100,0 % »: a tiny
    positive one reads « < 0,1 % », a near-certain one « > 99,9 % ». Cached: a board
    redraw writes a few hundred chances, most of them the same few exact fractions, and
    comparing fractions was a third of its time."""
    if value == 0 or value == 1:
        return f"{int(value * 100)}{NBSP}%"
    if value < LEAST_PERCENT:
        return f"<{NBSP}0,1{NBSP}%"
    if value > 1 - LEAST_PERCENT:
        return f">{NBSP}99,9{NBSP}%"
    return percent(value)


def points_chip(value: Number) -> str:
    """Expected points on a small label: ``0,49 pt``; a tiny positive value reads
    ``< 0,01 pt`` rather than a ``0,00 pt`` that would claim nothing can be scored."""
    if 0 < value < Fraction(1, 200):
        return f"<{NBSP}0,01{NBSP}pt"
    return f"{decimal(value, 2)}{NBSP}pt"


def fraction(value: Fraction) -> str:
    """An exact fraction, readable: ``Fraction(455, 1296)`` → ``455/1 296``; ``1`` → ``1``."""
    value = Fraction(value)
    if value.denominator == 1:
        return integer(value.numerator)
    return f"{integer(value.numerator)}/{integer(value.denominator)}"


def times_in_ten(probability: Number) -> str:
    """``0.41`` → ``4 fois sur 10``: the plain-French reading of a probability.

    Rounded half up to tenths, except at both ends, where a rounded count would lie:
    ``jamais`` / ``toujours`` only for 0 and 1, ``presque jamais`` below 1 %, ``moins d’une
    fois sur 10`` below 5 %, ``plus de 9 fois sur 10`` from 95 %, ``presque toujours`` above
    99 %.
    """
    p = Fraction(probability)
    count = int(p * 10 + Fraction(1, 2))  # half rounds up
    if count == 0:
        if p == 0:
            return "jamais"
        return "presque jamais" if p < Fraction(1, 100) else "moins d’une fois sur 10"
    if count == 10:
        if p == 1:
            return "toujours"
        return "presque toujours" if p > Fraction(99, 100) else "plus de 9 fois sur 10"
    return f"{count} fois sur 10"


def how_often(subject: str, verb: str, rest: str, probability: Number) -> str:
    """A French clause saying how often: ``Vous repoussez la cible 4 fois sur 10``.

    ``jamais`` needs the negation around the verb: ``votre tireur ne recule presque
    jamais``, ``vous n’atteignez jamais le coffre``.
    """
    often = times_in_ten(probability)
    if often.endswith("jamais"):
        ne = "n’" if verb[:1].lower() in "aeéèêiouyh" else "ne "
        words = [subject, f"{ne}{verb}", often, rest]
    else:
        words = [subject, verb, rest, often]
    return " ".join(word for word in words if word)


def signed(value: int) -> str:
    """A modifier with its sign: ``+2``, ``−1`` (true minus sign), ``0``."""
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"\u2212{-value}"
    return "0"


def tier_numeral(tier: int) -> str:
    """Wind tier as printed on the lighthouse: 1 → ``I``."""
    return TIER_NUMERALS[tier]


def turns_of_tier(tier: int) -> str:
    """The regular turns played at a tier (R7): 1 → ``tours 1–2``."""
    return "tours " + "–".join(str(t) for t in TURNS if tier_for_turn(t) == tier)


def french(text: str) -> str:
    """French spacing: no-break space before ``:`` and inside « », narrow one before ``; ! ?``."""
    for mark in (":", ";", "!", "?"):
        space = NBSP if mark == ":" else NNBSP
        text = text.replace(f" {mark}", f"{space}{mark}")
    return text.replace("« ", f"«{NBSP}").replace(" »", f"{NBSP}»")


def typeset(text: str) -> str:
    """An engine sentence in the book's typography: ’ apostrophes, French spacing."""
    return french(text.replace("'", "\u2019"))
