"""The calculators' settings are traits (akvo_widgets.kit.calculator): ``rules`` can change after
a calculator is built, and its result follows, observably, exactly as if it had been built
with those rules."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from akvo.config import DEFAULT_RULES, RulesConfig
from akvo.errors import RulesError
from akvo_widgets.kit.calculator import Calculator
from akvo_widgets.learn.duel import RuneDuel
from akvo_widgets.learn.matrix import WindMatrix
from akvo_widgets.learn.roll import RollCalculator
from akvo_widgets.learn.shot import ShotCalculator

ALL_DICE = RulesConfig(prodige="all")  # R13: changes every roll of fewer than 4 dice
#: Each calculator, built where the prodige variant changes its result, and its result trait
#: (the rune duel's payoffs are chances to push: no prodige in them, the same either way).
CALCULATORS: dict[str, tuple[Callable[..., Calculator], str]] = {
    "roll": (lambda **kw: RollCalculator(12, dice=3, **kw), "odds"),
    "shot": (lambda **kw: ShotCalculator("mage", 3, 2, **kw), "odds"),
    "matrix": (lambda **kw: WindMatrix("mage", **kw), "grid"),
}


@pytest.mark.parametrize("name", CALCULATORS)
def test_changing_the_rules_recomputes_the_result_observably(name: str) -> None:
    build, result = CALCULATORS[name]
    calculator = build()
    before = getattr(calculator, result)
    seen: list[Any] = []
    calculator.observe(lambda change: seen.append(change["new"]), names=result)
    calculator.rules = ALL_DICE
    after = getattr(calculator, result)
    assert after == getattr(build(rules=ALL_DICE), result) != before
    assert seen and seen[-1] == after
    calculator.rules = DEFAULT_RULES
    assert getattr(calculator, result) == before


def test_the_rune_duel_follows_its_rules_too() -> None:
    duel = RuneDuel("mage", 3, 2)
    duel.rules = ALL_DICE
    assert duel.rules == ALL_DICE and duel.duel == RuneDuel("mage", 3, 2, rules=ALL_DICE).duel
    with pytest.raises(RulesError):
        duel.rules = "prodige=all"


@pytest.mark.parametrize("name", CALCULATORS)
def test_a_calculator_refuses_rules_that_are_not_a_rules_config(name: str) -> None:
    build, result = CALCULATORS[name]
    calculator = build()
    before = getattr(calculator, result)
    for bad in ("prodige=all", {"prodige": "all"}, None):
        with pytest.raises(RulesError, match="rules"):
            calculator.rules = bad
    assert calculator.rules == DEFAULT_RULES and getattr(calculator, result) == before


def test_the_rune_duel_computes_every_distance_of_its_first_situation_when_built(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from akvo import duel as engine
    from akvo.rules import tier_for_turn
    from akvo_widgets.learn import duel as widget

    asked: list[tuple[Any, ...]] = []
    real = engine.rune_duel

    def recorded(*args: Any, **kwargs: Any) -> Any:
        asked.append((*args, kwargs["rules"]))
        return real(*args, **kwargs)

    monkeypatch.setattr(widget.engine, "rune_duel", recorded)
    tier = tier_for_turn(5)
    duel = RuneDuel("chest", 5, 2, rules=ALL_DICE)
    assert {a for a in asked if a[2] != 2} == {("chest", tier, d, ALL_DICE) for d in (1, 3, 4)}
    asked.clear()
    duel.distance.value = 4  # the reader's first move: the engine's caches are warm
    assert asked == [("chest", tier, 4, ALL_DICE)]
    assert duel.duel == real("chest", tier, 4, interception_distance=1, rules=ALL_DICE)
