"""The live board's pictures, as SVG strings built from a match state (no widget code).

Two layers, so that a click redraws little: :func:`board_svg` draws what the state alone
decides (lanes, beaches and chests, units with their Résilience and orders, the
lighthouse) and ends with an empty ``akvo-board-overlay`` group; :func:`overlay_svg` fills
that group with what a selection adds (the chosen mage, the cells its Advance reaches, its
targets with their odds). Elements the reader can activate carry ``data-hit``, ``role``,
``tabindex`` and a French ``aria-label``; the browser only reports which one was chosen.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from html import escape

from akvo.match.board import (
    CHAR_LABELS,
    CHAR_NAMES,
    CHARS,
    LANE_OF_CHAR,
    SHIP,
    SIDE_NAMES,
    UNIT_OF_CHAR,
    UNITS,
)
from akvo.match.log import ULTIME_NAMES
from akvo.match.preview import CHEST_NAME, TargetPreview, UnitPreview
from akvo.match.state import MatchState
from akvo.rules import TIER_NUMERALS, lighthouse_level
from akvo.shots import SOUFFLE_REDUCTION

from .formatting import decimal, percent

CELL = 56
LEFT = 24  # room for the row numbers
TOP = 24  # room for the lane numbers
LIGHT_X = LEFT + 6 * CELL + 10  # the lighthouse column
WIDTH = LIGHT_X + 44
HEIGHT = TOP + 10 * CELL + 4
SIDE_COLOURS = ("#1f6fb2", "#c0392b")
INITIALS = "PKBLSD"
ORDER_WORDS = {"A": "Avancer", "T": "Tirer"}


def cell_x(lane: int) -> int:
    return LEFT + (lane - 1) * CELL


def cell_y(row: int) -> int:
    """Row 9 (B's beach) at the top, row 0 (A's beach) at the bottom."""
    return TOP + (9 - row) * CELL


def unit_key(side: int, character: int) -> str:
    """The stable id of a mage's element, kept across redraws (focus returns to it)."""
    return f"unit-{SIDE_NAMES[side]}-{CHAR_NAMES[character]}"


def mage_label(side: int, character: int) -> str:
    return f"{CHAR_LABELS[character]} de {SIDE_NAMES[side]}"


@dataclass(frozen=True, slots=True)
class UnitView:
    """What the board shows of one mage, in plain values (the SVG and tests read it)."""

    side: int
    character: int
    row: int
    resilience: int
    ultime_used: bool
    activated: bool
    order: str | None  # "A" / "T" (the ship: "AA", "TT", "AT-B", "AT-L"), None if hidden


def visible_orders(state: MatchState, viewer: int | None) -> tuple[str | None, str | None]:
    """Each side's orders as the engine's observation shows them to ``viewer``.

    With no viewer, a side's orders are shown only once the other side could see them too.
    """

    def shown(text: str | None) -> str | None:
        return None if text in (None, "hidden") else text

    if viewer is not None:
        seen = state.observation(viewer)["orders"]
        return shown(seen["A"]), shown(seen["B"])
    return (
        shown(state.observation(1)["orders"]["A"]),
        shown(state.observation(0)["orders"]["B"]),
    )


def _unit_order(orders: str | None, character: int) -> str | None:
    if orders is None:
        return None
    lateral, ship = orders.split()
    unit = UNIT_OF_CHAR[character]
    if unit == SHIP:
        return ship
    return lateral[(0, 1, None, 2, 3)[unit]]  # type: ignore[index]


def unit_views(state: MatchState, viewer: int | None) -> list[UnitView]:
    orders = visible_orders(state, viewer)
    views = []
    for side in (0, 1):
        for character in range(CHARS):
            unit = UNIT_OF_CHAR[character]
            views.append(
                UnitView(
                    side=side,
                    character=character,
                    row=state.rows[side * UNITS + unit],
                    resilience=state.res[side * CHARS + character],
                    ultime_used=bool(state.ult_used[side] >> character & 1),
                    activated=bool(state.activated[side] >> unit & 1),
                    order=_unit_order(orders[side], character),
                )
            )
    return views


def unit_aria(view: UnitView) -> str:
    parts = [f"{mage_label(view.side, view.character)}, rangée {view.row}"]
    parts.append(f"Résilience {view.resilience}")
    if view.order is not None:
        token = view.order if len(view.order) > 1 else ORDER_WORDS[view.order]
        parts.append(f"ordre {token}")
    if view.ultime_used:
        parts.append(f"Ultime {ULTIME_NAMES[view.character]} utilisé")
    if view.activated:
        parts.append("déjà activé ce tour")
    return ", ".join(parts)


def _hit(kind: str, label: str, key: str) -> str:
    """The attributes that make an SVG group a keyboard- and click-activable button."""
    return (
        f' data-hit="{kind}" data-key="{escape(key)}" role="button" tabindex="0" '
        f'aria-label="{escape(label)}"'
    )


def _grid(favoured: int) -> list[str]:
    out = []
    for row in range(10):
        beach = row in (0, 9)
        for lane in range(1, 7):
            x, y = cell_x(lane), cell_y(row)
            css = "akvo-board-beach" if beach else "akvo-board-water"
            out.append(
                f'<rect class="{css}" x="{x}" y="{y}" width="{CELL}" height="{CELL}"'
                f' data-row="{row}" data-lane="{lane}"/>'
            )
            if beach:
                owner = SIDE_NAMES[0 if row == 0 else 1]
                out.append(
                    f'<rect class="akvo-board-chest" data-side="{owner}" data-lane="{lane}" '
                    f'x="{x + 17}" y="{y + 19}" width="22" height="16" rx="3"/>'
                )
        label = {0: "A", 9: "B"}.get(row, str(row))
        if beach and favoured == (0 if row == 0 else 1):
            out.append(
                f'<g class="akvo-board-favoured" data-side="{label}">'
                f"<title>Météo favorable à {label}</title>"
                f'<circle cx="{LEFT - 12}" cy="{cell_y(row) + 28}" r="10"/></g>'
            )
        out.append(
            f'<text class="akvo-board-axis" x="{LEFT - 12}" y="{cell_y(row) + 32}" '
            f'text-anchor="middle">{label}</text>'
        )
    for lane in range(1, 7):
        out.append(
            f'<text class="akvo-board-axis" x="{cell_x(lane) + CELL // 2}" y="{TOP - 8}" '
            f'text-anchor="middle">{lane}</text>'
        )
    return out


def _lighthouse(turn: int, tier: int) -> list[str]:
    level = lighthouse_level(turn)
    out = [
        f'<g class="akvo-board-lighthouse" data-level="{level}" data-tier="{tier}">',
        f"<title>Phare au niveau {level}, palier {TIER_NUMERALS[tier]}</title>",
        f'<text x="{LIGHT_X + 17}" y="{TOP - 8}" text-anchor="middle">Phare</text>',
    ]
    for step in range(1, 9):
        lit = " akvo-board-lit" if step <= level else ""
        out.append(
            f'<rect class="akvo-board-level{lit}" x="{LIGHT_X + 5}" y="{cell_y(step) + 10}" '
            f'width="24" height="{CELL - 20}" rx="3"/>'
        )
    out.append(
        f'<text x="{LIGHT_X + 17}" y="{cell_y(9) + 32}" text-anchor="middle">{level}</text>'
        f'<text x="{LIGHT_X + 17}" y="{cell_y(0) + 32}" text-anchor="middle">'
        f"{TIER_NUMERALS[tier]}</text></g>"
    )
    return out


def _ship(side: int, row: int, order: str | None) -> str:
    x, y = cell_x(3) + 3, cell_y(row) + 3
    token = (
        f'<text class="akvo-board-order" x="{x + CELL - 3}" y="{y + CELL - 9}" '
        f'text-anchor="middle">{order}</text>'
        if order
        else ""
    )
    return (
        f'<g class="akvo-board-ship" data-side="{SIDE_NAMES[side]}" data-row="{row}">'
        f'<rect x="{x}" y="{y}" width="{2 * CELL - 6}" height="{CELL - 6}" rx="14" '
        f'stroke="{SIDE_COLOURS[side]}"/>{token}</g>'
    )


def _unit(view: UnitView, clickable: bool) -> str:
    side, character = view.side, view.character
    cx = cell_x(LANE_OF_CHAR[character]) + CELL // 2
    cy = cell_y(view.row) + CELL // 2 - 3
    colour = SIDE_COLOURS[side]
    classes = "akvo-board-unit" + (" akvo-board-done" if view.activated else "")
    label = unit_aria(view)
    hit = _hit("unit", label, unit_key(side, character)) if clickable else ""
    if side == 0:
        shape = f'<circle cx="{cx}" cy="{cy}" r="16" fill="{colour}"/>'
    else:
        shape = f'<rect x="{cx - 15}" y="{cy - 15}" width="30" height="30" rx="5" fill="{colour}"/>'
    parts = [
        f'<g class="{classes}" data-side="{SIDE_NAMES[side]}" '
        f'data-character="{CHAR_NAMES[character]}" data-row="{view.row}"{hit}>',
        f"<title>{escape(label)}</title>",
        f'<circle class="akvo-board-focus" cx="{cx}" cy="{cy}" r="24"/>',
        shape,
        f'<text class="akvo-board-initial" x="{cx}" y="{cy + 5}" text-anchor="middle">'
        f"{INITIALS[character]}</text>",
    ]
    for pip in range(view.resilience):
        parts.append(
            f'<circle class="akvo-board-resilience" cx="{cx - 8 + pip * 8}" cy="{cy + 22}" r="3"/>'
        )
    if view.ultime_used:
        parts.append(
            f'<text class="akvo-board-ultime-used" x="{cx - 20}" y="{cy - 12}" '
            'text-anchor="middle">✕</text>'
        )
    if view.order is not None and len(view.order) == 1:
        parts.append(
            f'<text class="akvo-board-order" x="{cx + 20}" y="{cy - 12}" '
            f'text-anchor="middle">{view.order}</text>'
        )
    parts.append("</g>")
    return "".join(parts)


def board_svg(state: MatchState, viewer: int | None = None, clickable: Collection[int] = ()) -> str:
    """The whole board for ``state``; units of the sides in ``clickable`` are buttons."""
    views = unit_views(state, viewer)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'class="akvo-board-svg" role="group" aria-label="Plateau, tour {state.turn}">',
        *_grid(state.favoured),
        *_lighthouse(state.turn, state.tier),
    ]
    for view in views:
        if view.character == CHAR_NAMES.index("barreur"):
            out.append(_ship(view.side, view.row, view.order))
    out.extend(_unit(view, view.side in clickable) for view in views)
    out.append('<g class="akvo-board-overlay"></g></svg>')
    return "".join(out)


# --- The selection layer ---------------------------------------------------------------------


def odds_text(target: TargetPreview) -> str:
    """The chance shown on a target: P(push) for a mage, expected points for a chest."""
    if target.target == CHEST_NAME:
        return f"{decimal(target.value, 2)}\u00a0pt"
    return percent(target.value)


def miles(distance: int) -> str:
    return f"{distance} mile" + ("s" if distance > 1 else "")


def target_label(target: TargetPreview, enemy: int) -> str:
    """The target in words, for its button and the details list."""
    if target.souffle:
        how = (
            f" avec le Souffle portant ({target.base_distance} − {SOUFFLE_REDUCTION} = "
            f"{miles(target.odds.distance)})"
        )
    else:
        how = f" ({miles(target.odds.distance)})"
    if target.target == CHEST_NAME:
        what = f"le coffre de {SIDE_NAMES[enemy]}"
        chance = f"{decimal(target.value, 3)} point en moyenne"
    else:
        what = f"le {mage_label(enemy, CHAR_NAMES.index(target.target))}"
        chance = f"recul {percent(target.value)}"
    return f"Tirer sur {what}{how} : {chance}"


def _target_cell(preview: UnitPreview, target: TargetPreview, state: MatchState) -> tuple[int, int]:
    enemy = 1 - preview.side
    if target.target == CHEST_NAME:
        return LANE_OF_CHAR[preview.character], 9 if preview.side == 0 else 0
    character = CHAR_NAMES.index(target.target)
    return LANE_OF_CHAR[character], state.rows[enemy * UNITS + UNIT_OF_CHAR[character]]


def overlay_svg(
    state: MatchState,
    preview: UnitPreview | None,
    actions: Mapping[str, str],
) -> str:
    """The selection layer: ``actions`` maps an element key to the legal action it plays.

    Keys are ``"advance-<row>"`` and the targets' engine actions (``"shoot surfeur"``); an
    element whose key is in ``actions`` becomes a button that plays it.
    """
    if preview is None:
        return ""
    side, character = preview.side, preview.character
    cx = cell_x(LANE_OF_CHAR[character]) + CELL // 2
    cy = cell_y(preview.row) + CELL // 2 - 3
    out = [f'<circle class="akvo-board-selected" cx="{cx}" cy="{cy}" r="22"/>']
    for step, row in enumerate(preview.advance_rows, start=1):
        lane = LANE_OF_CHAR[character]
        key = f"advance-{row}"
        how = "" if step == 1 else " (avec une rune de Mouvement)"
        label = f"Avancer jusqu’à la rangée {row}{how}"
        if key in actions:
            hit = _hit("advance", label, key) + f' data-action="{escape(actions[key])}"'
        else:
            hit = f' aria-label="{escape(label)}"'
        out.append(
            f'<g class="akvo-board-advance" data-row="{row}" data-lane="{lane}"{hit}>'
            f"<title>{escape(label)}</title>"
            f'<rect x="{cell_x(lane) + 4}" y="{cell_y(row) + 4}" width="{CELL - 8}" '
            f'height="{CELL - 8}" rx="6"/>'
            f'<text x="{cell_x(lane) + CELL // 2}" y="{cell_y(row) + 34}" '
            f'text-anchor="middle">{"↑" if side == 0 else "↓"}</text></g>'
        )
    for target in preview.targets:
        lane, row = _target_cell(preview, target, state)
        x, y = cell_x(lane), cell_y(row)
        label = target_label(target, 1 - side)
        legal = target.action in actions
        hit = _hit("target", label, target.action) if legal else f' aria-label="{escape(label)}"'
        chip_y = y + (CELL - 19 if target.souffle else 1)
        souffle = "S " if target.souffle else ""
        out.append(
            f'<g class="akvo-board-target" data-action="{escape(target.action)}" '
            f'data-target="{target.target}" data-souffle="{str(target.souffle).lower()}" '
            f'data-legal="{str(legal).lower()}" data-odds="{escape(odds_text(target))}"{hit}>'
            f"<title>{escape(label)}</title>"
            f'<rect class="akvo-board-target-cell" x="{x + 2}" y="{y + 2}" '
            f'width="{CELL - 4}" height="{CELL - 4}" rx="6"/>'
            f'<rect class="akvo-board-chip" x="{x + 1}" y="{chip_y}" width="{CELL - 2}" '
            f'height="18" rx="4"/>'
            f'<text class="akvo-board-odds" x="{x + CELL // 2}" y="{chip_y + 13}" '
            f'text-anchor="middle">{souffle}{escape(odds_text(target))}</text></g>'
        )
    return "".join(out)
