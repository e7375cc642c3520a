"""Player ratings from finished online tables (issue 37.5): Glicko-2, pure.

Each profile (a pseudonym; the key stays in its browser) has a rating, its deviation (the
uncertainty: 95 % of the time the true strength is within ``1.96 × deviation``) and a
volatility (Glickman, « Example of the Glicko-2 system », 2013). Every finished table is
one rating period; a team's players each play one game against the other side's
*composite* opponent (mean rating, root-mean-square deviation of its rated players).

- A seat a bot held at the end because its player left counts as a loss for that player
  whatever the bot made of it (the bot's turns are not theirs), and their ``leaves`` count
  grows (Board Game Arena's « karma »: shown next to the rating).
- A profile that never played a decision at that table is not rated by it.
- Seats without a profile (guests, bots) are not rated; a side with no rated seat is no
  opponent, unless the caller gives the bots' ratings (:attr:`Table.bot_rating`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Final

from akvo.errors import AkvoError

#: Glicko-2's scale factor between the displayed scale and its internal one.
SCALE: Final = 173.7178
START: Final = 1500.0
#: A new profile's deviation: nothing is known yet.
START_DEVIATION: Final = 350.0
START_VOLATILITY: Final = 0.06
#: The system constant (how fast volatility may change; Glickman suggests 0.3–1.2).
TAU: Final = 0.5
_EPSILON: Final = 1e-6
SCORES: Final = {"win": 1.0, "draw": 0.5, "loss": 0.0}


class RatingError(AkvoError):
    """A malformed table result given to the ratings."""


@dataclass(frozen=True, slots=True)
class Rating:
    """A Glicko-2 rating on the usual scale (1500 for a newcomer)."""

    rating: float = START
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY

    def interval(self, z: float = 1.96) -> tuple[float, float]:
        """The 95 % interval of the player's strength (``z`` deviations either side)."""
        return self.rating - z * self.deviation, self.rating + z * self.deviation


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / math.pi**2)


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def update(player: Rating, games: Iterable[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """``player`` after one rating period of ``games`` (opponent, score 1 / ½ / 0, or a
    luck-adjusted score between them); without games only the deviation grows (Glickman's
    steps 1–8)."""
    mu, phi, sigma = (player.rating - START) / SCALE, player.deviation / SCALE, player.volatility
    played = [(((o.rating - START) / SCALE), o.deviation / SCALE, s) for o, s in games]
    for _, _, score in played:
        if not 0.0 <= score <= 1.0:  # also NaN
            raise RatingError(f"a game's score is between 0 and 1, not {score!r}")
    if not played:
        grown = math.sqrt(phi * phi + sigma * sigma)
        return replace(player, deviation=min(START_DEVIATION, grown * SCALE))
    v_inverse = 0.0
    gain = 0.0
    for mu_j, phi_j, score in played:
        g, e = _g(phi_j), _expected(mu, mu_j, phi_j)
        v_inverse += g * g * e * (1.0 - e)
        gain += g * (score - e)
    v = 1.0 / v_inverse
    sigma = _volatility(phi, sigma, v, v * gain, tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu += phi * phi * gain
    return Rating(START + SCALE * mu, SCALE * phi, sigma)


def _volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """The new volatility: the root of Glickman's f by the Illinois algorithm (step 5)."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        top = ex * (delta * delta - phi * phi - v - ex)
        return top / (2.0 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    low = a
    if delta * delta > phi * phi + v:
        high = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        high = a - k * tau
    f_low, f_high = f(low), f(high)
    while abs(high - low) > _EPSILON:
        c = low + (low - high) * f_low / (f_high - f_low)
        f_c = f(c)
        if f_c * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2.0
        high, f_high = c, f_c
    return math.exp(low / 2.0)


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat of a finished table: its profile (``None``: a guest or a bot), the
    decisions its player made themself, and whether a bot held it at the end because its
    player left."""

    profile: str | None
    side: int
    own_decisions: int = 1
    left: bool = False
    bot: str | None = None


@dataclass(frozen=True, slots=True)
class Table:
    """A finished table for the ratings: its seats and its result (``"A"``, ``"B"``,
    ``"draw"``); ``bot_rating`` rates a side played only by bots, by level."""

    seats: tuple[SeatResult, ...]
    result: str
    bot_rating: Mapping[str, Rating] = field(default_factory=dict)
    #: Each side's score instead of the result's 1 / ½ / 0: the luck-adjusted result
    #: (:meth:`akvo.coach.luck.Luck.adjusted`, clipped to 0–1), when it was measured.
    scores: tuple[float, float] | None = None


@dataclass(frozen=True, slots=True)
class Profile:
    """A profile's standing: its rating, the tables it was rated on, the tables it left."""

    rating: Rating = Rating()
    tables: int = 0
    leaves: int = 0

    @property
    def leave_share(self) -> float:
        """The share of its tables it left (shown when it is not small)."""
        return self.leaves / self.tables if self.tables else 0.0


def _side_score(result: str, side: int) -> float:
    if result == "draw":
        return 0.5
    if result not in ("A", "B"):
        raise RatingError(f"a table's result is A, B or draw, not {result!r}")
    return 1.0 if "AB"[side] == result else 0.0


def _composite(ratings: list[Rating]) -> Rating | None:
    if not ratings:
        return None
    mean = sum(r.rating for r in ratings) / len(ratings)
    spread = math.sqrt(sum(r.deviation**2 for r in ratings) / len(ratings))
    return Rating(mean, spread)


def rate_table(
    profiles: Mapping[str, Profile], table: Table, tau: float = TAU
) -> dict[str, Profile]:
    """The profiles of ``table``'s players after it (the others unchanged, not returned):
    every rated player's game against the other side's composite, from the ratings before
    the table."""
    before = dict(profiles)
    sides: list[list[Rating]] = [[], []]
    for seat in table.seats:
        if seat.side not in (0, 1):
            raise RatingError(f"a seat's side is 0 or 1, not {seat.side!r}")
        if seat.profile is not None:
            sides[seat.side].append(before.get(seat.profile, Profile()).rating)
        elif seat.bot is not None and seat.bot in table.bot_rating:
            sides[seat.side].append(table.bot_rating[seat.bot])
    after: dict[str, Profile] = {}
    for seat in table.seats:
        if seat.profile is None or seat.own_decisions <= 0:
            continue
        opponent = _composite(sides[1 - seat.side])
        if opponent is None:
            continue
        if seat.left:
            score = 0.0
        elif table.scores is not None:
            score = table.scores[seat.side]
        else:
            score = _side_score(table.result, seat.side)
        standing = before.get(seat.profile, Profile())
        after[seat.profile] = Profile(
            update(standing.rating, [(opponent, score)], tau),
            standing.tables + 1,
            standing.leaves + int(seat.left),
        )
    return after


def rate_tables(tables: Iterable[Table], tau: float = TAU) -> dict[str, Profile]:
    """Every profile's standing after ``tables``, in the order they finished."""
    profiles: dict[str, Profile] = {}
    for table in tables:
        profiles.update(rate_table(profiles, table, tau))
    return profiles
