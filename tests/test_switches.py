"""The rules switches' registry (akvo.switches): each switch is complete, and the engine
counts its moments in play at the one place the registry names."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from akvo.concordance import resolve
from akvo.config import CHOICES, RulesConfig
from akvo.lab.coverage import COUNTED, UNCOUNTED, use_label
from akvo.match.core import SWITCH_SLOT
from akvo.match.schema import USES_LENGTH
from akvo.match.state import MatchState, new_match
from akvo.switches import RULINGS, SWITCHES, rules_help
from akvo.variants import VARIANT_RULINGS

ROOT = Path(__file__).resolve().parents[1]
RULINGS_DOC = (ROOT / "docs" / "rulings.md").read_text(encoding="utf-8")
CALL = re.compile(r"rule_played\(s, \"(\w+)\"\)")


def _function_source(reference: str) -> str:
    """The source text of an engine function named ``module:function`` (read from its .py
    file: a compiled function has no source of its own)."""
    module, _, name = reference.partition(":")
    path = ROOT / (module.replace(".", "/") + ".py")
    text = path.read_text(encoding="utf-8")
    for node in ast.parse(text).body:
        if isinstance(node, ast.FunctionDef) and node.name == name:
            return ast.get_source_segment(text, node) or ""
    raise AssertionError(f"{reference}: no such function")


def test_every_variant_of_the_config_has_one_switch_in_the_config_order() -> None:
    assert tuple(SWITCHES) == tuple(CHOICES)
    assert dict(RULINGS) == dict(VARIANT_RULINGS)


@pytest.mark.parametrize("field", list(CHOICES))
def test_each_switch_is_complete(field: str) -> None:
    switch = SWITCHES[field]
    assert switch.options == CHOICES[field] and switch.options[0] == getattr(RulesConfig(), field)
    assert len(switch.readings) == len(set(switch.readings)) == len(switch.options)
    assert all(label.strip() and label == label.strip() for label in switch.readings)
    assert switch.reading(switch.options[1]) == switch.readings[1]
    assert f"### {switch.ruling} — " in RULINGS_DOC  # a ruling of docs/rulings.md
    assert f"Config field `{field}`" in RULINGS_DOC
    assert switch.played.startswith(f"{switch.ruling} : ")  # the lab's label names it
    assert use_label(f"rule_{field}") == switch.played
    assert field in COUNTED and field not in UNCOUNTED


@pytest.mark.parametrize("field", list(CHOICES))
def test_each_switch_is_counted_in_the_engine_function_it_names(field: str) -> None:
    reference = SWITCHES[field].counted_in
    assert reference.startswith("akvo.match.")
    assert callable(resolve(reference))
    assert CALL.findall(_function_source(reference)) == [field]


def test_no_switch_is_counted_anywhere_else() -> None:
    calls = [
        name
        for path in sorted((ROOT / "akvo").rglob("*.py"))
        for name in CALL.findall(path.read_text(encoding="utf-8"))
    ]
    assert sorted(calls) == sorted(CHOICES)  # once each, and only declared switches
    assert set(SWITCH_SLOT) == set(CHOICES)


def test_the_command_line_help_lists_every_switch_and_option() -> None:
    text = rules_help()
    for field, switch in SWITCHES.items():
        assert f"{field} ({switch.ruling}: {'|'.join(switch.options)})" in text


def test_a_copy_keeps_the_counts_and_a_loaded_state_starts_them_at_zero() -> None:
    state = new_match("perrockiss", "fish-tank", RulesConfig(weather="coin"), log=False)
    state.apply_action("weather A")  # turn 1 from the coin: A favoured once
    assert len(state.uses) == USES_LENGTH and sum(state.uses) == 1
    copy = state.child(state.legal_actions()[0])
    assert copy.uses == state.uses and copy.uses is not state.uses
    loaded = MatchState.from_json(state.to_json())
    assert loaded.uses == [0] * USES_LENGTH
    loaded.apply_action(loaded.legal_actions()[0])  # the engine counts on a loaded state


@pytest.mark.parametrize("command", [["simulate"], ["tournament"], ["odds", "mage"]])
def test_the_command_lines_rules_help_is_the_registrys(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    from akvo.cli import main

    assert main([*command, "--help"]) == 0
    shown = " ".join(capsys.readouterr().out.split())
    assert " ".join(rules_help().split()) in shown
