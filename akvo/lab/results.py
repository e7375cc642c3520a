"""The per-match results table of a simulation, exported to CSV and JSON (no pandas)."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from akvo.errors import AkvoError
from akvo.lab.coverage import USE_COLUMNS
from akvo.outputs import write_whole


class LabError(AkvoError):
    """A bad simulation request or a results file that cannot be read."""


#: The dice luck of a match (:class:`MatchResult`), in 1/1296 of a success (6⁴: exact).
#: Per target (a mage, then the chest): attack, defence, attack critical, defence critical.
LUCK_COLUMNS: tuple[str, ...] = tuple(
    f"luck_{kind}_{target}"
    for target in ("mage", "chest")
    for kind in ("attack", "defence", "attack_critical", "defence_critical")
)
#: One success in the luck columns' unit.
LUCK_UNIT = 1296
#: The dice luck weighted by what was at stake in each roll (:class:`MatchResult`): of
#: shots at the chest, then of shots at a mage per turn tier (what a push is worth changes
#: as the match goes on).
STAKE_COLUMNS: tuple[str, ...] = (
    *(
        f"stake_{kind}_chest"
        for kind in ("attack", "attack_critical", "defence", "defence_critical")
    ),
    *(
        f"stake_{kind}_mage_tier{tier}"
        for tier in (1, 2, 3, 4)
        for kind in ("attack", "attack_critical", "defence", "defence_critical")
    ),
)
#: A roll's weight is rounded to a millionth before the roll (so the columns are exact
#: integers): one success times a weight of 1 in the stake columns' unit.
STAKE_WEIGHT_UNIT = 10**6
STAKE_UNIT = LUCK_UNIT * STAKE_WEIGHT_UNIT


@dataclass(frozen=True, slots=True)
class MatchResult:
    """One simulated match.

    ``favoured`` lists the side favoured by the weather (activating first) turn by turn;
    ``first_edge`` is, summed over the turns, the points scored by the side activating first
    minus the points of the other side; runes and Ultimes count what each side used, and
    ``uses`` what the match used in detail, one count per column of
    :data:`~akvo.lab.coverage.USE_COLUMNS` (runes by kind and Ultimes per side, each
    variant's branch): exported as those columns. ``luck`` is side A's dice luck, one
    count per column of :data:`LUCK_COLUMNS` (exported as those), in 1/1296 of a success:
    over every roll and reroll of that kind (attack or defence, of a shot at a mage or at
    the chest), its success (1 or 0) minus its chance of success given the dice, modifier
    and threshold it had, for the side that rolled it, A's minus B's; the ``_critical``
    ones likewise for a critical success. Each face is uniform whatever led to its roll,
    so every such column has expectation exactly 0 under any reading. ``stakes``, one
    count per column of :data:`STAKE_COLUMNS`, in 1/:data:`STAKE_UNIT`: the same luck, each
    roll's multiplied by a weight fixed before the roll, what its success changes in A's
    match points by a cheap value of the match (:func:`akvo.lab.stats.roll_stakes`); a
    weight known before the roll keeps the expectation exactly 0. Control variates for a
    paired comparison (:func:`akvo.lab.stats.paired`).
    """

    index: int
    seed: int
    winner: str  # "A", "B" or "draw"
    score_a: int
    score_b: int
    reason: str  # "score", "half" or "draw" (R25)
    turns: int
    favoured: str
    first_edge: int
    runes_a: int
    runes_b: int
    ultimes_a: int
    ultimes_b: int
    luck: tuple[int, ...] = (0,) * len(LUCK_COLUMNS)
    uses: tuple[int, ...] = ()
    stakes: tuple[int, ...] = (0,) * len(STAKE_COLUMNS)

    def as_row(self) -> dict[str, Any]:
        """The match as one line of the table: ``{column: value}`` for :data:`COLUMNS`."""
        row: dict[str, Any] = {name: getattr(self, name) for name in _BASE_COLUMNS}
        row.update(zip(LUCK_COLUMNS, self.luck, strict=True))
        row.update(zip(STAKE_COLUMNS, self.stakes, strict=True))
        row.update(zip(USE_COLUMNS, self.uses, strict=True))
        return row

    def use(self, column: str) -> int:
        """One count of :attr:`uses` by its column name."""
        return self.uses[_USE_INDEX[column]]


_BASE_COLUMNS: tuple[str, ...] = tuple(
    f.name for f in fields(MatchResult) if f.name not in ("luck", "uses", "stakes")
)
#: The table's columns: the match, its luck, its luck weighted by the stakes, then what it
#: used (:data:`~akvo.lab.coverage.USE_COLUMNS`).
COLUMNS: tuple[str, ...] = (*_BASE_COLUMNS, *LUCK_COLUMNS, *STAKE_COLUMNS, *USE_COLUMNS)
_INT_COLUMNS = (
    {f.name for f in fields(MatchResult) if f.type in ("int", int)}
    | set(LUCK_COLUMNS)
    | set(STAKE_COLUMNS)
    | set(USE_COLUMNS)
)
_USE_INDEX = {name: i for i, name in enumerate(USE_COLUMNS)}
_LUCK_INDEX = {name: i for i, name in enumerate(LUCK_COLUMNS)}
_STAKE_INDEX = {name: i for i, name in enumerate(STAKE_COLUMNS)}


def _row(data: dict[str, Any]) -> MatchResult:
    if not any(c in data for c in LUCK_COLUMNS):  # a table from before the luck: none known
        data = {**data, **dict.fromkeys(LUCK_COLUMNS, 0)}
    if not any(c in data for c in STAKE_COLUMNS):  # from before the stakes: none known
        data = {**data, **dict.fromkeys(STAKE_COLUMNS, 0)}
    missing = [c for c in COLUMNS if c not in data]
    if missing:
        raise LabError(f"results row lacks column(s): {', '.join(missing)}")
    try:
        values: dict[str, Any] = {
            c: int(data[c]) if c in _INT_COLUMNS else str(data[c]) for c in COLUMNS
        }
    except (TypeError, ValueError) as error:
        raise LabError(f"results row has a bad value: {error}") from None
    luck = tuple(values.pop(c) for c in LUCK_COLUMNS)
    stakes = tuple(values.pop(c) for c in STAKE_COLUMNS)
    uses = tuple(values.pop(c) for c in USE_COLUMNS)
    return MatchResult(**values, luck=luck, uses=uses, stakes=stakes)


@dataclass(frozen=True)
class Results(Sequence[MatchResult]):
    """The matches of one simulation in index order, with what produced them.

    ``meta`` records the configuration (teams, bots, rules, seed); ``complete`` is False when
    the run was interrupted (the table then holds the matches that finished).
    """

    rows: tuple[MatchResult, ...]
    meta: dict[str, Any]
    complete: bool = True

    def __len__(self) -> int:
        return len(self.rows)

    def __getitem__(self, index: Any) -> Any:
        return self.rows[index]

    def __iter__(self) -> Iterator[MatchResult]:
        return iter(self.rows)

    def column(self, name: str) -> list[Any]:
        if name not in COLUMNS:
            raise LabError(f"unknown column {name!r}; columns: {', '.join(COLUMNS)}")
        if name in _USE_INDEX:
            return [row.use(name) for row in self.rows]
        if name in _LUCK_INDEX:
            return [row.luck[_LUCK_INDEX[name]] for row in self.rows]
        if name in _STAKE_INDEX:
            return [row.stakes[_STAKE_INDEX[name]] for row in self.rows]
        return [getattr(row, name) for row in self.rows]

    # --- export ----------------------------------------------------------------------------
    def to_csv(self, path: str | Path | None = None) -> str:
        """The table as CSV text (one header line, one line per match); written if ``path``
        (whole or not at all: :func:`akvo.outputs.write_whole`)."""
        out = io.StringIO()
        writer = csv.DictWriter(out, COLUMNS, lineterminator="\n")
        writer.writeheader()
        for row in self.rows:
            writer.writerow(row.as_row())
        text = out.getvalue()
        if path is not None:
            write_whole(Path(path), text)
        return text

    def to_json(self, path: str | Path | None = None) -> str:
        """``{"meta": …, "complete": …, "matches": [{column: value}, …]}``."""
        text = json.dumps(
            {
                "meta": self.meta,
                "complete": self.complete,
                "matches": [row.as_row() for row in self.rows],
            },
            ensure_ascii=False,
        )
        if path is not None:
            write_whole(Path(path), text)
        return text

    @classmethod
    def from_csv(cls, text: str, meta: dict[str, Any] | None = None) -> Results:
        reader = csv.DictReader(io.StringIO(text))
        return cls(tuple(_row(r) for r in reader), dict(meta or {}))

    @classmethod
    def from_json(cls, text: str) -> Results:
        try:
            data = json.loads(text)
            rows = tuple(_row(r) for r in data["matches"])
            return cls(rows, dict(data.get("meta", {})), bool(data.get("complete", True)))
        except (json.JSONDecodeError, KeyError, TypeError) as error:
            raise LabError(f"not a results JSON document: {error}") from None

    @classmethod
    def load(cls, path: str | Path) -> Results:
        path = Path(path)
        text = path.read_text(encoding="utf-8")
        return cls.from_json(text) if path.suffix == ".json" else cls.from_csv(text)

    def summary(self, method: str = "wilson") -> Any:
        """Win rates with 95 % intervals and more: see :func:`akvo.lab.stats.summarise`."""
        from akvo.lab.stats import summarise

        return summarise(self, method=method)


def paired_csv(readings: Sequence[tuple[str, Results]]) -> str:
    """Several simulations on the same seeds as one CSV table: a first column ``reading``
    naming each one's rows (``default``, ``variant``…), then :data:`COLUMNS`."""
    out = io.StringIO()
    writer = csv.DictWriter(out, ("reading", *COLUMNS), lineterminator="\n")
    writer.writeheader()
    for name, results in readings:
        for row in results:
            writer.writerow({"reading": name, **row.as_row()})
    return out.getvalue()
