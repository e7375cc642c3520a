"""The base of the book's calculators: settings are traits, results are observable.

A calculator (the shot, roll, matrix and duel widgets) is built with ``rules=`` and its
controls; afterwards ``calculator.rules = other`` recomputes it at once, as a control's
change does, and its result (``odds``, ``grid``: a trait of the subclass) can be observed
with ``calculator.observe(callback, names="odds")`` — as the board redraws when its
``state`` is set.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import ipywidgets as w
import traitlets

from akvo.config import DEFAULT_RULES, RulesConfig
from akvo.errors import RulesError, require_instance


class RulesTrait(traitlets.TraitType[RulesConfig, RulesConfig]):
    """A :class:`~akvo.config.RulesConfig` setting; anything else gets the engine's
    :class:`~akvo.errors.RulesError` naming it, and the calculator keeps its rules."""

    default_value = DEFAULT_RULES
    info_text = "a RulesConfig"

    def validate(self, obj: Any, value: Any) -> RulesConfig:
        return require_instance("rules", value, RulesConfig, RulesError)


class Calculator(w.VBox):
    """A calculator's settings and its refresh: subclasses compute in :meth:`_update`,
    call :meth:`watch` with their controls once built, and declare their result as a
    trait (``odds = traitlets.Any(None, allow_none=True)``)."""

    rules = RulesTrait()
    _built = False

    @traitlets.observe("rules")
    def _rules_changed(self, _change: Any) -> None:
        if self._built:
            self._update()

    def watch(self, controls: Iterable[Any]) -> None:
        """Recompute whenever one of ``controls`` changes; then compute once."""
        for control in controls:
            control.observe(self._update, names="value")
        self._built = True
        self._update()

    def _update(self, _change: Any = None) -> None:
        raise NotImplementedError
