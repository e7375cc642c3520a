"""Positions from real play for « Exercices »: matches between the ladder's bots, kept in a file.

The exercises ask about positions a reader could meet: a decision in a match between two of
the ladder's bots (« débutant », « facile », « normal », « fort », « expert »,
:data:`akvo.bots.LADDER`), each played with the options the ladder gives it, on seeded dice.
« expert » costs one to two minutes a match on a loaded machine and « fort » a few seconds,
so the matches are played once, by a seeded command, and kept in :data:`MATCHES_FILE` (each
match's bots, seeds and record)::

    .venv/bin/python -m akvo_widgets.play.ladder_positions --write

The mix (:func:`pairings`): every pairing of the four cheaper levels, themselves included,
:data:`CHEAP_MATCHES` times with the seats swapped each time (40 matches), and « expert »
against each level :data:`EXPERT_MATCHES` time, its seat alternating from level to level (5
matches). An exercise replays one kept match (:func:`decision_nodes`) and takes one of its
decisions. A change in a level's play makes the kept matches stale: play them again.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement
from pathlib import Path
from typing import Any, Final

from akvo.bots import LADDER, REGISTRY, make_bot
from akvo.match import MatchState, decisions, new_match, replay

#: The kept matches, written by :func:`main` (``--write``), shipped with the package.
MATCHES_FILE: Final = Path(__file__).resolve().parent / "ladder_matches.json"
COMMAND: Final = ".venv/bin/python -m akvo_widgets.play.ladder_positions --write"
SEED: Final = 36
#: Matches per pairing of two levels cheaper than « expert » (seats swapped each time).
CHEAP_MATCHES: Final = 4
#: Matches of « expert » against each level, itself included (one to two minutes each on
#: a loaded machine), its seat alternating from level to level.
EXPERT_MATCHES: Final = 1
EXPERT: Final = "expert"


@dataclass(frozen=True)
class KeptMatch:
    """One kept match: the engine names of its bots (side A, side B), their seeds, the dice
    seed and its record (:meth:`akvo.match.MatchState.record`)."""

    bots: tuple[str, str]
    seeds: tuple[int, int]
    dice: int
    record: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {
            "bots": list(self.bots),
            "seeds": list(self.seeds),
            "dice": self.dice,
            "record": self.record,
        }

    @property
    def actions(self) -> list[str]:
        return list(self.record["actions"])


def pairings() -> list[tuple[str, str]]:
    """The (side A, side B) bots of every kept match, in order (see the module)."""
    cheap = [name for name in LADDER if name != EXPERT]
    games: list[tuple[str, str]] = []
    for one, other in combinations_with_replacement(cheap, 2):
        games += [(one, other) if i % 2 == 0 else (other, one) for i in range(CHEAP_MATCHES)]
    for index, level in enumerate(LADDER):
        for i in range(EXPERT_MATCHES):
            games.append((EXPERT, level) if (index + i) % 2 == 0 else (level, EXPERT))
    return games


def ladder_bot(name: str, seed: int) -> Any:
    """A bot of the ladder, with the options the ladder plays it with."""
    return make_bot(name, seed, **REGISTRY[name].ladder_options)


def play(bots: tuple[str, str], seeds: tuple[int, int], dice: int) -> MatchState:
    """One match between two ladder bots on seeded dice, to the end."""
    state = new_match()
    pair = (ladder_bot(bots[0], seeds[0]), ladder_bot(bots[1], seeds[1]))
    for _node in decisions(state, random.Random(dice), pair):
        pass
    return state


def generate(seed: int = SEED, progress: bool = True) -> list[KeptMatch]:
    """Every match of :func:`pairings`, its seeds drawn from ``seed``."""
    rng = random.Random(seed)
    kept = []
    games = pairings()
    for index, bots in enumerate(games, 1):
        seeds = (rng.randrange(1 << 30), rng.randrange(1 << 30))
        dice = rng.randrange(1 << 30)
        state = play(bots, seeds, dice)
        kept.append(KeptMatch(bots, seeds, dice, state.record()))
        if progress:
            print(f"{index}/{len(games)} {bots[0]} – {bots[1]}: {state.result}", file=sys.stderr)
    return kept


@cache
def kept_matches() -> tuple[KeptMatch, ...]:
    """The matches kept in :data:`MATCHES_FILE`."""
    data = json.loads(MATCHES_FILE.read_text(encoding="utf-8"))
    return tuple(
        KeptMatch(tuple(m["bots"]), tuple(m["seeds"]), m["dice"], m["record"])  # type: ignore[arg-type]
        for m in data["matches"]
    )


def decision_nodes(match: KeptMatch) -> Iterator[MatchState]:
    """Every decision of a kept match, replayed from its record: the live state just before
    the side to play chose (read it, or ``copy()`` it to keep it)."""
    record = match.record
    state = replay({**record, "actions": []})
    for action in record["actions"]:
        if state.player >= 0:
            yield state
        state.apply_action(action)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m akvo_widgets.play.ladder_positions",
        description="Play the ladder matches « Exercices » draws its positions from.",
    )
    parser.add_argument("--write", action="store_true", help=f"write {MATCHES_FILE.name}")
    parser.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args(argv)
    matches = generate(args.seed)
    command = COMMAND + ("" if args.seed == SEED else f" --seed {args.seed}")
    head = json.dumps({"command": command, "seed": args.seed}, ensure_ascii=False)[:-1]
    lines = ",\n".join(json.dumps(m.to_json(), separators=(",", ":")) for m in matches)
    text = f'{head}, "matches": [\n{lines}\n]}}'  # one match a line: readable diffs
    if args.write:
        MATCHES_FILE.write_text(text + "\n", encoding="utf-8")
    else:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
