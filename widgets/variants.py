"""The rulings page: one live switch per rules variant (R8, R13, R19, R22) showing what it
changes in the engine's numbers, and the rulebook's own contradictions (R19, R22, R26, R28).

Every number comes from :mod:`akvo.variants`, :mod:`akvo.shots` or
:mod:`akvo.match.showcase`, computed under the :class:`~akvo.config.RulesConfig` chosen.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import ipywidgets as w
from IPython.display import Markdown

from akvo.config import DEFAULT_RULES, RulesConfig
from akvo.rules import (
    DUPLICATED_PRESETS,
    PRESET_TEAMS,
    TURNS,
    Character,
    RuneCategory,
    rune,
    runes_in,
)
from akvo.shots import Side, shot_on_mage
from akvo.teams import preset_team
from akvo.variants import VARIANT_RULINGS, WEATHER_BAG, best_own_attack, weather_favoured_turns

from . import controls as c
from .formatting import fraction, french, percent, tier_numeral

#: The two readings of each variant, default first, with their French labels.
READINGS: dict[str, tuple[tuple[str, str], ...]] = {
    "weather": (("Sac de 8 jetons (4 par camp)", "bag"), ("Pile ou face à chaque tour", "coin")),
    "prodige": (
        ("Prodige : exactement 4 dés identiques", "four"),
        ("Prodige : tous les dés lancés identiques (2 ou plus)", "all"),
    ),
    "grimoire": (
        ("@ Confusion, # Relance", "standard"),
        ("@ Relance, # Confusion", "swapped"),
    ),
    "rune_u": (
        ("La rune U rend l’Ultime de son porteur", "restores_ultime"),
        ("La rune U ne fait rien (elle sert aux noms)", "names_only"),
    ),
    "mouvement_rune": (
        ("Le Mouvement avant un tir est la rune du tireur", "is_the_rune"),
        ("Le Mouvement avant un tir s’ajoute à une rune de tir", "separate"),
    ),
    "ship_advance_runes": (
        ("Navire Avancer/Avancer : une rune de Mouvement en tout", "one"),
        ("Navire Avancer/Avancer : une rune de Mouvement par ordre", "per_order"),
    ),
}
#: Where the shots of the prodige and grimoire switches are measured.
TIER, DISTANCE = 2, 2
GRIMOIRE_TEAM = "perrockiss"


def _odds(p: Fraction, css: str) -> str:
    return f"<b class='{css}'>{percent(p)}</b> <span class='akvo-fraction'>({fraction(p)})</span>"


def weather_html(rules: RulesConfig) -> str:
    odds = weather_favoured_turns(rules)
    half, turns = WEATHER_BAG[0], len(TURNS)
    even = odds.get(half, Fraction(0))
    lopsided = sum((p for n, p in odds.items() if abs(n - half) >= 2), Fraction(0))
    return french(
        f"<p>Chance que chaque camp agisse en premier à exactement {half} des {turns} tours : "
        f"{_odds(even, 'akvo-variant-weather-value')}. Chance qu’un camp soit favorisé à "
        f"{half + 2} tours ou plus : {_odds(lopsided, 'akvo-variant-weather-lopsided')}.</p>"
    )


def prodige_html(rules: RulesConfig) -> str:
    cases = (
        (
            "Le défenseur joue Confusion : prodige du tireur (3 dés)",
            Side(),
            Side(rune="confusion"),
            "attack",
        ),
        (
            "Le tireur joue Confusion : prodige du défenseur (3 dés)",
            Side(rune="confusion"),
            Side(),
            "defence",
        ),
        ("Sans rune : prodige du tireur (4 dés)", Side(), Side(), "attack"),
    )
    rows = []
    for i, (label, attack, defence, roll) in enumerate(cases):
        shot = shot_on_mage(TIER, DISTANCE, attack, defence, rules=rules)
        p = shot.attack_prodige if roll == "attack" else shot.defence_prodige
        rows.append(
            [
                c.cell(french(label)),
                c.cell(percent(p), f"akvo-variant-prodige-{i}"),
                c.cell(fraction(p), "akvo-fraction"),
            ]
        )
    title = f"<p>Tir sur un mage, palier {tier_numeral(TIER)}, {DISTANCE} miles :</p>"
    return french(title) + c.table(["Cas", "Chance d’un prodige", "Fraction"], rows)


def grimoire_html(rules: RulesConfig) -> str:
    team = preset_team(GRIMOIRE_TEAM)
    rows = []
    for character in Character:
        categories = ", ".join(r.category.label for r in team.runes_of(character, rules))
        best, p = best_own_attack(team, character, TIER, DISTANCE, rules)
        rows.append(
            [
                c.cell(character.label),
                c.cell(f"{team.letters(character)} : {categories}"),
                c.cell(best.label if best else "aucune"),
                c.cell(percent(p), f"akvo-variant-grimoire-{character.name.lower()}"),
            ]
        )
    title = (
        f"<p>{PRESET_TEAMS[GRIMOIRE_TEAM].name} : la meilleure rune personnelle de chaque mage"
        f" pour repousser une cible au palier {tier_numeral(TIER)}, à {DISTANCE} miles :</p>"
    )
    header = ["Mage", "Runes et catégories", "Meilleure rune", "Chance de repousser"]
    return french(title) + c.table(header, rows)


def rune_u_html(rules: RulesConfig) -> str:
    from akvo.match.showcase import highest_score

    best = highest_score(rules=rules)
    return french(
        f"<p>Score le plus haut que le moteur atteigne (R26), avec la rune U chez le "
        f"Pédalair : <b class='akvo-variant-rune_u-value'>{best.total}</b> points.</p>"
    )


def _reading_html(field: str) -> Callable[[RulesConfig], str]:
    """The reading in force, for the variants whose effect on the odds is not computed yet."""

    def view(rules: RulesConfig) -> str:
        value = getattr(rules, field)
        label = dict((code, text) for text, code in READINGS[field])[value]
        return french(
            f"<p>Lecture appliquée par le moteur : <b class='akvo-variant-{field}-value'>"
            f"{label}</b>.</p>"
        )

    return view


_VIEWS = {
    "weather": weather_html,
    "prodige": prodige_html,
    "grimoire": grimoire_html,
    "rune_u": rune_u_html,
    "mouvement_rune": _reading_html("mouvement_rune"),
    "ship_advance_runes": _reading_html("ship_advance_runes"),
}


class VariantSwitch(w.VBox):
    """One variant of :class:`RulesConfig`: a drop-down of its two readings and their effect."""

    def __init__(self, field: str) -> None:
        if field not in _VIEWS:
            raise ValueError(f"unknown rules variant {field!r}; choose one of {sorted(_VIEWS)}")
        self.field = field
        label = f"Variante ({VARIANT_RULINGS[field]})"
        default = getattr(DEFAULT_RULES, field)
        self.reading = c.dropdown(label, READINGS[field], default, f"akvo-variant-{field}")
        self.result = c.html("akvo-odds")
        self.rules = DEFAULT_RULES
        super().__init__([c.panel([self.reading, self.result], "akvo-variant")])
        self.reading.observe(self._update, names="value")
        self._update()

    def _update(self, _change: Any = None) -> None:
        self.rules = DEFAULT_RULES.with_(**{self.field: self.reading.value})
        self.result.value = _VIEWS[self.field](self.rules)


def _md(text: str) -> Markdown:
    return Markdown(french(text))  # type: ignore[no-untyped-call]


def duplicated_teams() -> Markdown:
    """R28: the annex's three identical lists, as the engine loads them."""
    lines = [
        f"- {PRESET_TEAMS[key].name} ({PRESET_TEAMS[key].strategy}) : `{preset_team(key)}`"
        for key in DUPLICATED_PRESETS
    ]
    same = len({str(preset_team(k)) for k in DUPLICATED_PRESETS}) == 1
    verdict = "une seule et même liste" if same else "des listes différentes"
    return _md("\n".join(lines) + f"\n\nTrois stratégies, {verdict}.")


def highest_score_versus_final() -> Markdown:
    """R26: the printed final 102–108 against the highest score the rules allow."""
    from akvo.match.showcase import highest_score

    best = highest_score()
    return _md(
        f"Le plus haut score que le moteur atteigne en jouant la partie idéale est de "
        f"**{best.total} points** (borne démontrée : {best.bound}) : ni 102 ni 108 ne sont "
        f"possibles avec les seuls coffres."
    )


def letter_u() -> Markdown:
    """R19/R22: the letter U is a rune (Ultime, symbol O) and the Défense symbol."""
    ultime = rune("U")
    defence = [r.letter for r in runes_in(RuneCategory.DEFENSE)]
    return _md(
        f"Dans le grimoire, la lettre U est la rune « {ultime.name} », de symbole "
        f"{ultime.symbol} ; mais le symbole U marque aussi la catégorie Défense "
        f"({', '.join(defence)}), comme le U des seuils de défense de la matrice."
    )
