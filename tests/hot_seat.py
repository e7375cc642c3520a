"""Hot-seat matches for the play widgets' tests: both sides pressed by the test."""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator

from akvo_widgets.play.game import HOT_SEAT, MatchGame


def hot_seat_games(seeds: Iterable[int]) -> Iterator[tuple[MatchGame, random.Random]]:
    """A hot-seat match per seed and a chooser seeded alike. Without the win chances'
    rollouts: a thread that would share the CPU with the test for nothing (the coach's
    tests check them)."""
    for seed in seeds:
        yield MatchGame(opponent=HOT_SEAT, seed=seed, estimates=False), random.Random(seed)
