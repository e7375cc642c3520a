"""The live board's pictures, as SVG strings built from a match state (no widget code).

Two layers, so that a click redraws little: :func:`board_svg` draws what the state alone
decides (lanes, beaches and chests, units with their Résilience and orders, the
lighthouse) and ends with an empty ``akvo-board-overlay`` group; :func:`overlay_svg` fills
that group with what a selection adds (the chosen mage, the cells its Advance reaches, its
targets with their odds). Elements the reader can activate carry ``data-hit``, ``role``,
``tabindex`` and a French ``aria-label``; the browser only reports which one was chosen.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
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
from akvo.match.phases import Phase
from akvo.match.preview import CHEST_NAME, TargetPreview, UnitPreview
from akvo.match.state import MatchState
from akvo.resolution import SOUFFLE_REDUCTION
from akvo.rules import TIER_NUMERALS, lighthouse_level, miles
from akvo_widgets.text.formatting import decimal, exact_percent, points_chip

#: A cell's width and height in SVG units: taller than wide, so that an odds badge fits in
#: the cell's lower band, under the mage it describes (never over a letter).
CELL = 56
ROW = 60
LEFT = 24  # room for the row numbers
TOP = 24  # room for the lane numbers
LIGHT_X = LEFT + 6 * CELL + 10  # the lighthouse column
WIDTH = LIGHT_X + 44
HEIGHT = TOP + 10 * ROW + 4
#: Every text on the board is at least this tall in SVG units (board.css sets it): 12 CSS px
#: as long as the board is at least ``12 * WIDTH / FONT`` = 311 px wide (a 390 px phone
#: gives it about 350 px).
FONT = 16
CHIP_HEIGHT = 19
#: Where a mage sits in its cell (its centre, from the cell's top-left corner), its
#: Résilience pips under it, and the badge band at the bottom of the cell.
UNIT_DX, UNIT_DY, UNIT_R = CELL // 2, 17, 14
PIPS_DY = UNIT_DY + 18
CHIP_DY = ROW - CHIP_HEIGHT - 1
SIDE_COLOURS = ("#1f6fb2", "#c0392b")
#: Each mage is marked with the first two letters of its character's name (Pé, Ki, Ba,
#: La, Su, Pl): one rule a reader guesses, where the engine's single initials
#: (``CHAR_INITIALS``, for its text boards) need an exception for the Plongeur's D.
LETTERS = tuple(label[:2] for label in CHAR_LABELS)
ORDER_WORDS = {"A": "Avancer", "T": "Tirer"}


@dataclass(frozen=True, slots=True)
class Frame:
    """Where each cell lands on screen: side A's beach at the bottom, or, ``flipped``, the
    board turned half a turn, as seen from side B's seat at the table.

    Half a turn, not a mirror: R1 keeps each character in the same lane for both sides, so
    across the table A's lane 1 is on B's right. Flipping only the rows would draw a board
    that no seat sees (lane 1 on the left of both players), and B's Pédalair would no longer
    face the lane it really faces. Lane and row numbers stay the rulebook's (R1, R2): only
    their places change, every text stays upright.
    """

    flipped: bool = False

    def x(self, lane: int) -> int:
        """Left edge of lane 1–6: lane 1 on the left, or on the right when flipped."""
        return LEFT + ((6 - lane) if self.flipped else (lane - 1)) * CELL

    def y(self, row: int) -> int:
        """Top edge of row 0–9 (0: A's beach, 9: B's): the bottom side's beach lowest."""
        return TOP + (row if self.flipped else 9 - row) * ROW

    @property
    def bottom(self) -> int:
        """The side whose beach is drawn at the bottom."""
        return 1 if self.flipped else 0

    def lanes(self) -> tuple[int, ...]:
        """Lanes from left to right on screen."""
        return (6, 5, 4, 3, 2, 1) if self.flipped else (1, 2, 3, 4, 5, 6)

    def forward(self, side: int) -> str:
        """The arrow of ``side``'s advance on screen (towards the enemy beach)."""
        return "↑" if side == self.bottom else "↓"


UPRIGHT = Frame(False)


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
    #: The mage's own order, "A" (Avancer) or "T" (Tirer), None while hidden. A central
    #: mage carries its half of the ship's double token (R9: the Avancer / Tirer token's
    #: orientation says which central mage gets which order).
    order: str | None
    token: str | None = None  # the ship's whole token ("AA", "TT", "AT-B", "AT-L")


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


def ship_halves(token: str) -> tuple[str, str]:
    """The Barreur's and the Lanceur's orders on the ship's token: ``AT-L`` → ``("A", "T")``."""
    if token.startswith("AT-"):
        return ("T", "A") if token.endswith("B") else ("A", "T")
    return token[0], token[1]


def _unit_order(orders: str | None, character: int) -> tuple[str | None, str | None]:
    """The mage's own order letter and, for a central mage, the ship's whole token."""
    if orders is None:
        return None, None
    lateral, ship = orders.split()
    unit = UNIT_OF_CHAR[character]
    if unit == SHIP:
        return ship_halves(ship)[character - CHAR_NAMES.index("barreur")], ship
    return lateral[(0, 1, None, 2, 3)[unit]], None  # type: ignore[index]


def unit_views(state: MatchState, viewer: int | None) -> list[UnitView]:
    orders = visible_orders(state, viewer)
    views = []
    for side in (0, 1):
        for character in range(CHARS):
            unit = UNIT_OF_CHAR[character]
            order, token = _unit_order(orders[side], character)
            views.append(
                UnitView(
                    side=side,
                    character=character,
                    row=state.rows[side * UNITS + unit],
                    resilience=state.res[side * CHARS + character],
                    ultime_used=bool(state.ult_used[side] >> character & 1),
                    activated=bool(state.activated[side] >> unit & 1),
                    order=order,
                    token=token,
                )
            )
    return views


def unit_aria(view: UnitView) -> str:
    parts = [f"{mage_label(view.side, view.character)}, ligne {view.row}"]
    parts.append(f"Résilience {view.resilience}")
    if view.order is not None:
        parts.append(f"ordre {ORDER_WORDS[view.order]}")
        if view.token is not None:
            parts.append(f"double-jeton du navire {view.token}")
    if view.ultime_used:
        parts.append(f"Ultime {ULTIME_NAMES[view.character]} utilisé")
    if view.activated:
        parts.append("déjà activé ce tour")
    return ", ".join(parts)


def hit_attributes(kind: str, label: str, key: str) -> str:
    """The attributes that make an SVG group a keyboard- and click-activable button."""
    return (
        f' data-hit="{kind}" data-key="{escape(key)}" role="button" tabindex="0" '
        f'aria-label="{escape(label)}"'
    )


def _water() -> str:
    """Rows 1–8 (the middle of the board either way up): one rect and its cell lines, the
    look of 48 cells in a twentieth of their bytes (the board is re-sent on every move)."""
    top, bottom, right = TOP + ROW, TOP + 9 * ROW, LEFT + 6 * CELL
    lines = "".join(f"M{LEFT + k * CELL} {top}V{bottom}" for k in range(1, 6))
    lines += "".join(f"M{LEFT} {top + k * ROW}H{right}" for k in range(1, 8))
    return (
        f'<rect class="akvo-board-water" x="{LEFT}" y="{top}" width="{6 * CELL}" '
        f'height="{8 * ROW}"/><path class="akvo-board-water" d="{lines}"/>'
    )


# --- Pieces, drawn at a place (the board and its legend draw them alike) -----------------------


def chest_shape(side: int, x: int, y: int, lane: int = 0) -> str:
    """A larimar chest in the cell whose top-left corner is (x, y)."""
    where = f' data-lane="{lane}"' if lane else ""
    return (
        f'<rect class="akvo-board-chest" data-side="{SIDE_NAMES[side]}"{where} '
        f'x="{x + 17}" y="{y + 9}" width="22" height="16" rx="3"/>'
    )


def favoured_mark(side: int, cy: int, cx: int = LEFT - 12) -> str:
    """The disc behind a beach's letter: that side is favoured by this turn's weather."""
    name = SIDE_NAMES[side]
    return (
        f'<g class="akvo-board-favoured" data-side="{name}">'
        f"<title>Camp avantagé par la météo du tour : {name}</title>"
        f'<circle cx="{cx}" cy="{cy}" r="11"/></g>'
    )


def unit_body(side: int, character: int, cx: int, cy: int) -> str:
    """A mage: A's round, B's square, in its side's colour, with its two letters."""
    colour = SIDE_COLOURS[side]
    r = UNIT_R
    if side == 0:
        shape = f'<circle cx="{cx}" cy="{cy}" r="{r}" fill="{colour}"/>'
    else:
        shape = (
            f'<rect x="{cx - r}" y="{cy - r}" width="{2 * r}" height="{2 * r}" rx="5" '
            f'fill="{colour}"/>'
        )
    return (
        f'{shape}<text class="akvo-board-initial" x="{cx}" y="{cy + 6}" '
        f'text-anchor="middle">{LETTERS[character]}</text>'
    )


def resilience_pips(count: int, cx: int, cy: int) -> str:
    """One yellow pip per point of Résilience, under the mage."""
    return "".join(
        f'<circle class="akvo-board-resilience" cx="{cx - 8 + pip * 8}" '
        f'cy="{cy + PIPS_DY - UNIT_DY}" r="3"/>'
        for pip in range(count)
    )


def ultime_mark(cx: int, cy: int) -> str:
    """The cross at the mage's top left: its Ultime is used."""
    return (
        f'<text class="akvo-board-ultime-used" x="{cx - 21}" y="{cy - 4}" '
        'text-anchor="middle">✕</text>'
    )


def order_mark(order: str, cx: int, cy: int) -> str:
    """The mage's order letter at its top right: A (Avancer) or T (Tirer)."""
    return (
        f'<text class="akvo-board-order" x="{cx + 21}" y="{cy - 4}" '
        f'text-anchor="middle">{order}</text>'
    )


def ship_frame(side: int, x: int, y: int) -> str:
    """The ship around the two central cells whose left one's corner is (x, y)."""
    return (
        f'<rect x="{x + 3}" y="{y + 3}" width="{2 * CELL - 6}" height="{ROW - 6}" rx="14" '
        f'stroke="{SIDE_COLOURS[side]}"/>'
    )


def badge(x: int, y: int, text: str) -> str:
    """An odds badge in the lower band of the cell whose corner is (x, y)."""
    chip_y = y + CHIP_DY
    return (
        f'<rect class="akvo-board-chip" x="{x + 1}" y="{chip_y}" width="{CELL - 2}" '
        f'height="{CHIP_HEIGHT}" rx="4"/>'
        f'<text class="akvo-board-odds" x="{x + CELL // 2}" y="{chip_y + CHIP_HEIGHT - 4}" '
        f'text-anchor="middle"{fitted(text, CELL - 6)}>{escape(text)}</text>'
    )


def advance_cell(side: int, x: int, y: int, frame: Frame) -> str:
    """A cell the selected mage's Advance reaches: green, dashed, with its arrow."""
    return (
        f'<rect x="{x + 4}" y="{y + 4}" width="{CELL - 8}" height="{ROW - 8}" rx="6"/>'
        f'<text x="{x + CELL // 2}" y="{y + ROW // 2 + 7}" text-anchor="middle">'
        f"{frame.forward(side)}</text>"
    )


def target_cell(x: int, y: int) -> str:
    return (
        f'<rect class="akvo-board-target-cell" x="{x + 2}" y="{y + 2}" '
        f'width="{CELL - 4}" height="{ROW - 4}" rx="6"/>'
    )


def selected_ring(cx: int, cy: int) -> str:
    return f'<circle class="akvo-board-selected" cx="{cx}" cy="{cy}" r="{UNIT_R + 4}"/>'


# --- The board -----------------------------------------------------------------------------------


def _grid(favoured: int | None, frame: Frame) -> list[str]:
    out = [_water()]
    for row in range(10):
        beach = row in (0, 9)
        y = frame.y(row)
        for lane in frame.lanes() if beach else ():
            x = frame.x(lane)
            out.append(
                f'<rect class="akvo-board-beach" x="{x}" y="{y}" width="{CELL}" height="{ROW}"'
                f' data-row="{row}" data-lane="{lane}"/>'
            )
            out.append(chest_shape(0 if row == 0 else 1, x, y, lane))
        label = {0: "A", 9: "B"}.get(row, str(row))
        if beach and favoured == (0 if row == 0 else 1):
            out.append(favoured_mark(favoured, y + ROW // 2))
        out.append(
            f'<text class="akvo-board-axis" data-row="{row}" x="{LEFT - 12}" '
            f'y="{y + ROW // 2 + 5}" text-anchor="middle">{label}</text>'
        )
    for lane in frame.lanes():
        out.append(
            f'<text class="akvo-board-axis" data-lane="{lane}" x="{frame.x(lane) + CELL // 2}" '
            f'y="{TOP - 7}" text-anchor="middle">{lane}</text>'
        )
    return out


def _lighthouse(turn: int, tier: int) -> list[str]:
    """The lighthouse beside the water (it is on the referee's board): it always rises
    upwards, level 1 at the bottom, whichever side sits at the bottom."""
    level = lighthouse_level(turn)
    middle = LIGHT_X + 17
    out = [
        f'<g class="akvo-board-lighthouse" data-level="{level}" data-tier="{tier}">',
        f"<title>Phare au niveau {level}, palier {TIER_NUMERALS[tier]}</title>",
        f'<text x="{middle}" y="{TOP - 7}" text-anchor="middle">Phare</text>',
    ]
    for step in range(1, 9):
        lit = " akvo-board-lit" if step <= level else ""
        out.append(
            f'<rect class="akvo-board-level{lit}" x="{LIGHT_X + 5}" '
            f'y="{UPRIGHT.y(step) + 10}" width="24" height="{ROW - 20}" rx="3"/>'
        )
    out.append(
        f'<text x="{middle}" y="{UPRIGHT.y(9) + ROW // 2 + 5}" text-anchor="middle">{level}</text>'
        f'<text x="{middle}" y="{UPRIGHT.y(0) + ROW // 2 + 5}" text-anchor="middle">'
        f"{TIER_NUMERALS[tier]}</text></g>"
    )
    return out


def _ship(side: int, row: int, frame: Frame) -> str:
    x = min(frame.x(3), frame.x(4))
    return (
        f'<g class="akvo-board-ship" data-side="{SIDE_NAMES[side]}" data-row="{row}">'
        f"{ship_frame(side, x, frame.y(row))}</g>"
    )


def unit_centre(lane: int, row: int, frame: Frame) -> tuple[int, int]:
    return frame.x(lane) + UNIT_DX, frame.y(row) + UNIT_DY


def _unit(view: UnitView, clickable: bool, frame: Frame) -> str:
    side, character = view.side, view.character
    cx, cy = unit_centre(LANE_OF_CHAR[character], view.row, frame)
    classes = "akvo-board-unit" + (" akvo-board-done" if view.activated else "")
    label = unit_aria(view)
    hit = hit_attributes("unit", label, unit_key(side, character)) if clickable else ""
    parts = [
        f'<g class="{classes}" data-side="{SIDE_NAMES[side]}" '
        f'data-character="{CHAR_NAMES[character]}" data-row="{view.row}"{hit}>',
        f"<title>{escape(label)}</title>",
        f'<circle class="akvo-board-focus" cx="{cx}" cy="{cy}" r="{UNIT_R + 5}"/>',
        unit_body(side, character, cx, cy),
        resilience_pips(view.resilience, cx, cy),
    ]
    if view.ultime_used:
        parts.append(ultime_mark(cx, cy))
    if view.order is not None:
        parts.append(order_mark(view.order, cx, cy))
    parts.append("</g>")
    return "".join(parts)


def screen_order(views: list[UnitView], frame: Frame) -> list[UnitView]:
    """The units in reading (and Tab) order: the bottom side first, then lanes left to right."""
    lanes = frame.lanes()
    return sorted(
        views, key=lambda v: (v.side != frame.bottom, lanes.index(LANE_OF_CHAR[v.character]))
    )


def shown_favoured(state: MatchState) -> int | None:
    """The side this turn's weather favours, or None: not drawn yet (the weather node of a
    turn still holds the previous turn's side) or a match that is over."""
    if state.is_terminal() or state.phase == Phase.WEATHER or state.favoured not in (0, 1):
        return None
    return int(state.favoured)


def board_svg(
    state: MatchState,
    viewer: int | None = None,
    clickable: Collection[int] = (),
    frame: Frame = UPRIGHT,
) -> str:
    """The whole board for ``state``; units of the sides in ``clickable`` are buttons."""
    views = screen_order(unit_views(state, viewer), frame)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'class="akvo-board-svg" role="group" data-bottom="{SIDE_NAMES[frame.bottom]}" '
        f'aria-label="Plateau, tour {state.turn}, vu depuis la plage de '
        f'{SIDE_NAMES[frame.bottom]}">',
        *_grid(shown_favoured(state), frame),
        *_lighthouse(state.turn, state.tier),
    ]
    for view in views:
        if view.character == CHAR_NAMES.index("barreur"):
            out.append(_ship(view.side, view.row, frame))
    out.extend(_unit(view, view.side in clickable, frame) for view in views)
    out.append('<g class="akvo-board-overlay"></g></svg>')
    return "".join(out)


# --- The selection layer ---------------------------------------------------------------------


def odds_text(target: TargetPreview) -> str:
    """The chance shown on a target: P(push) for a mage, expected points for a chest."""
    if target.target == CHEST_NAME:
        return points_chip(target.value)
    return exact_percent(target.value)


def badge_text(target: TargetPreview) -> str:
    """The badge's text: the odds, after ``S`` for a shot with Souffle portant."""
    return ("S " if target.souffle else "") + odds_text(target)


def target_label(target: TargetPreview, enemy: int, values: bool = True) -> str:
    """The target in words, for its button and the details list (``values=False``: no
    chance, for a quiz that asks for it)."""
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
        chance = f"recul {exact_percent(target.value)}"
    return f"Tirer sur {what}{how}" + (f" : {chance}" if values else "")


def target_cell_of(
    preview: UnitPreview, target: TargetPreview, state: MatchState
) -> tuple[int, int]:
    """The target's (lane, row): a mage's cell, or the chest on the enemy beach."""
    enemy = 1 - preview.side
    if target.target == CHEST_NAME:
        return LANE_OF_CHAR[preview.character], 9 if preview.side == 0 else 0
    character = CHAR_NAMES.index(target.target)
    return LANE_OF_CHAR[character], state.rows[enemy * UNITS + UNIT_OF_CHAR[character]]


def badged_targets(targets: Sequence[TargetPreview]) -> list[TargetPreview]:
    """The one shot each target cell shows on the board: the plain shot where there is one,
    else the one Souffle portant brings in range (the details list has every shot)."""
    plain = {t.target for t in targets if not t.souffle}
    return [t for t in targets if not t.souffle or t.target not in plain]


#: Rough advance widths of the bold sans-serif glyphs of the odds labels, in ems.
_GLYPH_EMS = {**dict.fromkeys("0123456789", 0.556), ",": 0.278, ".": 0.278, " ": 0.278}
_GLYPH_EMS.update({"\u00a0": 0.278, "%": 0.889, "p": 0.611, "t": 0.333, "S": 0.667})


def fitted(text: str, room: float, font: float = FONT) -> str:
    """``textLength`` attributes that squeeze ``text`` into ``room`` units if its estimated
    width is wider: the label keeps its height (its legibility), never its overflow."""
    width = sum(_GLYPH_EMS.get(ch, 0.611) for ch in text) * font
    if width <= room:
        return ""
    return f' textLength="{room:g}" lengthAdjust="spacingAndGlyphs"'


def overlay_svg(
    state: MatchState,
    preview: UnitPreview | None,
    actions: Mapping[str, str],
    frame: Frame = UPRIGHT,
    values: bool = True,
) -> str:
    """The selection layer: ``actions`` maps an element key to the legal action it plays.

    Keys are ``"advance-<row>"`` and the targets' engine actions (``"shoot surfeur"``); an
    element whose key is in ``actions`` becomes a button that plays it. Each target cell
    shows one badge (:func:`badged_targets`) in its lower band, under the mage; with
    ``values=False`` no badge, no number in a title or label.
    """
    if preview is None:
        return ""
    side, character = preview.side, preview.character
    lane = LANE_OF_CHAR[character]
    out = [selected_ring(*unit_centre(lane, preview.row, frame))]
    for step, row in enumerate(preview.advance_rows, start=1):
        key = f"advance-{row}"
        how = "" if step <= preview.order_cells else " (avec une rune de Mouvement)"
        label = f"Avancer jusqu’à la ligne {row}{how}"
        if key in actions:
            hit = hit_attributes("advance", label, key) + f' data-action="{escape(actions[key])}"'
        else:
            hit = ""  # not a button: its <title> names it, as on the target below
        out.append(
            f'<g class="akvo-board-advance" data-row="{row}" data-lane="{lane}"{hit}>'
            f"<title>{escape(label)}</title>"
            f"{advance_cell(side, frame.x(lane), frame.y(row), frame)}</g>"
        )
    for target in badged_targets(preview.targets):
        target_lane, row = target_cell_of(preview, target, state)
        x, y = frame.x(target_lane), frame.y(row)
        label = target_label(target, 1 - side, values)
        legal = target.action in actions
        hit = hit_attributes("target", label, target.action) if legal else ""
        odds = f' data-odds="{escape(odds_text(target))}"' if values else ""
        out.append(
            f'<g class="akvo-board-target" data-action="{escape(target.action)}" '
            f'data-target="{target.target}" data-souffle="{str(target.souffle).lower()}" '
            f'data-legal="{str(legal).lower()}"{odds}{hit}>'
            f"<title>{escape(label)}</title>{target_cell(x, y)}"
            f"{badge(x, y, badge_text(target)) if values else ''}</g>"
        )
    return "".join(out)
