"""The secrets fuzz at scale (issue 37): 10⁵ random positions, 0 leaks.

The property is ``tests/akvo_site/tables/test_tables_secrecy.py``'s (40 examples in CI):
two tables in the same position where side A programs different orders must give B's
seats and the spectator byte-identical views (the book's labels and coach, the board, the
public log) and identical refusals until both sides are complete; at the reveal they
differ. Here each case reaches the orders of a random turn from 1 to :data:`MAX_TURN` by
random play, so the views carry a history (earlier reveals, the log, spent runes), and B
also asks for the match's record (refused until the end: the refusal must not differ).
A *state* is one position compared; a case compares every position of one interleaving of
A's and B's moves and B's probes. A leak is a state where B's views, a probe's refusal or
the record's answer differ; a case whose reveal did not change B's views is counted too
(the comparison could not have failed there).

Usage: ``.venv/bin/python benchmarks/bench_view_fuzz.py`` (10⁵ states on 2 worker
processes, a progress bar, ~10–20 min on a loaded machine); ``--states N`` for fewer
(printed, not recorded unless N ≥ 10⁵); ``--workers 1``. Results go to
``benchmarks/results/view-fuzz.md``.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import sys
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from akvo.match.actions import ORDER_ACTION_LIST  # noqa: E402
from akvo.match.phases import ORDERS  # noqa: E402
from akvo.online import SPECTATOR, Table, TableRefusal  # noqa: E402
from tests.akvo_site.tables.test_tables_secrecy import (  # noqa: E402
    _PROBES,
    _b_sees,
    _plan,
    _probe,
)
from tests.tables_play import new_table, play_until  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results" / "view-fuzz.md"
TARGET_STATES = 100_000
MAX_TURN = 8
PLAYERS = (2, 4, 6)


@dataclass
class Outcome:
    """One case: positions compared, leaks found (described), whether the reveal showed."""

    case: int
    players: int
    turn: int
    states: int = 0
    leaks: list[str] = field(default_factory=list)
    revealed: bool = True


def _record_answer(table: Table, seat: int) -> str:
    """What asking for the match's record tells ``seat`` now (refused until the end)."""
    if not table.finished:
        return "refused: playing"
    return "finished"


def run_case(case: int) -> Outcome:
    """Case ``case`` (its own seed): a random table, turn, pair of A's orders, B's orders
    and interleaving; every position compared between the two tables."""
    rng = random.Random(case)
    players, turn = PLAYERS[case % len(PLAYERS)], rng.randint(1, MAX_TURN)
    outcome = Outcome(case, players, turn)
    one = new_table(players, seed=case)
    reached = play_until(
        one, lambda t: t.state.turn == turn and t.state.phase == ORDERS, random.Random(case)
    )
    if not reached:
        return outcome  # the match ended before that turn: no state
    other = new_table(players, seed=case)
    for seat, action in one.rows:
        other.replay_row(seat, action)
    a_orders = rng.sample(ORDER_ACTION_LIST, 2)
    plans = [_plan(one, 0, a_orders[0]), _plan(other, 0, a_orders[1])]
    b_moves = _plan(one, 1, rng.choice(ORDER_ACTION_LIST))
    steps = ["A"] * len(plans[0]) + ["B"] * len(b_moves) + ["probe"] * 3
    rng.shuffle(steps)
    watchers = [s.index for s in one.side_seats(1)] + [SPECTATOR]
    a_next = b_next = 0
    for step in steps:
        if one.state.phase != ORDERS or (one.orders_complete(0) and one.orders_complete(1)):
            break
        outcome.states += 1
        if _b_sees(one) != _b_sees(other):
            outcome.leaks.append(f"case {case}: views differ before step {step}")
        records = [[_record_answer(t, w) for w in watchers] for t in (one, other)]
        if records[0] != records[1]:
            outcome.leaks.append(f"case {case}: record answers differ")
        try:
            if step == "A":
                for table, plan in zip((one, other), plans, strict=True):
                    table.propose(*plan[a_next])
                a_next += 1
            elif step == "B":
                for table in (one, other):
                    table.propose(*b_moves[b_next])
                b_next += 1
            else:
                seat, probe = rng.choice(watchers[:-1]), rng.choice(_PROBES)
                if _probe(one, seat, probe) != _probe(other, seat, probe):
                    outcome.leaks.append(f"case {case}: probe {probe!r} answered differently")
        except TableRefusal as refusal:  # a planned move refused: the case is void
            outcome.leaks.append(f"case {case}: planned move refused: {refusal}")
            return outcome
    outcome.revealed = one.state.phase != ORDERS and _b_sees(one) != _b_sees(other)
    return outcome


@dataclass
class Totals:
    cases: int = 0
    empty: int = 0
    states: int = 0
    leaks: list[str] = field(default_factory=list)
    unrevealed: list[int] = field(default_factory=list)
    by_players: dict[int, int] = field(default_factory=dict)
    by_turn: dict[int, int] = field(default_factory=dict)

    def add(self, outcome: Outcome) -> None:
        self.cases += 1
        self.states += outcome.states
        self.leaks += outcome.leaks
        if outcome.states == 0:
            self.empty += 1
            return
        if not outcome.revealed:
            self.unrevealed.append(outcome.case)
        self.by_players[outcome.players] = self.by_players.get(outcome.players, 0) + outcome.states
        self.by_turn[outcome.turn] = self.by_turn.get(outcome.turn, 0) + outcome.states


def fuzz(target: int, workers: int, chunk: int = 20) -> tuple[Totals, float]:
    """Cases 0, 1, 2… on ``workers`` processes until ``target`` states are compared."""
    from tqdm import tqdm

    totals = Totals()
    started = time.perf_counter()
    with (
        multiprocessing.get_context("fork").Pool(workers) as pool,
        tqdm(total=target, unit="state", smoothing=0.05) as bar,
    ):
        for outcome in pool.imap_unordered(run_case, range(10**9), chunksize=chunk):
            totals.add(outcome)
            bar.update(outcome.states)
            if totals.states >= target:
                pool.terminate()
                break
    return totals, time.perf_counter() - started


def report(totals: Totals, seconds: float, workers: int, command: str) -> str:
    from bench_site import machine

    load = " / ".join(f"{x:.1f}" for x in os.getloadavg())
    players = ", ".join(f"{p} players {n:,}" for p, n in sorted(totals.by_players.items()))
    turns = ", ".join(f"{t}: {n:,}" for t, n in sorted(totals.by_turn.items()))
    met = not totals.leaks and not totals.unrevealed and totals.states >= TARGET_STATES
    leaks = "".join(f"\n- {leak}" for leak in totals.leaks[:10])
    return f"""# The secrets fuzz at scale (`benchmarks/bench_view_fuzz.py`)

- Date: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC
- Machine: {machine()}; load average at the end {load} (1/5/15 min: other work shares the cores)
- Command: `nice -n 10 .venv/bin/python {command}` ({workers} worker processes)

The property of `tests/akvo_site/tables/test_tables_secrecy.py` (40 examples in CI): two
tables in the same position, A programming different orders, give B's seats and the
spectator byte-identical views (labels, coach, board, public log), refusals and record
answers until both sides are complete. Each case reaches the orders of a random turn 1–{MAX_TURN}
by random play (so the views carry the history of earlier turns) and compares every
position of one random interleaving of A's moves, B's moves and B's probes.

| measure | value |
|---|---|
| states (positions) compared | {totals.states:,} |
| cases / cases whose match ended before the chosen turn | {totals.cases:,} / {totals.empty:,} |
| states by table size | {players} |
| states by turn | {turns} |
| leaks (views, refusals or record answers that differ) | {len(totals.leaks)} |
| cases where the reveal did not change B's views | {len(totals.unrevealed)} |
| time | {seconds:.0f} s ({totals.states / seconds:.0f} states/s) |

**Against the target** (0 leaks over 10⁵ random states including history and records):
{"met" if met else "NOT met"}.{leaks}
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--states", type=int, default=TARGET_STATES)
    parser.add_argument("--workers", type=int, default=2, choices=(1, 2))
    args = parser.parse_args()
    totals, seconds = fuzz(args.states, args.workers)
    command = "benchmarks/bench_view_fuzz.py" + (
        "" if args.states == TARGET_STATES else f" --states {args.states}"
    )
    if args.workers != 2:
        command += f" --workers {args.workers}"
    text = report(totals, seconds, args.workers, command)
    print(text)
    if args.states >= TARGET_STATES:
        RESULTS.write_text(text, encoding="utf-8")
        print(f"written to {RESULTS.relative_to(ROOT)}")
    if totals.leaks or totals.unrevealed:
        sys.exit(1)


if __name__ == "__main__":
    main()
