"""Replays the golden playthroughs in tests/golden/*.txt.

Format, one command per line (``#`` starts a comment line):

- setup (before ``start``): ``team A <preset>``, ``rules <variant>=<value>``,
  ``setup turn N``, ``setup row <side> <unit> <row>``, ``setup res <side> <character> <n>``,
  ``setup spent <side> <letters>``, ``setup used <side> <character>``,
  ``setup score <a> <b>``, ``setup bag <a> <b>``; then ``start``.
- ``do <action>``: apply a decision or a chance outcome (``roll 3516``, ``weather A``).
- checks: ``legal a | b | …`` (exact list, in order), ``count N`` (legal actions, or chance
  outcomes at a chance node), ``chance <outcome> <p>``, ``event <French sentence>`` (the
  next logged event with this exact text, in log order), ``row <side> <unit> <n>``,
  ``res <side> <character> <n>``, ``score <a> <b>``, ``player A|B|chance|terminal``,
  ``phase <name>``, ``turn N``, ``spent <side> <letters>``, ``result <A|B|draw> <reason>``.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from akvo.config import RulesConfig
from akvo.match import MatchState, replay
from akvo.match.phases import PHASE_OF_LABEL
from akvo.match.scenario import scenario

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
FILES = sorted(GOLDEN.glob("*.txt"))
PLAYERS = {"A": 0, "B": 1, "chance": -1, "terminal": -2}


def run_golden(path: Path) -> MatchState:
    teams = {"A": "perrockiss", "B": "fish-tank"}
    rules: dict[str, str] = {}
    setup: dict[str, Any] = {}
    state: MatchState | None = None
    cursor = 0
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        where = f"{path.name}:{number}: {line}"
        command, _, rest = line.partition(" ")
        words = rest.split()
        if state is None:
            if command == "team":
                teams[words[0]] = words[1]
            elif command == "rules":
                key, _, value = rest.partition("=")
                rules[key.strip()] = value.strip()
            elif command == "setup":
                _setup(setup, words)
            elif command == "start":
                state = scenario(teams["A"], teams["B"], RulesConfig(**rules), **setup)  # type: ignore[arg-type]
            else:
                raise AssertionError(f"{where}: unknown setup command")
            continue
        if command == "do":
            assert rest in state.legal_actions() or state.is_chance_node(), (
                f"{where}: not legal; legal: {state.legal_actions()}"
            )
            state.apply_action(rest)
        elif command == "legal":
            expected = tuple(a.strip() for a in rest.split("|"))
            assert state.legal_actions() == expected, f"{where}: got {state.legal_actions()}"
        elif command == "count":
            got = len(state.chance_outcomes() if state.is_chance_node() else state.legal_actions())
            assert got == int(rest), f"{where}: got {got}"
        elif command == "chance":
            outcome, probability = rest.rsplit(" ", 1)
            assert dict(state.chance_outcomes())[outcome] == Fraction(probability), where
        elif command == "event":
            found = [i for i in range(cursor, len(state.events)) if state.events[i] == rest]
            assert found, f"{where}: not among the new events {state.events[cursor:]}"
            cursor = found[0] + 1
        elif command == "row":
            side, unit, row = words
            got = state.row(side, unit)
            assert got == int(row), f"{where}: got {got}"
        elif command == "res":
            side, char, value = words
            got = state.resilience(side, char)
            assert got == int(value), f"{where}: got {got}"
        elif command == "score":
            assert state.scores == [int(words[0]), int(words[1])], f"{where}: {state.scores}"
        elif command == "player":
            assert state.current_player == PLAYERS[rest], f"{where}: {state.current_player}"
        elif command == "phase":
            assert state.phase_enum is PHASE_OF_LABEL[rest], f"{where}: got {state.phase_name()}"
        elif command == "turn":
            assert state.turn == int(rest), f"{where}: got {state.turn}"
        elif command == "spent":
            got = state.spent_letters(words[0])
            assert got == (words[1] if len(words) > 1 else ""), f"{where}: got {got}"
        elif command == "result":
            assert (state.result, state.reason) == (words[0], words[1]), (
                f"{where}: got {state.result} {state.reason}"
            )
        else:
            raise AssertionError(f"{where}: unknown command")
    assert state is not None, f"{path.name}: no 'start'"
    return state


def _setup(setup: dict[str, Any], words: list[str]) -> None:
    kind = words[0]
    if kind == "turn":
        setup["turn"] = int(words[1])
    elif kind == "row":
        setup.setdefault("rows", {}).setdefault(words[1], {})[words[2]] = int(words[3])
    elif kind == "res":
        setup.setdefault("resilience", {}).setdefault(words[1], {})[words[2]] = int(words[3])
    elif kind == "spent":
        setup.setdefault("spent", {})[words[1]] = words[2]
    elif kind == "used":
        setup.setdefault("ultimes_used", {}).setdefault(words[1], []).append(words[2])
    elif kind in ("score", "bag"):
        setup["scores" if kind == "score" else "bag"] = [int(words[1]), int(words[2])]
    else:
        raise AssertionError(f"unknown setup {words}")


def test_there_are_enough_golden_files() -> None:
    assert len(FILES) >= 6


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_golden_playthrough(path: Path) -> None:
    state = run_golden(path)
    assert replay(state.record()).to_json() == state.to_json()
