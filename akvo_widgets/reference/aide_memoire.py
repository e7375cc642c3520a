"""The aide-mémoire: one printable page (screen and A4 print styles) whose every value is
read from :mod:`akvo.rules` and the engine's constants, never typed.

The page's own ``<style>`` carries the print rules, so the book's shared stylesheet stays
untouched: when printed, only the aide-mémoire is shown, in two columns on one A4 sheet.
"""

from __future__ import annotations

from html import escape
from typing import Any

import ipywidgets as w

from akvo.match.board import START_ROW
from akvo.match.geometry import in_enemy_half
from akvo.resolution import ATTAQUE_BONUS, DEFAULT_DICE, DEFENSE_BONUS, SOUFFLE_REDUCTION
from akvo.rules import (
    CRITICAL_MARGIN,
    DISTANCES,
    MAX_RESILIENCE,
    ROWS,
    TIE_BREAK_TURNS,
    TIERS,
    TURNS,
    Character,
    RuneCategory,
    miles,
    runes_in,
    thresholds,
    tier_for_turn,
)
from akvo_widgets.kit import controls as c
from akvo_widgets.text.formatting import french, tier_numeral

#: Print: only the aide-mémoire, on one A4 sheet; screen: two columns, one below 640 px.
STYLE = """
<style>
.akvo-aide { font-size: 13px; line-height: 1.35; }
.akvo-aide h2 { font-size: 1.25em; margin: 0 0 .3em; color: #0b4f6c; border: 0; }
.akvo-aide h3 { font-size: 1.02em; margin: .5em 0 .15em; color: #0b4f6c; }
.akvo-aide p, .akvo-aide ul, .akvo-aide ol { margin: .15em 0; }
.akvo-aide ul, .akvo-aide ol { padding-left: 1.2em; }
.akvo-aide-columns { columns: 2 22em; column-gap: 1.6em; }
.akvo-aide section { break-inside: avoid; }
.akvo-aide table { border-collapse: collapse; margin: .2em 0; }
.akvo-aide-matrix td, .akvo-aide-matrix th { white-space: nowrap; }
@media screen and (max-width: 600px) {
  .akvo-aide-matrix td, .akvo-aide-matrix th { white-space: normal; }
}
.akvo-aide td, .akvo-aide th { border: 1px solid #c9d9e0; padding: 1px 5px; text-align: center; }
@media print {
  @page { size: A4; margin: 9mm; }
  html, body, .lm-Widget, .jp-LabShell, .lm-Panel, .lm-BoxPanel, .lm-BoxPanel-child,
  #rendered_cells, .jp-Notebook, .jp-Cell, .jp-OutputArea, .jp-OutputArea-child,
  .jp-OutputArea-output, .akvo-widget, .widget-vbox, .widget-box, .widget-html,
  .widget-html-content {
    position: static !important; height: auto !important; max-height: none !important;
    overflow: visible !important; box-shadow: none !important; border: 0 !important;
    padding: 0 !important; margin: 0 !important; background: #fff !important;
    max-width: none !important; width: auto !important; contain: none !important;
  }
  .jp-Cell:not(:has(.akvo-aide)), .jp-OutputPrompt, .akvo-aide-screen { display: none !important; }
  .akvo-aide { font-size: 8.6pt; line-height: 1.25; color: #000; }
  .akvo-aide-columns { columns: 2; column-gap: 6mm; }
}
</style>
"""


def _section(title: str, body: str) -> str:
    return f"<section><h3>{escape(title)}</h3>{body}</section>"


def _items(lines: list[str], tag: str = "ul") -> str:
    return f"<{tag}>" + "".join(f"<li>{line}</li>" for line in lines) + f"</{tag}>"


def _turns(tier: int) -> str:
    return "–".join(str(t) for t in TURNS if tier_for_turn(t) == tier)


def turn_sequence() -> str:
    last = TURNS[-1]
    return _section(
        "Un tour",
        _items(
            [
                f"<b>Phare</b> : le vent monte d’un niveau (au tour 1, il est déjà au niveau 1) ;"
                f" {last} tours, {last} niveaux.",
                "<b>Girouette</b> : révéler un jeton météo ; le camp avantagé agit en premier.",
                "<b>Préparation</b> : chaque camp programme en secret un ordre par unité "
                "(Avancer ou Tirer ; un double-jeton pour le navire).",
                "<b>Action</b> : ordres révélés ensemble ; les camps activent une unité chacun "
                "à tour de rôle ; un ordre joué est retiré.",
                "<b>Fin du tour</b> : quand toutes les unités ont agi.",
            ],
            "ol",
        ),
    )


def matrix() -> str:
    head = "".join(f"<th>{miles(d)}</th>" for d in DISTANCES)
    rows = []
    for tier in reversed(TIERS):
        cells = "".join(
            f"<td>X\u00a0{t.attack} · U\u00a0{t.defence}</td>"
            for t in (thresholds(tier, d) for d in DISTANCES)
        )
        rows.append(f"<tr><th>{tier_numeral(tier)} (tours {_turns(tier)})</th>{cells}</tr>")
    table = f"<table class='akvo-aide-matrix'><tr><th>Palier</th>{head}</tr>{''.join(rows)}</table>"
    table = f"<div class='akvo-scroll'>{c.SCROLL_CUE}{table}</div>"
    return _section(
        "Matrice Attaque / Défense",
        table + f"<p>Portée 1 à {DISTANCES[-1]} ; couloir voisin : +1 de distance. "
        "X : seuil d’attaque, U : seuil de défense et d’interception.</p>",
    )


def shots() -> str:
    return _section(
        "Tirer",
        _items(
            [
                f"Attaque : {DEFAULT_DICE} dés + bonus ≥ X, sinon le tir échoue.",
                f"Sur un mage : défense {DEFAULT_DICE} dés + bonus ≥ U, sinon la cible recule "
                "de 1 case (2 si l’attaque est critique).",
                "Sur le coffre de son couloir : le mage adverse du couloir intercepte (≥ U, "
                f"à {DISTANCES[0]}–{DISTANCES[-1]} de distance) ; sinon 1 point "
                "(2 si l’attaque est critique).",
            ]
        ),
    )


def criticals() -> str:
    return _section(
        "Critiques et prodiges",
        _items(
            [
                f"<b>Critique</b> : total ≥ seuil + {CRITICAL_MARGIN}.",
                "Défense ou interception critique : l’attaque est annulée, le tireur recule "
                "de 1 case.",
                f"<b>Prodige</b> : les {DEFAULT_DICE} dés montrent la même face ; le mage "
                "récupère 1 rune dépensée (la sienne ou celle d’un allié), sauf la rune U.",
                "Un jet peut être réussi, critique et prodige à la fois.",
            ]
        ),
    )


def resilience() -> str:
    return _section(
        "Résilience",
        _items(
            [
                f"+1 à chaque recul subi (max {MAX_RESILIENCE}) ; un recul de 2 cases n’en "
                "donne qu’un.",
                "+1 par point à chaque jet de défense et d’interception.",
                "Navire repoussé : seul le mage central visé la gagne.",
            ]
        ),
    )


_CATEGORY_EFFECTS = {
    RuneCategory.ATTAQUE: f"+{ATTAQUE_BONUS} à son jet d’attaque",
    RuneCategory.DEFENSE: f"+{DEFENSE_BONUS} à son jet de défense ou d’interception",
    RuneCategory.CONFUSION: "l’adversaire lance 1 dé de moins",
    RuneCategory.RELANCE: "relancer 1 dé de son propre jet",
    RuneCategory.MOUVEMENT: "+1 case en avançant, ou 1 case juste avant un tir",
    RuneCategory.ULTIME: "rend l’Ultime de son porteur",
}


def rune_categories() -> str:
    rows = []
    for category in RuneCategory:
        runes = runes_in(category)
        letters = " ".join(r.letter for r in runes)
        rows.append(
            f"<tr><td>{escape(runes[0].symbol)}</td><td>{category.label}</td>"
            f"<td>{letters}</td><td style='text-align:left'>{_CATEGORY_EFFECTS[category]}</td></tr>"
        )
    table = "<table>" + "".join(rows) + "</table>"
    return _section(
        "Runes",
        "<p>1 rune au plus par camp et par tir ; le tireur annonce d’abord. "
        "Une rune jouée est dépensée.</p>" + table,
    )


_ULTIME_EFFECTS = {
    Character.PEDALAIR: f"juste avant un tir allié, distance −{SOUFFLE_REDUCTION} (minimum 1)",
    Character.KITESURFEUR: "jusqu’à la fin du tour, qui l’attaque ou se défend contre lui "
    "lance 1 dé de moins",
    Character.BARREUR: "jusqu’à la fin du tour, alliés +1 en défense",
    Character.LANCEUR: "jusqu’à la fin du tour, alliés +1 en attaque",
    Character.SURFEUR: "s’il fait reculer le Surfeur adverse de son couloir, il avance d’1 case",
    Character.PLONGEUR: "jusqu’à 3 tirs dans son activation, sur des mages seulement",
}


def ultimes() -> str:
    lines = [
        f"<b>{escape(ch.ultime.name)}</b> ({ch.label}) : {_ULTIME_EFFECTS[ch]}." for ch in Character
    ]
    return _section("Les six Ultimes (une fois par match)", _items(lines))


def end_of_match() -> str:
    first, last = TIE_BREAK_TURNS[0], TIE_BREAK_TURNS[-1]
    half = [r for r in ROWS if in_enemy_half(0, r)]
    return _section(
        "Fin du match",
        _items(
            [
                f"Après le tour {TURNS[-1]}, le meilleur score gagne.",
                f"Égalité : tours {first} et {last} au palier {tier_numeral(tier_for_turn(last))}.",
                "Encore égalité : le camp qui a le plus de mages dans la moitié adverse "
                f"(rangées {half[0]} à {half[-1]} pour A ; les deux mages du navire comptent).",
                "Encore égalité : match nul.",
            ]
        ),
    )


def setup() -> str:
    return _section(
        "Mise en place",
        f"<p>Unités sur la {START_ROW[0]}<sup>e</sup> case d’eau de leur plage ; Résilience 0 ;"
        " Ultimes disponibles ; vent au niveau 1.</p>",
    )


def aide_memoire_html() -> str:
    """The whole aide-mémoire (with its print styles) as one HTML block."""
    parts = (
        setup(),
        turn_sequence(),
        matrix(),
        shots(),
        criticals(),
        resilience(),
        rune_categories(),
        ultimes(),
        end_of_match(),
    )
    body = "".join(parts)
    return STYLE + french(
        "<div class='akvo-aide'><h2>Akvolition — aide-mémoire</h2>"
        f"<div class='akvo-aide-columns'>{body}</div></div>"
    )


def turn_line(turn: int) -> str:
    """One screen-only line: the wind of a turn and its thresholds at each distance."""
    tier = tier_for_turn(turn)
    values = " ; ".join(
        f"{miles(d)} : X <b class='akvo-aide-x-{d}'>{t.attack}</b>, U {t.defence}"
        for d, t in ((d, thresholds(tier, d)) for d in DISTANCES)
    )
    return french(f"Tour {turn} : palier {tier_numeral(tier)} — {values}.")


class AideMemoire(w.VBox):
    """The printable aide-mémoire, plus a screen-only turn slider that reads the matrix."""

    def __init__(self, turn: int = 1) -> None:
        self.turn = c.slider("Tour", TURNS[0], TIE_BREAK_TURNS[-1], turn, "akvo-aide-turn")
        self.line = c.html("akvo-aide-turn-line")
        self.sheet = c.html("akvo-aide-sheet")
        self.sheet.value = aide_memoire_html()
        screen = w.VBox([self.turn, self.line])
        screen.add_class("akvo-aide-screen")
        super().__init__([c.panel([screen, self.sheet], "akvo-aide-panel")])
        self.turn.observe(self._update, names="value")
        self._update()

    def _update(self, _change: Any = None) -> None:
        self.line.value = turn_line(self.turn.value)
