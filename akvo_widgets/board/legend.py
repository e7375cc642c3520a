"""The board's legend: every symbol the live board draws, each beside its picture.

The pictures are drawn by the board's own pieces (:mod:`.board_svg`), so the legend can
never disagree with the board. Every :class:`~akvo_widgets.board.widget.Board` carries it behind
its « Légende » toggle; the first chapter that shows a board prints it once
(:func:`legend`).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from IPython.display import HTML

from akvo.match.board import CHAR_LABELS, CHARS
from akvo.resolution import SOUFFLE_REDUCTION
from akvo.rules import MAX_RESILIENCE
from akvo_widgets.text.formatting import NBSP, french, percent, points_chip

from . import svg as draw

# One cell's picture: the pieces are drawn in a cell whose top-left corner is (X, Y).
X, Y = 2, 2
CX, CY = X + draw.UNIT_DX, Y + draw.UNIT_DY


def _picture(body: str, cells: int = 1, label: str = "") -> str:
    width, height = cells * draw.CELL + 4, draw.ROW + 4
    return (
        f'<svg class="akvo-legend-picture" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" aria-hidden="true">'
        f'<rect class="akvo-board-water" x="{X}" y="{Y}" width="{cells * draw.CELL}" '
        f'height="{draw.ROW}"/>{body}</svg>'
    )


def _mage(side: int, character: int, extra: str = "", css: str = "akvo-board-unit") -> str:
    return f'<g class="{css}">{draw.unit_body(side, character, CX, CY)}{extra}</g>'


def _entries() -> list[tuple[str, str]]:
    letters = ", ".join(f"<b>{draw.LETTERS[c]}</b>{NBSP}{CHAR_LABELS[c]}" for c in range(CHARS))
    ship = f'<g class="akvo-board-ship">{draw.ship_frame(0, X, Y)}</g>' + "".join(
        draw.unit_body(0, c, X + k * draw.CELL + draw.UNIT_DX, CY) for k, c in enumerate((2, 3))
    )
    target_mage = (
        f'<g class="akvo-board-target" data-legal="true">{draw.target_cell(X, Y)}'
        f"{draw.badge(X, Y, percent(0.336))}</g>"
    )
    souffle = (
        f'<g class="akvo-board-target">{draw.target_cell(X, Y)}'
        f"{draw.badge(X, Y, 'S ' + percent(0.452))}</g>"
    )
    chest = (
        f'<rect class="akvo-board-beach" x="{X}" y="{Y}" width="{draw.CELL}" '
        f'height="{draw.ROW}"/>{draw.chest_shape(1, X, Y)}'
        f'<g class="akvo-board-target" data-legal="true">{draw.target_cell(X, Y)}'
        f"{draw.badge(X, Y, points_chip(0.21))}</g>"
    )
    favoured = draw.favoured_mark(1, CY + 10, CX) + (
        f'<text class="akvo-board-axis" x="{CX}" y="{CY + 15}" text-anchor="middle">B</text>'
    )
    advance = f'<g class="akvo-board-advance">{draw.advance_cell(0, X, Y, draw.UPRIGHT)}</g>'
    return [
        (
            _picture(_mage(0, 5)) + _picture(_mage(1, 5)),
            "Un mage : rond bleu pour le camp A, carré rouge pour le camp B, marqué des "
            f"deux premières lettres de son personnage : {letters}.",
        ),
        (
            _picture(ship, 2),
            "Le cadre arrondi autour de <b>Ba</b> et <b>La</b> : le navire, une seule "
            "unité qui porte les deux mages centraux.",
        ),
        (
            _picture(_mage(0, 0, draw.resilience_pips(2, CX, CY))),
            "Les points jaunes sous un mage : sa Résilience, un point par recul subi "
            f"({MAX_RESILIENCE} au plus), chacun +1 à ses jets de défense.",
        ),
        (
            _picture(_mage(0, 4, draw.ultime_mark(CX, CY))),
            "La croix ✕ en haut à gauche : ce mage a déjà utilisé son Ultime.",
        ),
        (
            _picture(_mage(0, 1, draw.order_mark("T", CX, CY))),
            "La lettre en haut à droite : l’ordre du mage pour ce tour, <b>A</b> pour "
            "Avancer, <b>T</b> pour Tirer (visible une fois les ordres révélés, ou par son "
            "propre camp). Le navire reçoit un double-jeton, <b>AA</b> (Avancer / Avancer), "
            "<b>TT</b> (Tirer / Tirer) ou <b>AT</b> (Avancer / Tirer) : chaque mage "
            "central en porte une moitié, et pour AT, le <b>T</b> dit lequel des deux tire.",
        ),
        (
            _picture(_mage(0, 2, css="akvo-board-unit akvo-board-done")),
            "Un mage pâli : son unité a déjà été activée ce tour.",
        ),
        (
            _picture(favoured),
            "Le disque jaune autour de la lettre d’une plage : le camp avantagé par la "
            "météo du tour, qui active sa première unité avant l’autre. Pas de disque avant "
            "le tirage du jeton.",
        ),
        (
            _picture(_mage(0, 3) + draw.selected_ring(CX, CY)),
            "L’anneau jaune : le mage sélectionné (un clic, ou Tab puis Entrée ; "
            "Échap pour désélectionner). Le texte sous le plateau dit où il peut avancer et "
            "sur qui il peut tirer.",
        ),
        (
            _picture(advance),
            "La case verte fléchée : où le mage sélectionné peut avancer ; la "
            "dernière, avec une rune de Mouvement.",
        ),
        (
            _picture(_mage(1, 4) + target_mage),
            "Le cadre violet et sa pastille, sous le mage visé : une cible à portée du "
            "mage sélectionné et sa chance d’être repoussée (l’attaque réussit, puis la "
            "défense échoue). Trait plein : le tir peut être joué maintenant, d’un clic. "
            "La pastille disparaît quand le tir est joué.",
        ),
        (
            _picture(chest),
            "Sur un coffre : les points que le tir marque en moyenne (interception comprise).",
        ),
        (
            _picture(_mage(1, 0) + souffle),
            "<b>S</b> devant la valeur : ce tir n’est à portée qu’avec le Souffle "
            f"portant du Pédalair, qui raccourcit la distance de {SOUFFLE_REDUCTION} miles "
            "(un mile = une case). Les tirs possibles avec et sans lui sont tous écrits sous "
            "le plateau.",
        ),
        (
            "",
            "Au bord : les couloirs 1 à 6 en haut, les lignes d’eau 1 à 8 à gauche, "
            "<b>A</b> et <b>B</b> pour les plages ; à droite, le phare, son niveau en "
            "haut et le palier du vent (I à IV) en bas.",
        ),
    ]


@cache
def legend_html() -> str:
    """The legend as HTML: one row per symbol, its picture and its meaning."""
    rows = "".join(
        f'<li><span class="akvo-legend-pictures">{picture}</span>'
        f'<span class="akvo-legend-text">{french(text)}</span></li>'
        for picture, text in _entries()
    )
    return f'<ul class="akvo-board-legend-list">{rows}</ul>'


def legend() -> HTML:
    """The legend printed in a chapter (the first one that shows a board)."""
    css = (Path(draw.__file__).parent / "board.css").read_text(encoding="utf-8")
    return HTML(f'<style>{css}</style><div class="akvo-board-legend-page">{legend_html()}</div>')
