"""akvo_widgets — the book's live widgets, thin ipywidgets/bqplot views over :mod:`akvo`.

Runs in the pages' kernels. The folders say where a page lives: ``learn/``, ``play/``,
``design/`` and ``reference/`` are the book's four parts (they never import one another);
below them ``board/`` (the live board), ``kit/`` (ipywidgets building blocks) and ``text/``
(French wording of the engine's facts, no UI library); :mod:`akvo_widgets.chapters` is the
book's manifest. A notebook imports its page classes from here::

    from akvo_widgets import RollCalculator

They are imported lazily, so a page that shows only a roll calculator does not pay for the
shot or duel modules (scipy, bqplot marks it does not use), and the server
(:mod:`akvo_site`) can read :mod:`akvo_widgets.text` without ipywidgets.
"""

from __future__ import annotations

import importlib
from typing import Any

#: Every page class of the book, by the module that defines it.
_LAZY = {
    "Board": "akvo_widgets.board.widget",
    # Apprendre à jouer
    "RollCalculator": "akvo_widgets.learn.roll",
    "ShotCalculator": "akvo_widgets.learn.shot",
    "WindMatrix": "akvo_widgets.learn.matrix",
    "RuneDuel": "akvo_widgets.learn.duel",
    "TeamSharing": "akvo_widgets.learn.sharing",
    "TeamBuilder": "akvo_widgets.learn.team_builder",
    "TurnStepper": "akvo_widgets.learn.stepper",
    "MovementLab": "akvo_widgets.learn.positions",
    "EndOfMatch": "akvo_widgets.learn.positions",
    "UltimeScenes": "akvo_widgets.learn.ultimes",
    # Jouer
    "Tutorial": "akvo_widgets.play.tutorial",
    "MatchGame": "akvo_widgets.play.game",
    "ReplayViewer": "akvo_widgets.play.replay",
    "Exercises": "akvo_widgets.play.exercises",
    # Pour les concepteurs
    "Lab": "akvo_widgets.design.lab",
    "RoundRobin": "akvo_widgets.design.lab",
    "Balance": "akvo_widgets.design.lab",
    "VariantSwitch": "akvo_widgets.design.variants",
    # Référence
    "AideMemoire": "akvo_widgets.reference.aide_memoire",
    "TermFinder": "akvo_widgets.reference.glossary",
    "ConcordanceBrowser": "akvo_widgets.reference.concordance",
    "DuelCalculator": "akvo_widgets.reference.siblings",
    "PirateShip": "akvo_widgets.reference.siblings",
    "WallTest": "akvo_widgets.reference.siblings",
}

__all__ = sorted(_LAZY)


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'akvo_widgets' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
