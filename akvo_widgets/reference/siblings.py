"""The sibling games' dice (annex page): Vague Attaque's duels and pirate ship, Akeruption's
walls — thin views over :mod:`akvo.siblings`, plus the worked examples of the page."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import ipywidgets as w
from IPython.display import Markdown

from akvo.siblings import (
    MATERIALS,
    MAX_SHIP_TURNS,
    SHIP_EFFECTS,
    DuelOdds,
    LieuReading,
    Material,
    ShipForecast,
    WallOdds,
    expected_tests_survived,
    lieu_duel,
    pirate_ship_die,
    pirate_ship_forecast,
    souvenir_duel,
    wall_survival,
    wall_test,
)
from akvo_widgets.kit import controls as c
from akvo_widgets.text.formatting import decimal, fraction, french, percent

DUEL_CHOICES: tuple[tuple[str, str], ...] = (
    ("Un Souvenir : un lancer", "souvenir"),
    ("Un Lieu : trois lancers, égalités sans suite", "sans-suite"),
    ("Un Lieu : trois lancers, égalités rejouées", "rejouer"),
)
SHIP_LABELS = {
    "perte-exploration": "Défausse 1 carte de ta zone d’exploration",
    "rien": "Rien ne se passe",
    "perte-main": "Défausse 1 carte de ta main",
    "perte-lieu": "Défausse la carte du dessus de la pioche Lieu",
    "repos": "Le Bateau ne joue pas au prochain tour",
}
MATERIAL_LABELS = {
    "paille": "Mur en paille (+0)",
    "bois": "Mur en bois (+1)",
    "pierre": "Mur en pierre (+2)",
}


def _cell(p: Any, css: str) -> list[str]:
    return [c.cell(percent(p), css), c.cell(fraction(p), f"akvo-fraction {css}-fraction")]


def duel_odds(choice: str) -> DuelOdds:
    """The engine's odds for a choice of :data:`DUEL_CHOICES`."""
    if choice == "souvenir":
        return souvenir_duel()
    reading: LieuReading = "rejouer" if choice == "rejouer" else "sans-suite"
    return lieu_duel(reading)


class _OddsView(w.VBox):
    """A few controls and the odds they give, recomputed whenever one of them changes:
    subclasses build their controls, then call :meth:`_build`, and fill :meth:`_update`."""

    def _build(self, controls: list[Any], css: str) -> None:
        self.result = c.html("akvo-odds")
        super().__init__([c.panel([*controls, self.result], css)])
        for control in controls:
            control.observe(self._update, names="value")
        self._update()

    def _update(self, _change: Any = None) -> None:
        raise NotImplementedError


def duel_table(odds: DuelOdds) -> str:
    rows = [
        [c.cell("L’attaquant gagne"), *_cell(odds.win, "akvo-va-win")],
        [c.cell("Égalité, sans conséquence"), *_cell(odds.tie, "akvo-va-tie")],
        [c.cell("L’attaquant perd"), *_cell(odds.lose, "akvo-va-lose")],
    ]
    return c.table(["Issue", "Chance", "Fraction exacte"], rows)


class DuelCalculator(_OddsView):
    """Vague Attaque: a duel for a Souvenir or a Lieu (with the tie reading) → its odds."""

    def __init__(self, choice: str = "souvenir") -> None:
        self.target = c.dropdown("Duel pour", DUEL_CHOICES, choice, "akvo-va-target")
        self._build([self.target], "akvo-va-duel")

    def _update(self, _change: Any = None) -> None:
        self.odds = duel_odds(self.target.value)
        self.result.value = duel_table(self.odds)


def ship_table(forecast: ShipForecast) -> str:
    die = pirate_ship_die()
    rows = [
        [
            c.cell(french(SHIP_LABELS[e])),
            *_cell(die[e], f"akvo-ship-{e}"),
            c.cell(decimal(forecast.expected[e], 2), f"akvo-ship-expected-{e}"),
        ]
        for e in SHIP_EFFECTS
    ]
    table = c.table(["Effet du dé", "À chaque jet", "Fraction", "Fois en moyenne"], rows)
    none_lost = forecast.losses.get(0, Fraction(0))
    lost_two = sum((p for n, p in forecast.losses.items() if n >= 2), Fraction(0))
    summary = french(
        f"<p>Sur tes {forecast.turns} prochains tours : aucune carte perdue (main ou zone "
        f"d’exploration) <b class='akvo-ship-none-lost'>{percent(none_lost)}</b> "
        f"({fraction(none_lost)}) ; au moins deux cartes perdues "
        f"<b class='akvo-ship-two-lost'>{percent(lost_two)}</b> ({fraction(lost_two)}).</p>"
    )
    return table + summary


class PirateShip(_OddsView):
    """Vague Attaque solo: the pirate ship's die over the player's next turns."""

    def __init__(self, turns: int = 4) -> None:
        self.turns = c.slider("Tours à venir", 1, MAX_SHIP_TURNS, turns, "akvo-ship-turns")
        self._build([self.turns], "akvo-ship")

    def _update(self, _change: Any = None) -> None:
        self.forecast = pirate_ship_forecast(self.turns.value)
        self.result.value = ship_table(self.forecast)


def wall_table(odds: WallOdds, tests: int) -> str:
    standing = wall_survival(odds.material, tests)
    rows = [
        [c.cell("Le mur résiste"), *_cell(odds.holds, "akvo-wall-holds")],
        [c.cell("La lave détruit le mur"), *_cell(odds.destroyed, "akvo-wall-destroyed")],
        [
            c.cell(f"Debout après {tests} test{'s' if tests > 1 else ''}"),
            *_cell(standing, "akvo-wall-standing"),
        ],
    ]
    mean = expected_tests_survived(odds.material)
    note = french(
        f"<p>Un mur neuf de ce matériau passe en moyenne "
        f"<b class='akvo-wall-mean'>{decimal(mean, 2)}</b> test(s) avant de tomber.</p>"
    )
    return c.table(["Test de résistance", "Chance", "Fraction exacte"], rows) + note


class WallTest(_OddsView):
    """Akeruption: a wall's resistance test (lava die vs wall die + bonus, ties to the lava)."""

    def __init__(self, material: Material = "paille", tests: int = 3) -> None:
        options = [(MATERIAL_LABELS[m], m) for m in MATERIALS]
        self.material = c.dropdown("Mur", options, material, "akvo-wall-material")
        self.tests = c.slider("Tests de suite", 1, 10, tests, "akvo-wall-tests")
        self._build([self.material, self.tests], "akvo-wall")

    def _update(self, _change: Any = None) -> None:
        self.odds = wall_test(self.material.value)
        self.result.value = wall_table(self.odds, self.tests.value)


def _md(text: str) -> Markdown:
    return Markdown(french(text))  # type: ignore[no-untyped-call]


def _odds(p: Any) -> str:
    return f"**{percent(p)}** ({fraction(p)})"


def duel_example() -> Markdown:
    """The Souvenir duel and the two readings of the Lieu duel, side by side."""
    one, strict, replay = souvenir_duel(), lieu_duel("sans-suite"), lieu_duel("rejouer")
    return _md(
        f"- Pour un Souvenir, l’attaquant gagne {_odds(one.win)}, fait égalité "
        f"{_odds(one.tie)} et perd {_odds(one.lose)}.\n"
        f"- Pour un Lieu, si les lancers nuls ne comptent pour personne, l’attaquant gagne "
        f"{_odds(strict.win)}, et le duel reste sans suite {_odds(strict.tie)}.\n"
        f"- Si l’on rejoue les lancers nuls, il gagne {_odds(replay.win)} : le duel est "
        f"alors un pile ou face."
    )


def wall_example() -> Markdown:
    """The three walls' chance to hold one test."""
    lines = [f"- {MATERIAL_LABELS[m]} : résiste {_odds(wall_test(m).holds)} ;" for m in MATERIALS]
    lines[-1] = lines[-1].rstrip(" ;") + "."
    return _md("\n".join(lines))
