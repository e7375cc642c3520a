"""A table's clock, chosen at creation: « en direct » or « sur plusieurs jours ».

- « en direct » (``live``): each decision of a seat has ``minutes`` minutes; its time
  starts again at every decision.
- « sur plusieurs jours » (``days``): each seat has ``hours`` hours per turn, spent only
  while it is that seat's decision (a chess clock set again at every turn).

A seat whose time runs out, or (« en direct ») whose player has been away as long as one
decision's time, is *offered*: the other seats may hand it to a bot
(:meth:`akvo.online.service.TableService.hand_over`). The arithmetic is here, time itself
is given by the caller (the service's ``now``), so that tests run it instantly.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

LIVE: Final = "live"
DAYS: Final = "days"
#: French names of the modes, as the creation page shows them (either is accepted).
MODE_LABELS: Final = {LIVE: "en direct", DAYS: "sur plusieurs jours"}
MODE_OF: Final = {**{m: m for m in MODE_LABELS}, **{v: k for k, v in MODE_LABELS.items()}}
#: Each mode's unit (the request's field), its bounds and its length in seconds.
UNITS: Final = {LIVE: ("minutes", 1, 60, 60.0), DAYS: ("hours", 1, 168, 3600.0)}


@dataclass(frozen=True, slots=True)
class ClockSetup:
    """A table's clock: its mode and the time per decision (live) or per turn (days)."""

    mode: str
    amount: int

    @property
    def seconds(self) -> float:
        """A seat's allowance, in seconds: per decision (live) or per turn (days)."""
        return self.amount * UNITS[self.mode][3]

    @property
    def label(self) -> str:
        """« en direct, 3 minutes par décision », « sur plusieurs jours, 24 heures par tour »."""
        if self.mode == LIVE:
            return f"{MODE_LABELS[LIVE]}, {self.amount}\u00a0min par décision"
        return f"{MODE_LABELS[DAYS]}, {self.amount}\u00a0h par tour"

    def to_dict(self) -> dict[str, Any]:
        return {"mode": MODE_LABELS[self.mode], UNITS[self.mode][0]: self.amount}


class SeatClocks:
    """The time left to each seat of one table, from the moments the service reports.

    ``update(deciding, turn, now)`` is called after every change of the table with the
    seats that may act now; a seat that acted (``acted``) starts a new decision."""

    def __init__(self, clock: ClockSetup, seats: int, now: float) -> None:
        self.clock = clock
        self._left = [clock.seconds] * seats
        self._since: dict[int, float] = {}
        self._turn = -1
        self.update((), 0, now)

    def update(self, deciding: tuple[int, ...], turn: int, now: float, acted: int = -1) -> None:
        """Stop the clocks of the seats that no longer decide, start those that now do."""
        for seat, since in list(self._since.items()):
            if seat not in deciding or seat == acted:
                self._left[seat] -= now - since
                del self._since[seat]
        if self.clock.mode == LIVE:  # a new decision, a new allowance
            for seat in range(len(self._left)):
                if seat not in self._since:
                    self._left[seat] = self.clock.seconds
        elif turn != self._turn:  # a new turn, a new allowance for every seat
            self._left = [self.clock.seconds] * len(self._left)
            self._since = dict.fromkeys(self._since, now)
        self._turn = turn
        for seat in deciding:
            self._since.setdefault(seat, now)

    def deadline(self, seat: int) -> float | None:
        """When the seat's time runs out, if it is deciding now."""
        since = self._since.get(seat)
        return None if since is None else since + self._left[seat]

    def out_of_time(self, now: float) -> tuple[int, ...]:
        return tuple(s for s in sorted(self._since) if now >= self.deadline(s))  # type: ignore[operator]
