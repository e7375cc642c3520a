"""What each seat (and a spectator) sees of a table: plain JSON-able data.

A view is built from the engine's :meth:`~akvo.match.state.MatchState.observation` of the
seat's side (which hides the other side's unrevealed orders) and the table's own fields,
of which only the seat's own side's orders in progress are shown. A spectator sees what
both sides see: no orders before the reveal. Nothing in a view depends on time, so two
tables in the same position give byte-identical views (the secrecy tests rely on it),
except the service's live fields (:class:`~akvo.online.table.Live`: presence, deadlines,
offers), which depend on who is connected and when, never on the orders in progress: the
other side's deadlines are not shown during the orders (they would tell when each of its
players sent a part).

Labels are French; the engine's action strings are labelled by a :class:`Labels` given by
the front end (the book's labels live in :mod:`akvo_widgets.text.labels`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Protocol

from akvo.bots import BOTS
from akvo.match.actions import LATERAL_TOKENS, SHIP_TOKENS
from akvo.match.board import (
    BARREUR,
    CHAR_LABELS,
    LANCEUR,
    SHIP,
    SHIP_NAME,
    SIDE_NAMES,
    UNIT_NAMES,
)
from akvo.match.phases import ORDERS
from akvo.match.state import MatchState
from akvo.match.svg import board_svg
from akvo.online.roles import is_joint
from akvo.online.table import ACCEPT, PART, PROPOSE, SPECTATOR, Table, part_choices
from akvo.rules import TIER_NUMERALS

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

    def orders(self, orders: str) -> str:
        """A side's whole orders (``ATTA AT-B``) in words."""
        ...

    def board(self, state: MatchState, viewer: int | None) -> str:
        """The board as SVG as ``viewer`` (a side, ``None`` for a spectator) may see it."""
        ...


@dataclass(frozen=True, slots=True)
class Advice:
    """The coach's word on one side's decision: the suggested engine action (at the orders,
    a whole ``orders`` action), a French value text per engine action that has one, and
    what the values assume (French)."""

    suggestion: str | None
    values: dict[str, str]
    note: str


class Coach(Protocol):
    """The coach of a front end (the book's: :mod:`akvo_site.tables.coach`)."""

    def advise(self, state: MatchState, side: int) -> Advice | None:
        """Advice for ``side``, which is deciding (or programming) at ``state``: a copy of
        the match as that side sees it (:meth:`~akvo.online.table.Table.seen_by`)."""
        ...


class PlainLabels:
    """The action strings themselves (tests, programs)."""

    def action(self, state: MatchState, action: str) -> str:
        return action

    def token(self, unit: str, token: str) -> str:
        return token

    def orders(self, orders: str) -> str:
        return orders

    def board(self, state: MatchState, viewer: int | None) -> str:
        return board_svg(state)  # the public board: no orders on it


def seat_view(
    table: Table,
    index: int,
    labels: Labels | None = None,
    *,
    public: bool = True,
    coach: Coach | None = None,
) -> dict[str, Any]:
    """What seat ``index`` (or :data:`~akvo.online.table.SPECTATOR`) sees now; without the
    board and the log (the same for every seat) when ``public`` is false; with the coach's
    advice on its decision when a coach is given and the table shows it."""
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
    legal = [_entry(state, a, labels) for a in actions]
    view: dict[str, Any] = {
        "table": table.id,
        "you": you,
        "seats": _seats(table, index),
        "players": table.setup.players,
        "clock": _clock(table),
        "teams": [{"name": t.name, "list": str(t)} for t in table.setup.teams],
        "rules": table.setup.rules.to_dict(),
        "status": "finished" if table.finished else "expired" if table.live.expired else "playing",
        "result": state.result,
        "turn": state.turn,
        "tier": TIER_NUMERALS[state.tier],
        "phase": state.phase_name(),
        "prompt": _prompt(state),
        "orders": (orders := _orders(table, index)),
        "orders_labels": {
            side: labels.orders(text)
            for side, text in orders.items()
            if text not in (None, "hidden")
        },
        "programmed": (
            {SIDE_NAMES[s]: table.orders_complete(s) for s in (0, 1)}
            if state.phase == ORDERS and not table.finished
            else None
        ),
        "team": _team(table, index, labels),
        "decision": {
            "sides": _deciding_sides(table),
            "seats": list(table.deciding_seats()),
            "yours": bool(actions) and index != SPECTATOR and table.controller(index) is None,
            "sent": _sent(table, index),
            "waiting": _waiting(table, index),
            "offered": [table.seats[s].name for s in table.live.offered if index != SPECTATOR],
        },
        "coach": _coach(table, index, legal, coach, labels),
        "legal": legal,
        "fields": _fields(actions, labels),
        "match": match,
    }
    if public:
        view["log"] = log
        view["board"] = _board(table, index, labels)
    return view


def _seats(table: Table, index: int) -> list[dict[str, Any]]:
    """Every seat with who plays it now, whether its player is connected, and when its
    decision's time runs out (the other side's hidden during the orders)."""
    live = table.live
    viewer = _viewer(table, index)
    secret = table.state.phase == ORDERS and not table.finished
    seats = []
    for seat in table.seats:
        bot = table.controller(seat.index)
        deadline = live.deadlines[seat.index]
        shown = deadline is not None and not (secret and seat.side != viewer)
        seats.append(
            {
                **seat.to_dict(),
                "presence": "present" if live.present[seat.index] else "away",
                "played_by": None if bot is None else BOTS.get(bot, bot),
                "handed": table.handed(seat.index) is not None,
                "reclaiming": table.reclaiming(seat.index),
                "offered": seat.index in live.offered,
                "deadline": round(deadline) if shown and deadline is not None else None,
                "profile": live.profiles[seat.index] if live.profiles else None,
            }
        )
    return seats


def _clock(table: Table) -> dict[str, Any] | None:
    clock = table.setup.clock
    return None if clock is None else {**clock.to_dict(), "label": clock.label}


def _sent(table: Table, index: int) -> bool:
    """Whether this seat's part of its side's orders is in (it may still change it)."""
    if index == SPECTATOR or table.state.phase != ORDERS or table.finished:
        return False
    side = table.seats[index].side
    return table.orders_complete(side) or index in table.parts(side)


def _and(items: list[str]) -> str:
    """« a », « a et b », « a, b et c »."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} et {items[-1]}"


def _who(table: Table, seat: int) -> str:
    """A seat as the others read it: its player's name, or its bot."""
    bot = table.controller(seat)
    called = table.seats[seat].called
    if bot is None:
        return called
    return f"le bot «\u00a0{BOTS.get(bot, bot)}\u00a0» ({called})"


def _of(table: Table, seats: list[int]) -> str:
    """« de Léa », « du bot … », « de Léa et du bot … »."""
    names = [_who(table, s) for s in seats]
    return _and([f"du {n[3:]}" if n.startswith("le bot") else f"de {n}" for n in names])


def _characters(chars: list[int]) -> str:
    return _and([f"le {CHAR_LABELS[c]}" for c in sorted(set(chars))])


def _waiting(table: Table, index: int) -> str | None:
    """What the table waits for, in words, for this seat (« en attente de Léa\u00a0: le
    Barreur et le Lanceur »): at the orders, its own side's missing parts and ship's
    token, or the other side; otherwise the seats deciding. ``None`` when it is this
    seat's own decision alone, or the match is over."""
    if table.finished:
        return None
    state = table.state
    viewer = _viewer(table, index)
    if state.phase == ORDERS:
        if viewer is None or table.orders_complete(viewer):
            others = [SIDE_NAMES[s] for s in (0, 1) if s != viewer and not table.orders_complete(s)]
            return None if not others else f"en attente des ordres du camp {_and(others)}"
        return _orders_waiting(table, index, viewer)
    deciding = [
        s.index
        for s in table.seats
        if s.index != index and (table.actions(s.index) or table.bot_side() == s.side)
    ]
    if table.bot_side() is not None:
        deciding = [table.side_seats(table.bot_side() or 0)[0].index]
    if not deciding:
        return None
    return f"en attente {_of(table, deciding)}"


def _orders_waiting(table: Table, index: int, side: int) -> str | None:
    """The side's missing parts and ship's token, by player (the viewer's own left out)."""
    parts = table.parts(side)
    missing: dict[int, list[str]] = {}
    for seat in table.side_seats(side):
        if seat.index == index or seat.index in parts or not table.actions(seat.index):
            continue
        chars = [c for c in seat.characters if c not in (BARREUR, LANCEUR)]
        if BARREUR in seat.characters and LANCEUR in seat.characters:
            chars += [BARREUR, LANCEUR]
        if chars:
            missing.setdefault(seat.index, []).append(_characters(chars))
    ship = ""
    if table.ship_shared(side) and table.ship_agreed(side) is None:
        offer = table.ship_offer(side)
        central = [table.holder(side, BARREUR), table.holder(side, LANCEUR)]
        if offer is not None:
            other = next(s for s in central if s != offer.seat)
            if other != index:
                missing.setdefault(other, []).append("l’accord sur le double-jeton proposé")
        elif index in central:
            other = next(s for s in central if s != index)
            ship = f"double-jeton du navire à convenir avec {_who(table, other)}"
        else:
            ship = f"en attente {_of(table, central)}\u00a0: le double-jeton du navire"
    said = [f"en attente {_of(table, [s])}\u00a0: {', '.join(m)}" for s, m in missing.items()]
    return "\u00a0; ".join([*said, *([ship] if ship else [])]) or None


def _viewer(table: Table, index: int) -> int | None:
    return None if index == SPECTATOR else table.seats[index].side


def _board(table: Table, index: int, labels: Labels) -> str:
    """The board for this seat's side (or the spectators), drawn once per position."""
    viewer = _viewer(table, index)
    return table.memo(("board", viewer), lambda: labels.board(table.state, viewer))


def _dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def view_json(view: dict[str, Any]) -> str:
    """A view as compact JSON, sorted keys first and then the board and the log: equal
    views give equal bytes (:func:`seat_view_json` writes the same, faster)."""
    rest = {k: v for k, v in view.items() if k not in _PUBLIC}
    return _join(_dumps(rest), _dumps(view["board"]), _dumps(view["log"]))


def seat_view_json(
    table: Table, index: int, labels: Labels | None = None, coach: Coach | None = None
) -> str:
    """``view_json(seat_view(table, index, labels, coach=coach))``, with the board and the
    log (most of a view's bytes, the same for every seat) encoded once per position."""
    labels = labels or PlainLabels()
    viewer = _viewer(table, index)
    board = table.memo(("board json", viewer), lambda: _dumps(_board(table, index, labels)))
    log = table.memo("log json", lambda: _dumps(list(table.state.events)))
    rest = seat_view(table, index, labels, public=False, coach=coach)
    return _join(_dumps(rest), board, log)


_PUBLIC = ("board", "log")


def _join(rest: str, board: str, log: str) -> str:
    return f'{rest[:-1]},"board":{board},"log":{log}}}'


def _coach(
    table: Table,
    index: int,
    legal: list[dict[str, Any]],
    coach: Coach | None,
    labels: Labels,
) -> dict[str, Any] | None:
    """The coach's advice for the seat's decision, if it has one: each legal entry gets the
    value text of its engine action (``entry["coach"]``), the suggestion is turned into
    what this seat sends (its part of suggested orders, a proposal of the ship's order)."""
    if coach is None or not table.setup.coach or not legal or index == SPECTATOR:
        return None
    side = table.seats[index].side
    state = table.state
    if state.phase != ORDERS and state.player != side:
        return None
    advice = table.memo(("coach", side), lambda: coach.advise(table.seen_by(side), side))
    if advice is None:
        return None
    actions = [entry["action"] for entry in legal]
    for entry in legal:
        text = advice.values.get(_engine_action(entry["action"]))
        if text:
            entry["coach"] = text
    suggested: list[str] = []
    if advice.suggestion is not None:
        if state.phase == ORDERS:
            wanted = table.part_of(index, advice.suggestion)
        else:
            wanted = tuple(f"{v}{advice.suggestion}" for v in ("", f"{ACCEPT} ", f"{PROPOSE} "))
        suggested = [a for a in wanted if a in actions]
    return {
        "suggestion": suggested,
        "labels": [e["label"] for e in legal if e["action"] in suggested],
        "note": advice.note,
    }


def _engine_action(action: str) -> str:
    """The engine action a seat's action stands for (a proposal's or acceptance's)."""
    verb, _, rest = action.partition(" ")
    return rest if verb in (PROPOSE, ACCEPT) else action


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
    parts = sorted(table.parts(side).items())
    return {
        "parts": {
            table.seats[seat].name: {UNIT_NAMES[u]: _token(u, t) for u, t in part.items()}
            for seat, part in parts
        },
        "parts_text": [
            f"{table.seats[seat].called} — "
            + ", ".join(
                f"{UNIT_LABELS[u]}\u00a0: {labels.token(UNIT_NAMES[u], _token(u, t))}"
                for u, t in sorted(part.items())
            )
            for seat, part in parts
        ],
        "ship": None if agreed is None else _token(SHIP, agreed),
        "ship_shared": table.ship_shared(side),
        "offer": None
        if offer is None
        else {
            "seat": table.seats[offer.seat].name,
            "choice": offer.choice,
            "label": _choice_label(state, offer.choice, labels),
            "text": f"{table.seats[offer.seat].called} propose"
            + _offer_label(PROPOSE, _choice_label(state, offer.choice, labels), offer.choice)[
                len("Proposer") :
            ],
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
    elif verb in (PROPOSE, ACCEPT):
        entry["label"] = _offer_label(verb, _choice_label(state, rest, labels), rest)
    else:
        entry["label"] = labels.action(state, action)
    return entry


def _offer_label(verb: str, label: str, choice: str) -> str:
    """« Proposer le double-jeton AA : … », « Accepter : le Barreur tire en premier »."""
    what = "Proposer" if verb == PROPOSE else "Accepter"
    if choice in SHIP_TOKENS:
        return f"{what} le double-jeton {label}"
    return f"{what}\u00a0: {label[:1].lower()}{label[1:]}"


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
