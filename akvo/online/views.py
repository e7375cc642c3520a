"""What each seat (and a spectator) sees of a table: plain JSON-able data.

A view is built from the engine's :meth:`~akvo.match.state.MatchState.observation` of the
seat's side (which hides the other side's unrevealed orders) and the table's own fields,
of which only the seat's own side's orders in progress are shown. A spectator sees what
both sides see: no orders before the reveal. Nothing in a view depends on time, so two
tables in the same position give byte-identical views (the secrecy tests rely on it).

Labels are French; the engine's action strings are labelled by a :class:`Labels` given by
the front end (the book's labels live in :mod:`akvo_widgets.play.labels`).
"""

from __future__ import annotations

import json
from typing import Any, Protocol

from akvo.match.actions import LATERAL_TOKENS, SHIP_TOKENS
from akvo.match.board import CHAR_LABELS, SHIP, SHIP_NAME, SIDE_NAMES, UNIT_NAMES
from akvo.match.phases import ORDERS
from akvo.match.state import MatchState
from akvo.online.roles import is_joint
from akvo.online.table import ACCEPT, PART, PROPOSE, SPECTATOR, Table, part_choices

#: Fields of the engine's observation the view gives elsewhere (or not at all).
_OWN_FIELDS = ("viewer", "legal_actions", "events", "orders", "rules", "to_play")
UNIT_LABELS = (*CHAR_LABELS[:2], "Navire", *CHAR_LABELS[4:])


class Labels(Protocol):
    """French labels of the engine's actions and order tokens."""

    def action(self, state: MatchState, action: str) -> str:
        """The label of one legal engine action (``shoot surfeur`` → « Tirer sur … »)."""
        ...

    def token(self, unit: str, token: str) -> str:
        """The label of one order token of a unit (``A`` → « Avancer »)."""
        ...


class PlainLabels:
    """The action strings themselves (tests, programs)."""

    def action(self, state: MatchState, action: str) -> str:
        return action

    def token(self, unit: str, token: str) -> str:
        return token


def seat_view(
    table: Table, index: int, labels: Labels | None = None, *, public: bool = True
) -> dict[str, Any]:
    """What seat ``index`` (or :data:`~akvo.online.table.SPECTATOR`) sees now; without the
    board and the log (the same for every seat) when ``public`` is false."""
    labels = labels or PlainLabels()
    state = table.state
    side = 0 if index == SPECTATOR else table.seats[index].side
    match = state.observation(side)
    log = match["events"]
    for key in _OWN_FIELDS:
        match.pop(key, None)
    you = (
        {"role": "spectator"}
        if index == SPECTATOR
        else {"role": "player", **table.seats[index].to_dict()}
    )
    actions = table.actions(index)
    view: dict[str, Any] = {
        "table": table.id,
        "you": you,
        "seats": [seat.to_dict() for seat in table.seats],
        "players": table.setup.players,
        "teams": [{"name": t.name, "list": str(t)} for t in table.setup.teams],
        "rules": table.setup.rules.to_dict(),
        "status": "finished" if table.finished else "playing",
        "result": state.result,
        "turn": state.turn,
        "phase": state.phase_name(),
        "prompt": _prompt(state),
        "orders": _orders(table, index),
        "programmed": (
            {SIDE_NAMES[s]: table.orders_complete(s) for s in (0, 1)}
            if state.phase == ORDERS and not table.finished
            else None
        ),
        "team": _team(table, index, labels),
        "decision": {
            "sides": _deciding_sides(table),
            "seats": list(table.deciding_seats()),
            "yours": bool(actions),
        },
        "legal": [_entry(state, a, labels) for a in actions],
        "fields": _fields(actions, labels),
        "match": match,
    }
    if public:
        view["log"] = log
        view["board"] = table.board()
    return view


def _dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def view_json(view: dict[str, Any]) -> str:
    """A view as compact JSON, sorted keys first and then the board and the log: equal
    views give equal bytes (:func:`seat_view_json` writes the same, faster)."""
    rest = {k: v for k, v in view.items() if k not in _PUBLIC}
    return _join(_dumps(rest), _dumps(view["board"]), _dumps(view["log"]))


def seat_view_json(table: Table, index: int, labels: Labels | None = None) -> str:
    """``view_json(seat_view(table, index, labels))``, with the board and the log (most of
    a view's bytes, the same for every seat) encoded once per position of the match."""
    key = (len(table.state.history), len(table.state.events))
    cached = table.public_json
    if cached is None or cached[0] != key:
        cached = table.public_json = (
            key,
            _dumps(table.board()),
            _dumps(list(table.state.events)),
        )
    return _join(_dumps(seat_view(table, index, labels, public=False)), cached[1], cached[2])


_PUBLIC = ("board", "log")


def _join(rest: str, board: str, log: str) -> str:
    return f'{rest[:-1]},"board":{board},"log":{log}}}'


def _prompt(state: MatchState) -> str:
    if state.phase == ORDERS:
        return f"Tour {state.turn}\u00a0: chaque camp programme ses ordres en secret."
    return state.prompt()


def _orders(table: Table, index: int) -> dict[str, str | None]:
    """Each side's orders this turn: the viewer's own side in full, the other side only
    ``"hidden"`` once complete, both in full once revealed."""
    state = table.state
    viewer = None if index == SPECTATOR else table.seats[index].side
    shown: dict[str, str | None] = {}
    for side in (0, 1):
        own = table.own_orders(side)
        secret = state.phase == ORDERS and side != viewer
        shown[SIDE_NAMES[side]] = "hidden" if own is not None and secret else own
    return shown


def _deciding_sides(table: Table) -> list[str]:
    state = table.state
    if table.finished:
        return []
    if state.phase == ORDERS:
        return [SIDE_NAMES[s] for s in (0, 1) if not table.orders_complete(s)]
    return [SIDE_NAMES[state.player]]


def _team(table: Table, index: int, labels: Labels) -> dict[str, Any] | None:
    """The viewer's own side's orders in progress (parts, the ship's token, a pending
    offer) at 4 or 6 players; ``None`` for a spectator or a lone player."""
    if index == SPECTATOR or table.setup.per_side == 1:
        return None
    side = table.seats[index].side
    state = table.state
    offer = table.ship_offer(side) if state.phase == ORDERS else None
    if is_joint(state) and state.player == side:
        offer = table.order_offer
    agreed = table.ship_agreed(side)
    return {
        "parts": {
            table.seats[seat].name: {UNIT_NAMES[u]: _token(u, t) for u, t in part.items()}
            for seat, part in sorted(table.parts(side).items())
        },
        "ship": None if agreed is None else _token(SHIP, agreed),
        "ship_shared": table.ship_shared(side),
        "offer": None
        if offer is None
        else {
            "seat": table.seats[offer.seat].name,
            "choice": offer.choice,
            "label": _choice_label(state, offer.choice, labels),
        },
    }


def _token(unit: int, token: int) -> str:
    return (SHIP_TOKENS if unit == SHIP else LATERAL_TOKENS)[token]


def _choice_label(state: MatchState, choice: str, labels: Labels) -> str:
    if choice in SHIP_TOKENS:
        return labels.token(SHIP_NAME, choice)
    return labels.action(state, choice)


def _entry(state: MatchState, action: str, labels: Labels) -> dict[str, Any]:
    verb, _, rest = action.partition(" ")
    entry: dict[str, Any] = {"action": action}
    if verb == PART:
        choices = part_choices(action)
        entry["label"] = ", ".join(
            f"{UNIT_LABELS[UNIT_NAMES.index(u)]}\u00a0: {labels.token(u, t)}"
            for u, t in choices.items()
        )
        entry["choices"] = choices
    elif verb == "orders":
        entry["label"] = labels.action(state, action)
        entry["choices"] = part_choices(action)
    elif verb == PROPOSE:
        entry["label"] = f"Proposer\u00a0: {_choice_label(state, rest, labels)}"
    elif verb == ACCEPT:
        entry["label"] = f"Accepter\u00a0: {_choice_label(state, rest, labels)}"
    else:
        entry["label"] = labels.action(state, action)
    return entry


def _fields(actions: tuple[str, ...], labels: Labels) -> list[dict[str, Any]]:
    """The order tokens the seat chooses, one field per unit, from its legal orders or
    parts: the page shows one choice per field and sends the legal action that matches."""
    values: dict[str, list[str]] = {}
    for action in actions:
        for unit, token in part_choices(action).items():
            seen = values.setdefault(unit, [])
            if token not in seen:
                seen.append(token)
    return [
        {
            "key": unit,
            "label": UNIT_LABELS[UNIT_NAMES.index(unit)],
            "options": [{"value": t, "label": labels.token(unit, t)} for t in tokens],
        }
        for unit, tokens in sorted(values.items(), key=lambda item: UNIT_NAMES.index(item[0]))
    ]
