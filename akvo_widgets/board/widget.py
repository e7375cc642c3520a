"""Board: the live match board, an anywidget drawn from any :mod:`akvo.match` state.

Python is the only source of truth. It draws the state as SVG (:mod:`.board_svg`), decides
which elements are buttons and what each one plays; the browser module (``board.js``) only
inserts the pictures and reports which element was clicked or activated with the keyboard.
A selection changes only the small ``overlay`` and ``details`` traits, never the board;
the ``choices`` trait sends each clickable mage's selection with the position, so that the
browser shows a click's result at once and Python's answer confirms it.

The board never applies an action: a click on an element that stands for a legal action
calls the callbacks registered with :meth:`Board.on_action`; their owner applies it and
sets :attr:`Board.state` again.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, replace
from html import escape
from pathlib import Path
from typing import Any, Generic, TypeVar, overload

import anywidget
import traitlets

from akvo.errors import AkvoError
from akvo.match import MatchState, Phase, new_match
from akvo.match.actions import ADVANCE, PARSED, PlayRune
from akvo.match.board import (
    CHAR_NAMES,
    CHARS,
    CHARS_OF_UNIT,
    CHEST,
    SIDE_NAMES,
    UNIT_NAMES,
    UNIT_OF_CHAR,
)
from akvo.match.log import ULTIME_NAMES
from akvo.match.preview import CHEST_NAME, UnitPreview, unit_preview
from akvo.rules import TIER_NUMERALS, lighthouse_level
from akvo_widgets.text.formatting import french, typeset

from . import svg as draw
from .legend import legend_html

T = TypeVar("T")
HERE = Path(__file__).parent
Action = Callable[[str], Any]
#: Drawings a board keeps, the latest used last: a page's controls go back and forth
#: between a few positions, and drawing one (every clickable mage's selection layer) takes
#: 5–25 ms of the kernel, naming it (the state's JSON) 0.1 ms.
DRAWINGS_KEPT = 8


@dataclass(frozen=True)
class _Drawing:
    """Everything one redraw computes (see :meth:`Board._draw_board`)."""

    svg: str
    status: str
    choices: dict[str, dict[str, str]]
    view: dict[str, str]
    previews: dict[tuple[int, int], UnitPreview]


class BoardError(AkvoError):
    """A board asked to show something that is not a match state, a side or a mage."""


def _side(value: object) -> int:
    if value in SIDE_NAMES:
        return SIDE_NAMES.index(str(value))
    if isinstance(value, int) and not isinstance(value, bool) and value in (0, 1):
        return value
    raise BoardError(f"side must be 0, 1, 'A' or 'B', got {str(value)[:20]!r}")


def _character(value: object) -> int:
    if value in CHAR_NAMES:
        return CHAR_NAMES.index(str(value))
    if isinstance(value, int) and not isinstance(value, bool) and value in range(CHARS):
        return value
    raise BoardError(
        f"character must be 0–5 or one of {', '.join(CHAR_NAMES)}, got {str(value)[:20]!r}"
    )


def _viewer(value: object) -> int | None:
    return None if value is None else _side(value)


def _players(value: Iterable[int | str] | None) -> tuple[int, ...] | None:
    if value is None:
        return None
    if isinstance(value, (str, int)):
        raise BoardError(f"players must be a list of sides or None, got {str(value)[:20]!r}")
    return tuple(sorted({_side(side) for side in value}))


def _flipped(value: object) -> bool | None:
    if value is None or isinstance(value, bool):
        return value
    raise BoardError(f"flipped must be True, False or None, got {str(value)[:20]!r}")


def _flag(name: str, value: object) -> bool:
    if isinstance(value, bool):
        return value
    raise BoardError(f"{name} must be True or False, got {str(value)[:20]!r}")


def _values(value: object) -> bool:
    return _flag("values", value)


class _Redrawing(Generic[T]):
    """A board setting that redraws the board when it changes; ``check`` turns what is set
    into the value kept (a :class:`BoardError` for anything else: nothing changes). The
    value lives in the board's ``_<name>`` attribute."""

    def __init__(self, check: Callable[[Any], T], doc: str) -> None:
        self._check = check
        self.__doc__ = doc

    def __set_name__(self, owner: type, name: str) -> None:
        self._attribute = f"_{name}"

    @overload
    def __get__(self, board: None, owner: type | None = None) -> _Redrawing[T]: ...
    @overload
    def __get__(self, board: object, owner: type | None = None) -> T: ...
    def __get__(self, board: object, owner: type | None = None) -> T | _Redrawing[T]:
        if board is None:
            return self
        value: T = getattr(board, self._attribute)
        return value

    def __set__(self, board: Any, value: Any) -> None:
        checked = self._check(value)
        if checked != getattr(board, self._attribute):
            setattr(board, self._attribute, checked)
            board._draw_board()


def _state(value: object) -> MatchState:
    if value is None:
        return new_match()
    if not isinstance(value, MatchState):
        raise BoardError(f"state must be an akvo.match.MatchState, got {type(value).__name__}")
    return value


def clickable_sides(state: MatchState) -> tuple[int, ...]:
    """The sides whose mages a reader may select: the side to decide, else the activating
    side during a roll; both at a weather draw (a position to explore); none at the end."""
    if state.is_terminal():
        return ()
    if not state.is_chance_node():
        return (state.current_player,)
    if state.phase != Phase.WEATHER and state.side in (0, 1):
        return (state.side,)
    return (0, 1)


def _typography(text: str) -> str:
    return french(text.replace("'", "’"))


def weather_text(state: MatchState) -> str:
    """This turn's weather as the position shows it: to draw (a turn's weather node still
    holds the previous turn's side), or the side it favours."""
    favoured = draw.shown_favoured(state)
    if favoured is None:
        return "jeton à tirer"
    return f"{SIDE_NAMES[favoured]} avantagé"


def status_html(state: MatchState, moment: str = "") -> str:
    """Turn, lighthouse, tier, weather, scores, whose decision, each side's spent resources;
    always about the position shown (a finished match has no weather to draw). ``moment``
    replaces the decision line where the page describes the move that led here (a replay),
    so that the board does not announce the next one."""
    level = lighthouse_level(state.turn)
    wind = f"Tour {state.turn} · phare au niveau {level} · palier {TIER_NUMERALS[state.tier]}"
    if state.is_terminal():
        head, who = f"{wind} (le dernier)", "Match terminé"
    else:
        head = f"{wind} · météo : {weather_text(state)}"
        who = (
            "Au hasard"
            if state.is_chance_node()
            else (f"À {SIDE_NAMES[state.current_player]} de décider")
        )
    lines = [
        f'<p class="akvo-board-turn">{head}</p>',
        f'<p class="akvo-board-score">Score : A <b>{state.scores[0]}</b> – '
        f"<b>{state.scores[1]}</b> B</p>",
        f'<p class="akvo-board-decision"><b>{who}</b> — {escape(typeset(state.prompt()))}</p>'
        if not moment
        else f'<p class="akvo-board-decision akvo-board-moment">{escape(typeset(moment))}</p>',
    ]
    items = []
    for side in (0, 1):
        name = state.teams[side].name
        team = f" ({escape(name)})" if name else ""
        spent = ", ".join(state.spent_letters(side)) or "aucune"
        used = [ULTIME_NAMES[c] for c in range(CHARS) if state.ult_used[side] >> c & 1]
        items.append(
            f'<li data-side="{SIDE_NAMES[side]}"><b>{SIDE_NAMES[side]}</b>{team} : '
            f"runes dépensées : {spent} ; Ultimes utilisés : {', '.join(used) or 'aucun'}</li>"
        )
    lines.append(f'<ul class="akvo-board-sides">{"".join(items)}</ul>')
    return _typography("".join(lines))


def details_html(
    preview: UnitPreview | None,
    hint: str,
    actions: Mapping[str, str] | None = None,
    values: bool = True,
) -> str:
    """The selection in words: where the mage may advance, every shot with its odds (none
    with ``values=False``). A shot that is a legal action now (in ``actions``) is a button,
    as on the board: the details list every shot, Souffle portant's too."""
    if preview is None:
        return _typography(f"<p>{hint}</p>") if hint else ""
    who = draw.mage_label(preview.side, preview.character)
    own, extra = (
        preview.advance_rows[: preview.order_cells],
        preview.advance_rows[preview.order_cells :],
    )
    if not own:
        advance = "ne peut pas avancer"
    elif not extra:
        advance = f"peut avancer jusqu’à la ligne {own[-1]}"
    else:
        advance = (
            f"peut avancer jusqu’à la ligne {own[-1]} ({extra[-1]} avec une rune de Mouvement)"
        )
    head = f"<p><b>{who}</b>, ligne {preview.row} : {advance}.</p>"
    if not preview.targets:
        return _typography(head + "<p>Aucune cible à portée.</p>")
    enemy = 1 - preview.side
    buttons = actions or {}
    items = []
    for t in preview.targets:
        label = draw.target_label(t, enemy, values)
        odds = f' data-odds="{escape(draw.odds_text(t))}"' if values else ""
        hit = draw.hit_attributes("target", label, t.action) if t.action in buttons else ""
        items.append(f'<li data-action="{escape(t.action)}"{odds}{hit}>{escape(label)}</li>')
    return _typography(f'{head}<ul class="akvo-board-target-list">{"".join(items)}</ul>')


class Board(anywidget.AnyWidget):  # type: ignore[misc]
    """The live board of a match state; see the module docstring.

    ``Board(state=None, *, viewer=None, interactive=True, flipped=None, players=None,
    values=True, compact=False)``:

    - ``state`` is any :class:`~akvo.match.MatchState` (``None``: a new match);
    - ``viewer`` is the side (0/1 or ``"A"``/``"B"``) whose hidden orders may be shown;
    - ``interactive=False`` draws but offers no buttons;
    - ``flipped`` turns the board half a turn, B's beach at the bottom, as seen from B's
      seat (:class:`~akvo_widgets.board.svg.Frame` says why lanes turn too); ``None``
      follows the viewer: B's board is flipped, A's and a spectator's are not. A hot seat
      sets :attr:`flipped` for each side in turn;
    - ``players`` lists the sides the reader plays (``None``: any side). Only their mages'
      selections go with the position in ``choices``: at a bot's turn a redraw sends none,
      and a click on a bot's mage is answered by Python alone;
    - ``values=False`` (settable, :attr:`values`) is the quiz mode: the board stays
      clickable (a click on a target plays its shot) but shows no odds badge, and no chance
      in a title, an accessible name, the details or any synced trait, so nothing in the
      page gives away a value an exercise asks for;
    - ``compact=True`` (settable, :attr:`compact`) is for pages where the reader decides
      with controls placed right under the board (in the same box): the board sticks to
      the top of the screen while the page scrolls those controls under it, its picture at
      most half the screen's height (texts about 11 px on a phone), the status on two
      lines, the details whole (never a small scroll box). The play pages switch it on
      (on a phone they shrink its picture further, to leave the decision's sheet its
      room: :mod:`akvo_widgets.play.game`); the steppers use it.

    :attr:`selected` is ``(side, character)`` as the engine's ints; clicks and keys play the
    same actions either way. Every board carries its legend (:mod:`.board_legend`) behind
    a « Légende » toggle.
    """

    _esm = HERE / "board.js"
    _css = HERE / "board.css"

    svg = traitlets.Unicode("").tag(sync=True)
    overlay = traitlets.Unicode("").tag(sync=True)
    status = traitlets.Unicode("").tag(sync=True)
    details = traitlets.Unicode("").tag(sync=True)
    selected_key = traitlets.Unicode("").tag(sync=True)
    # Each clickable mage's selection layer and details, computed with the board, so that
    # the browser shows a click's result at once (Python confirms it with the traits above).
    choices = traitlets.Dict().tag(sync=True)
    #: The legend shown by the « Légende » toggle (the same for every board).
    legend = traitlets.Unicode("").tag(sync=True)

    def __init__(
        self,
        state: MatchState | None = None,
        *,
        viewer: int | str | None = None,
        interactive: bool = True,
        flipped: bool | None = None,
        players: Iterable[int | str] | None = None,
        values: bool = True,
        compact: bool = False,
    ) -> None:
        self._state = _state(state)
        self._viewer = _viewer(viewer)
        self._players = _players(players)
        self._flipped = _flipped(flipped)
        self._interactive = bool(interactive)
        self._values = _values(values)
        self._selected: tuple[int, int] | None = None
        self._moment = ""
        self._auto = False  # the selection follows the decision (a shooter, an advance)
        self._preview: UnitPreview | None = None
        self._callbacks: list[Action] = []
        self._previews: dict[tuple[int, int], UnitPreview] = {}
        self._drawings: OrderedDict[tuple[Any, ...], _Drawing] = OrderedDict()
        super().__init__(legend=legend_html())
        self.add_class("akvo-widget")
        self.add_class("akvo-board")
        self.compact = compact
        self.on_msg(self._on_message)
        self._follow_state()
        self._draw_board()

    # --- public API ----------------------------------------------------------------------

    @property
    def state(self) -> MatchState:
        return self._state

    @state.setter
    def state(self, value: MatchState) -> None:
        self._state = _state(value)
        self._follow_state()
        self._draw_board()

    viewer = _Redrawing(
        _viewer, "The side (engine int) whose hidden orders may be shown, or ``None``."
    )

    @property
    def moment(self) -> str:
        """The decision line's replacement (``""``: whose decision and the prompt); see
        :func:`status_html`. Set it before :attr:`state`: the status follows both."""
        return self._moment

    @moment.setter
    def moment(self, value: str) -> None:
        if not isinstance(value, str):
            raise BoardError(f"moment must be a text, got {type(value).__name__}")
        self._moment = value
        self.status = status_html(self._state, value)

    @property
    def flipped(self) -> bool:
        """Whether B's beach is drawn at the bottom (given, or following the viewer)."""
        return self._frame().flipped

    @flipped.setter
    def flipped(self, value: bool | None) -> None:
        """``True``/``False`` fixes the orientation; ``None`` makes it follow the viewer."""
        self._flipped = _flipped(value)
        self._draw_board()

    players = _Redrawing(
        _players, "The sides the reader plays (engine ints), or ``None`` for any side."
    )
    values = _Redrawing(
        _values, "Whether odds are shown (``False``: the quiz mode, see the class docstring)."
    )

    @property
    def compact(self) -> bool:
        """Whether the board is the compact, sticky one (see the class docstring)."""
        return "akvo-board-compact" in self._dom_classes

    @compact.setter
    def compact(self, value: bool) -> None:
        if _flag("compact", value):
            self.add_class("akvo-board-compact")
        else:
            self.remove_class("akvo-board-compact")

    def _frame(self) -> draw.Frame:
        flipped = self._viewer == 1 if self._flipped is None else self._flipped
        return draw.Frame(flipped)

    @property
    def interactive(self) -> bool:
        return self._interactive

    @property
    def selected(self) -> tuple[int, int] | None:
        """``(side, character)`` of the selected mage (engine ints), or ``None``."""
        return self._selected

    @property
    def preview(self) -> UnitPreview | None:
        """The engine's :class:`~akvo.match.preview.UnitPreview` shown, or ``None``."""
        return self._preview

    def select(self, side: int | str, character: int | str) -> None:
        """What a click on that mage does: select it, show its advances and targets, and
        play its legal action if it stands for one (``activate …`` at an activation)."""
        chosen = (_side(side), _character(character))
        self._set_selection(chosen)
        action = self._unit_action(*chosen)
        if action is not None:
            self._play(action)

    def deselect(self) -> None:
        self._set_selection(None)

    def on_action(self, callback: Action, remove: bool = False) -> None:
        """Register (or remove) ``callback(action)``, called with each legal action played
        on the board. The board never applies it: its owner does, then sets ``state``."""
        if remove:
            self._callbacks.remove(callback)
        else:
            self._callbacks.append(callback)

    def actions(self) -> dict[str, str]:
        """The selection layer's buttons: element key → the legal action it plays."""
        return self._actions_for(self._preview)

    def _actions_for(
        self, preview: UnitPreview | None, legal_actions: Collection[str] | None = None
    ) -> dict[str, str]:
        state = self._state
        if preview is None or not self._interactive or state.current_player != preview.side:
            return {}
        legal = set(state.legal_actions() if legal_actions is None else legal_actions)
        out: dict[str, str] = {}
        shot = state.shot
        if shot is not None and (shot.side, shot.shooter) == (preview.side, preview.character):
            out.update({t.action: t.action for t in preview.targets if t.action in legal})
        if (
            state.phase == Phase.ADVANCE
            and state.side == preview.side
            and state.unit == UNIT_OF_CHAR[preview.character]
        ):
            order, rune = preview.order_row, preview.rune_row
            runes = [a for a in legal if isinstance(PARSED.get(a), PlayRune)]
            if order is not None and ADVANCE in legal:
                out[f"advance-{order}"] = ADVANCE
            if rune is not None and len(runes) == 1:
                out[f"advance-{rune}"] = runes[0]
        return out

    # --- drawing -------------------------------------------------------------------------

    def _clickable(self) -> tuple[int, ...]:
        return clickable_sides(self._state) if self._interactive else ()

    def _eager(self, clickable: tuple[int, ...]) -> tuple[int, ...]:
        """The sides whose mages' selections go with the position: clickable and played by
        the reader (``players``); another mage's selection waits for Python's answer."""
        if self._players is None:
            return clickable
        return tuple(side for side in clickable if side in self._players)

    def _draw_board(self) -> None:
        """Redraw for a new state, viewer or frame, or take the same drawing again if the
        board drew it lately (:data:`DRAWINGS_KEPT`): it depends on nothing else."""
        key = (
            self._state.to_json(),
            self._viewer,
            self._frame().flipped,
            self._players,
            self._interactive,
            self._values,
            self._selected,
        )
        drawing = self._drawings.pop(key, None) or self._drawing()
        self._drawings[key] = drawing
        while len(self._drawings) > DRAWINGS_KEPT:
            self._drawings.popitem(last=False)
        self._previews = drawing.previews
        with self.hold_sync():
            self.svg = drawing.svg
            self.status = status_html(self._state, self._moment) if self._moment else drawing.status
            self.choices = drawing.choices
            self._show_selection(drawing.view)

    def _drawing(self) -> _Drawing:
        """Every preview, label and legal action, computed once per redraw, and only for
        the mages the reader may play now."""
        state, frame = self._state, self._frame()
        sides = self._clickable()
        legal = state.legal_actions() if sides else None
        previews: dict[tuple[int, int], UnitPreview] = {}
        if self._selected is not None and self._preview is not None:
            previews[self._selected] = self._preview
        choices = {"": self._view(None, sides, legal, frame)}
        for side in self._eager(sides):
            for character in range(CHARS):
                chosen = (side, character)
                if chosen not in previews:
                    previews[chosen] = unit_preview(state, side, character)
                choices[draw.unit_key(*chosen)] = self._view(previews[chosen], sides, legal, frame)
        key = draw.unit_key(*self._selected) if self._selected else ""
        view = choices.get(key) or self._view(self._preview, sides, legal, frame)
        return _Drawing(
            svg=draw.board_svg(state, self._viewer, sides, frame),
            status=status_html(state),
            choices=choices,
            view=view,
            previews=previews,
        )

    def _view(
        self,
        preview: UnitPreview | None,
        sides: tuple[int, ...] | None = None,
        legal: Collection[str] | None = None,
        frame: draw.Frame | None = None,
    ) -> dict[str, str]:
        """The selection layer and the details shown for ``preview`` (None: no selection)."""
        sides = self._clickable() if sides is None else sides
        hint = ""
        if preview is None and sides:
            names = " ou ".join(SIDE_NAMES[s] for s in sides)
            hint = (
                f"Choisissez un mage de {names} (clic, ou Tab puis Entrée) "
                "pour voir où il peut avancer et sur qui il peut tirer."
            )
        preview, values = self._shown(preview)
        actions = self._actions_for(preview, legal)
        frame = frame or self._frame()
        return {
            "overlay": draw.overlay_svg(self._state, preview, actions, frame, values),
            "details": details_html(preview, hint, actions, values),
        }

    def _shown(self, preview: UnitPreview | None) -> tuple[UnitPreview | None, bool]:
        """What a selection shows, and whether with values. Once the shooter has chosen its
        target, only that target is left, without a number: the shot's odds now depend on
        the runes played, and the badges of the shots it did not take are gone."""
        shot = self._state.shot
        if (
            preview is None
            or shot is None
            or shot.target < 0
            or (shot.side, shot.shooter) != (preview.side, preview.character)
        ):
            return preview, self._values
        name = CHEST_NAME if shot.target == CHEST else CHAR_NAMES[shot.target]
        chosen = tuple(
            t for t in preview.targets if t.target == name and t.souffle == bool(shot.souffle)
        )
        return replace(preview, targets=chosen[:1], advance_rows=()), False

    def _draw_selection(self) -> None:
        self._show_selection(self._view(self._preview))

    def _show_selection(self, view: dict[str, str]) -> None:
        with self.hold_sync():
            self.overlay = view["overlay"]
            self.details = view["details"]
            self.selected_key = draw.unit_key(*self._selected) if self._selected else ""

    def _set_selection(self, chosen: tuple[int, int] | None) -> None:
        self._selected, self._auto = chosen, False
        if chosen is None:
            self._preview = None
        else:
            self._preview = self._previews.get(chosen) or unit_preview(self._state, *chosen)
        self._draw_selection()

    def _follow_state(self) -> None:
        """After a new state: select the mage the decision is about (the shooter, the
        advancing unit); once that decision is over, nothing (its badges described a shot
        now resolved); else keep the reader's own choice while its side may still play."""
        state = self._state
        chosen = self._selected
        shot = state.shot
        auto = True
        if state.is_terminal():
            chosen = None
        elif shot is not None:
            chosen = (shot.side, shot.shooter)
        elif state.phase == Phase.ADVANCE and state.unit >= 0:
            chosen = (state.side, CHARS_OF_UNIT[state.unit][0])
        elif self._auto or (chosen is not None and chosen[0] not in clickable_sides(state)):
            chosen, auto = None, False
        else:
            auto = False
        self._selected, self._auto = chosen, auto and chosen is not None
        self._preview = None if chosen is None else unit_preview(state, *chosen)

    # --- what the browser reports --------------------------------------------------------

    def _unit_action(self, side: int, character: int) -> str | None:
        state = self._state
        action = f"activate {UNIT_NAMES[UNIT_OF_CHAR[character]]}"
        if state.current_player == side and action in state.legal_actions():
            return action
        return None

    def _play(self, action: str) -> None:
        if action not in self._state.legal_actions():
            return
        for callback in list(self._callbacks):
            callback(action)

    def _on_message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        """A click or key in the browser; anything unexpected is ignored, never raised."""
        if not isinstance(content, dict) or not self._interactive:
            return
        kind = content.get("kind")
        try:
            if kind == "unit":
                side = _side(content.get("side"))
                character = _character(content.get("character"))
                if side in self._clickable():
                    self.select(side, character)
            elif kind in ("target", "advance"):
                key = str(content.get("key", ""))
                action = self.actions().get(key)
                if action is not None:
                    self._play(action)
            elif kind == "escape":
                self.deselect()
        except BoardError:
            return
