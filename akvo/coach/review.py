"""The post-match review on the one valuation: stable verdicts, luck, the rating of play
and the annotated move list.

:func:`review` values every non-forced decision of a record with
:func:`akvo.coach.valuation.valuation` (the option chosen included), reads each loss with
its 95 % interval and a stable verdict (:mod:`akvo.coach.rating`), the luck of every roll
(:mod:`akvo.coach.luck`) and each side's rating. Outside the orders the values are exact
expectations over the dice: the verdicts there do not depend on the seed at all; at the
orders they rest on rollouts on common dice, with their interval. :func:`refine` values one
decision again with twice the budget (« Analyser plus finement »). The same record, budget
and seed give the same review, here or on Dask, from the API or ``akvo analyse``.
"""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final

from akvo.coach.budget import MAX_BUDGET
from akvo.coach.errors import CoachError
from akvo.coach.luck import Luck, match_luck, roller_of
from akvo.coach.rating import MARKS, UNSURE, VERDICT_NAMES, Rating, rating, stable_verdict
from akvo.coach.valuation import DEFAULT_BUDGET, Valuation, check_budget, valuation
from akvo.coach.words import action_words, capitalised, percent, points
from akvo.errors import excerpt, require_int
from akvo.extras import optional
from akvo.match.core import CHANCE
from akvo.match.phases import ORDERS
from akvo.match.state import MatchState, replay
from akvo.match.streams import mix

#: The retest of a loss at the orders: rollouts × this, on dice of the seed mixed with the
#: salt.
RETEST_FACTOR: Final = 4
RETEST_SALT: Final = 0x2E7E57
#: At the orders, a verdict's interval is widened from 95 % (z 1.96) to z 2.95: one-sided
#: 2.5 % shared over a match's ~16 orders decisions (Bonferroni).
ORDERS_WIDEN: Final = 2.95 / 1.96
#: Chunks per Dask worker (consecutive decisions: an even share, a moving bar).
CHUNKS_PER_WORKER: Final = 4
HEADER: Final = ("coup", "camp", "choix", "meilleur", "p_choix", "p_meilleur", "perte", "verdict")


@dataclass(frozen=True)
class Reviewed:
    """One decision: the position before action ``coup`` (1-based) of the record, the
    action ``chosen`` and the valuation of its options. ``retest``: at the orders, where
    the first valuation shows a loss, the best option and the choice valued again on fresh
    rollouts (:func:`retest_orders`); the loss is read from it."""

    coup: int
    turn: int
    side: int
    chosen: str
    values: Valuation
    retest: Valuation | None = None

    @property
    def best(self) -> str:
        return self.values.suggestion

    @property
    def loss_interval(self) -> tuple[float, float, float]:
        """(best − chosen, low, high): the loss and its 95 % interval (the retest's where
        there is one)."""
        judged = self.retest if self.retest is not None else self.values
        return judged.difference(self.best, self.chosen)

    @property
    def loss(self) -> float:
        """The win chance the choice lost, as the rating counts it: outside the orders the
        difference of two exact expectations (≥ 0); at the orders, whose values are means
        of rollouts, only a difference the paired interval shows (low > 0), else 0 — the
        best of a dozen noisy means looks better than it is (the winner's curse: 6 to 8
        points per orders decision of the greedy bot, measured, would drown the rating)."""
        loss, low, _ = self.loss_interval
        if self.values.method == "orders" and low <= 0:
            return 0.0
        return max(0.0, loss)

    @property
    def verdict(self) -> str | None:
        """The stable verdict of the loss. At the orders, both rollout estimates (the first
        valuation and the retest) must clear the threshold, each interval widened by
        :data:`ORDERS_WIDEN`: with 95 % intervals, 6 of 256 orders decisions were flagged
        under one seed of two and none under both — at a match's ~16 orders decisions,
        2.5 % one-sided each, about one false flag every few matches."""
        loss, low, _ = self.loss_interval
        if self.values.method == "orders":
            lows = [low, self.values.difference(self.best, self.chosen)[1]]
            low = min(loss - ORDERS_WIDEN * (loss - bound) for bound in lows)
        return stable_verdict(loss, low)

    @property
    def mark(self) -> str:
        """?!, ?, ?? (or '' when no verdict / uncertain)."""
        return MARKS.get(self.verdict or "", "")

    def explanation(self) -> str:
        """What happened here, in French, from the valuation's facts."""
        chosen, best = self.values[self.chosen], self.values[self.best]
        head = f"Coup {self.coup}, tour {self.turn}, camp {'AB'[self.side]} : {chosen.words}"
        if chosen.action == best.action:
            return f"{head} — le meilleur choix ({percent(chosen.p)} de chances de gagner)."
        loss, low, high = self.loss_interval
        text = (
            f"{head} laissait {percent(chosen.p)} de chances de gagner ; {best.words} en "
            f"laissait {percent(best.p)} ({points(loss)} de plus, entre {points(low)} et "
            f"{points(high)})"
        )
        verdict = self.verdict
        if verdict == UNSURE:
            return f"{text} : écart incertain, à analyser plus finement."
        if verdict is not None:
            return f"{text} : {verdict}. {capitalised(best.reason)}."
        return f"{text}."

    def to_dict(self) -> dict[str, Any]:
        loss, low, high = self.loss_interval
        return {
            "coup": self.coup,
            "turn": self.turn,
            "camp": "AB"[self.side],
            "chosen": self.chosen,
            "best": self.best,
            "loss": loss,
            "low": low,
            "high": high,
            "verdict": self.verdict,
            "mark": self.mark,
            "explanation": self.explanation(),
            "valuation": self.values.to_dict(),
        }


@dataclass(frozen=True, slots=True)
class Move:
    """One line of the annotated move list: a decision (with its mark and option table)
    or a chance event (with its luck for side A)."""

    coup: int
    turn: int
    side: int  # the side deciding, or the roller (−1: the weather)
    words: str
    mark: str = ""
    verdict: str | None = None
    luck_a: float | None = None
    options: tuple[dict[str, Any], ...] = ()
    lucky: str = ""  # "+" luckiest, "−" unluckiest of the match, for its side


@dataclass(frozen=True)
class Review:
    """A match reviewed (:func:`review`)."""

    decisions: tuple[Reviewed, ...]
    luck: Luck
    sides: tuple[int, ...]
    budget: int
    seed: int
    moves_words: tuple[tuple[int, int, int, str], ...]  # (coup, turn, side, words) of all
    record: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    def ratings(self) -> tuple[Rating, ...]:
        out = []
        for side in self.sides:
            rows = [row for row in self.decisions if row.side == side]
            out.append(rating(side, [row.loss for row in rows], [row.verdict for row in rows]))
        return tuple(out)

    def flagged(self) -> tuple[Reviewed, ...]:
        return tuple(row for row in self.decisions if row.verdict is not None)

    def decision(self, coup: int) -> Reviewed:
        for row in self.decisions:
            if row.coup == coup:
                return row
        raise CoachError(f"no analysed decision at coup {excerpt(coup)}")

    def position(self, coup: int) -> MatchState:
        """The position before action ``coup`` (1-based), to play another option from it
        (« Jouer l'autre option d'ici »)."""
        actions = self.record.get("actions", [])
        if not isinstance(coup, int) or not 1 <= coup <= len(actions):
            raise CoachError(f"coup must be 1–{len(actions)}, got {excerpt(coup)}")
        return replay({**self.record, "actions": actions[: coup - 1]}, log=False)

    def move_list(self) -> tuple[Move, ...]:
        """Every action of the match in order, decisions marked, rolls with their luck,
        the luckiest and unluckiest rolls of each side marked « + » / « − »."""
        by_coup = {row.coup: row for row in self.decisions}
        rolls = {roll.coup: roll for roll in self.luck.rolls}
        marked: dict[int, str] = {}
        for side in (0, 1):
            for roll in self.luck.luckiest(side):
                marked.setdefault(roll.coup, "+" if side == 0 else "−")
            for roll in self.luck.unluckiest(side):
                marked.setdefault(roll.coup, "−" if side == 0 else "+")
        out = []
        for coup, turn, side, words in self.moves_words:
            row = by_coup.get(coup)
            found = rolls.get(coup)
            if row is not None:
                options = tuple(
                    {
                        "words": o.words,
                        "p": o.p,
                        "low": o.low,
                        "high": o.high,
                        "chosen": o.action == row.chosen,
                        "best": o.action == row.best,
                        "reason": o.reason,
                    }
                    for o in row.values
                )
                out.append(Move(coup, turn, side, words, row.mark, row.verdict, options=options))
            elif found is not None:
                out.append(
                    Move(coup, turn, side, words, luck_a=found.luck, lucky=marked.get(coup, ""))
                )
            else:
                out.append(Move(coup, turn, side, words))
        return tuple(out)

    def to_text(self) -> str:
        """The table (tab-separated, :data:`HEADER`), then each side's rating and luck."""
        lines = ["\t".join(HEADER)]
        for row in self.decisions:
            loss, _, _ = row.loss_interval
            chosen, best = row.values[row.chosen], row.values[row.best]
            lines.append(
                "\t".join(
                    (
                        str(row.coup),
                        "AB"[row.side],
                        chosen.words,
                        best.words,
                        f"{chosen.p:.3f} [{chosen.low:.3f}, {chosen.high:.3f}]",
                        f"{best.p:.3f} [{best.low:.3f}, {best.high:.3f}]",
                        f"{loss:.3f}",
                        row.verdict or "-",
                    )
                )
            )
        lines.append("")
        lines += [r.sentence() for r in self.ratings()]
        lines += [self.luck.sentence(side) for side in self.sides]
        return "\n".join(lines) + "\n"

    def to_dict(self) -> dict[str, Any]:
        return {
            "budget": self.budget,
            "seed": self.seed,
            "sides": ["AB"[s] for s in self.sides],
            "ratings": [r.to_dict() for r in self.ratings()],
            "luck": self.luck.to_dict(),
            "decisions": [row.to_dict() for row in self.decisions],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=1)


# --- the positions of a record --------------------------------------------------------------


def positions(record: dict[str, Any]) -> Iterator[tuple[int, MatchState, str]]:
    """(index, the live state before it, the action) for every action of the record."""
    state = replay({**record, "actions": []}, log=False)
    for index, action in enumerate(record["actions"]):
        yield index, state, action
        state.apply_action(action)


def review_decision(state: MatchState, action: str, index: int, budget: int, seed: int) -> Reviewed:
    """One decision valued (the chosen option among those valued)."""
    asked = [action] if state.phase == ORDERS else None  # added to the expert's candidates
    values = valuation(state, budget=budget, seed=seed, actions=asked)
    retest = None
    if values.method == "orders" and values.difference(values.suggestion, action)[1] > 0:
        retest = retest_orders(state, values, action)
    return Reviewed(index + 1, state.turn, state.player, action, values, retest)


def retest_orders(state: MatchState, values: Valuation, chosen: str) -> Valuation:
    """The orders valued again with :data:`RETEST_FACTOR` times the rollouts on other dice
    (the seed mixed with :data:`RETEST_SALT`), the same candidates: the best option was
    picked as the largest of noisy means, so its own rollouts flatter it (the winner's
    curse); its difference with the choice is read from rollouts that did not pick it."""
    return valuation(
        state,
        budget=min(RETEST_FACTOR * values.budget, MAX_BUDGET),
        seed=mix((values.seed ^ RETEST_SALT) & ((1 << 64) - 1)) >> 1,
        actions=[o.action for o in values] + [chosen],
    )


def review_chunk(
    record: dict[str, Any], indices: Sequence[int], budget: int, seed: int
) -> list[Reviewed]:
    """The decisions at these action indices of a checked record (a worker's task)."""
    wanted = set(indices)
    last = max(wanted, default=-1)
    out = []
    for index, state, action in positions(record):
        if index in wanted:
            out.append(review_decision(state, action, index, budget, seed))
        if index >= last:
            break
    return out


def chunks(indices: Sequence[int], count: int, length: int) -> list[list[int]]:
    """``indices`` (increasing action indices) cut into at most ``count`` runs of
    consecutive decisions of about even work, a Dask worker's task each: a decision weighs
    the rest of the match after it (``length`` actions in all; the orders' rollouts play
    that) plus a tenth of a match (its own work: options, intervals)."""
    if not indices:
        return []
    count = max(1, min(count, len(indices)))
    weights = [length - index + length // 10 + 1 for index in indices]
    share = sum(weights) / count
    out: list[list[int]] = [[]]
    done = 0.0
    for index, weight in zip(indices, weights, strict=True):
        if out[-1] and done >= share * len(out) and len(out) < count:
            out.append([])
        out[-1].append(index)
        done += weight
    return out


def _sides(side: object) -> tuple[int, ...]:
    if side is None:
        return (0, 1)
    if side in ("A", "B"):
        return ("AB".index(str(side)),)
    raise CoachError(f"side must be 'A', 'B' or None (both), got {excerpt(side)}")


def review(
    record: object,
    *,
    side: object = None,
    budget: object = DEFAULT_BUDGET,
    seed: object = 0,
    workers: int | None = 0,
    client: Any = None,
    scheduler: str | None = None,
    progress: bool | None = None,
) -> Review:
    """Review a match record (see the module): ``side`` "A", "B" or None (both),
    ``budget`` (:func:`akvo.coach.valuation.check_budget`), ``seed`` of the orders'
    rollouts; ``workers=0`` here, else a Dask LocalCluster of that many workers (None: one
    per core), or ``client``/``scheduler``. A record that is not a valid match raises the
    engine's :class:`~akvo.errors.RecordError`; bad options :class:`CoachError`."""
    sides = _sides(side)
    level = check_budget(budget)
    master = require_int("seed", seed, CoachError)
    replay(record, log=False)  # checks the record
    assert isinstance(record, dict)
    words: list[tuple[int, int, int, str]] = []
    indices: list[int] = []
    for index, state, action in positions(record):
        player = state.player
        if player == CHANCE:
            roller = roller_of(state)
            words.append((index + 1, state.turn, roller, action_words(action, 0, state.rules)))
            continue
        words.append((index + 1, state.turn, player, action_words(action, player, state.rules)))
        if player in sides and len(state.legal) > 1:
            indices.append(index)
    rows = _run(record, indices, level, master, workers, client, scheduler, progress)
    rows.sort(key=lambda row: row.coup)
    return Review(tuple(rows), match_luck(record), sides, level, master, tuple(words), record)


def _run(
    record: dict[str, Any],
    indices: list[int],
    budget: int,
    seed: int,
    workers: int | None,
    client: Any,
    scheduler: str | None,
    progress: bool | None,
) -> list[Reviewed]:
    show = sys.stderr.isatty() if progress is None else progress
    bar = None
    if show:
        bar = optional("tqdm").tqdm(total=len(indices), unit="décision", file=sys.stderr)
    try:
        if workers == 0 and client is None and scheduler is None:
            rows = []
            for row in review_chunk(record, indices, budget, seed):
                rows.append(row)
            if bar is not None:
                bar.update(len(rows))
            return rows
        from akvo.lab.run import dask_client

        distributed: Any = importlib.import_module("distributed")
        with dask_client(workers, client, scheduler) as dask:
            count = max(1, len(dask.scheduler_info().get("workers", {})))
            parts = chunks(indices, count * CHUNKS_PER_WORKER, len(record["actions"]))
            futures = [
                dask.submit(review_chunk, record, part, budget, seed, pure=False) for part in parts
            ]
            rows = []
            for future in distributed.as_completed(futures):
                batch = future.result()
                rows.extend(batch)
                if bar is not None:
                    bar.update(len(batch))
            return rows
    finally:
        if bar is not None:
            bar.close()


def refine(done: Review, record: object, coup: int) -> Review:
    """« Analyser plus finement »: the decision at ``coup`` valued again with twice its
    budget; the rest of the review unchanged."""
    row = done.decision(coup)
    assert isinstance(record, dict)
    for index, state, _action in positions(record):
        if index == coup - 1:
            again = row.values.refined(state)
            retest = None
            if again.method == "orders" and again.difference(again.suggestion, row.chosen)[1] > 0:
                retest = retest_orders(state, again, row.chosen)
            rows = tuple(
                replace(r, values=again, retest=retest) if r.coup == coup else r
                for r in done.decisions
            )
            return replace(done, decisions=rows)
    raise CoachError(f"no decision at coup {excerpt(coup)} in this record")


__all__ = [
    "HEADER",
    "VERDICT_NAMES",
    "Move",
    "Review",
    "Reviewed",
    "chunks",
    "refine",
    "review",
    "review_chunk",
]
