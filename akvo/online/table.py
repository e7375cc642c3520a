"""A table: seats of people (or bots) around one match, the engine deciding every move.

A seat *proposes* an action; :meth:`Table.propose` accepts it only if it is that seat's
decision now (its side, and at 4 or 6 players its characters: :mod:`akvo.online.roles`) and
the engine finds it legal; anything else is a :class:`~akvo.online.seating.TableRefusal`
with a French message, and nothing changes. Chance is drawn by the engine's streams keyed
by the table's seed (:class:`~akvo.match.streams.KeyedChance`), so a table is a pure
function of its setup and its list of accepted actions (:attr:`Table.rows`): that list is
what the store keeps, and replaying it rebuilds the table exactly.

What a seat may send, beyond the engine's own action strings (``activate navire``…):

- orders, at 2 players: the engine's ``orders AATT AT-B``. At 4 or 6 players each player
  sends a *part* for their own units, ``part pedalair=A kitesurfeur=T`` (the ship's token
  ``navire=AT-B`` too when they hold both central mages), and may send it again until the
  side is complete. When the ship's two mages have different players, one sends
  ``propose AT-B`` and the other ``accept AT-B`` (or proposes another token). The side's
  orders are complete when every part is in and the ship's token agreed; both sides program
  at once (the engine takes A's orders first, B's are kept until then).
- the ship's resolution order, when its two mages have different players:
  ``propose move first`` by one, ``accept move first`` by the other.

Secrets: a seat's view (:func:`akvo.online.views.seat_view`) shows its own side's orders
and parts only; until both sides are complete and revealed, nothing the other side sees
depends on them (the engine's observation hides them, and the table's own fields say only
whether a side has finished programming).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final, TypeVar

from akvo.bots import BOTS
from akvo.match.actions import (
    LATERAL_TOKENS,
    ORDER_ACTION_LIST,
    ORDER_ACTIONS,
    SHIP_TOKENS,
    orders_text,
)
from akvo.match.board import BARREUR, CHARS_OF_UNIT, LANCEUR, SHIP, SIDE_NAMES, UNIT_NAMES
from akvo.match.core import CHANCE, TERMINAL
from akvo.match.phases import ORDERS
from akvo.match.state import MatchState
from akvo.match.streams import KeyedChance
from akvo.online.roles import action_characters, is_joint
from akvo.online.seating import Seat, TableSetup, refuse

#: The verbs of a part of a side's orders and of the central players' agreement.
PART, PROPOSE, ACCEPT = "part", "propose", "accept"
#: Rows of the log that change who plays a seat (never an engine action): ``seat-bot
#: greedy`` hands the seat to a bot, ``seat-back`` gives it back to its player at the
#: next turn.
SEAT_BOT, SEAT_BACK = "seat-bot", "seat-back"
#: Who wrote a row of the log, besides a bot's engine name (:attr:`Table.authors`).
PLAYER, TABLE = "player", "table"
#: A seat index for "no seat": the spectator.
SPECTATOR: Final = -1
#: The longest action text a seat may send (the longest legal one is about 50 characters).
ACTION_LIMIT: Final = 120
#: A side's placeholder orders on the copy a bot of the other side decides from.
_MASK: Final = ORDER_ACTIONS["orders AAAA AA"]

_LATERAL_UNITS: Final = (0, 1, 3, 4)
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Offer:
    """A pending proposal of one central player, for the other to accept."""

    seat: int
    choice: str


@dataclass(slots=True)
class Live:
    """What the service knows of a table beyond its log, for the views: whether each seat
    holds an event stream, when its decision's time runs out (UNIX time, ``None`` when it
    is not deciding or the table has no clock), and the seats offered to a bot."""

    present: list[bool]
    deadlines: list[float | None]
    offered: tuple[int, ...] = ()
    #: The table expired, idle too long: readable, no longer played.
    expired: bool = False
    #: Each seat's profile as anyone may read it (:func:`akvo.online.profiles.public`),
    #: or ``None`` for a guest's or a bot's seat.
    profiles: list[dict[str, Any] | None] = field(default_factory=list)


class Table:
    """One match and its seats (see the module docstring)."""

    def __init__(self, table_id: str, setup: TableSetup) -> None:
        self.id = table_id
        self.setup = setup
        self.seats: tuple[Seat, ...] = setup.seats()
        self.state = MatchState(setup.teams[0], setup.teams[1], setup.rules)
        self.chance = KeyedChance(setup.seed)
        #: Every accepted action in order: (seat index, action). Bots' rows carry the
        #: index of their side's first seat.
        self.rows: list[tuple[int, str]] = []
        #: Who wrote each row: :data:`PLAYER`, a bot's engine name, or :data:`TABLE` for
        #: a change of who plays a seat.
        self.authors: list[str] = []
        # Seats handed to a bot during the match (bot name), and the turn in which their
        # player asked for them back (they return when the turn changes).
        self._handed: list[str | None] = [None] * len(self.seats)
        #: Presence, deadlines and offers (the service's, for the views).
        self.live = Live([False] * len(self.seats), [None] * len(self.seats))
        self._reclaim: dict[int, int] = {}
        # Orders in progress, per side: each seat's part (unit → token index), the ship's
        # agreed token, a central player's pending offer, and complete orders the engine
        # has not taken yet (B's, while A is still programming).
        self._parts: list[dict[int, dict[int, int]]] = [{}, {}]
        self._ship: list[int | None] = [None, None]
        self._ship_offer: list[Offer | None] = [None, None]
        self._order_offer: Offer | None = None
        self._ready: list[str | None] = [None, None]
        self._actions: dict[int, tuple[str, ...]] = {}
        self._actions_at = -1
        self._memo: dict[object, Any] = {}
        self._memo_at = -1
        self._settle()

    # --- who holds what ---------------------------------------------------------------------
    def seat(self, index: int) -> Seat:
        return self.seats[index]

    def side_seats(self, side: int) -> tuple[Seat, ...]:
        return tuple(s for s in self.seats if s.side == side)

    def ship_shared(self, side: int) -> bool:
        """True when the side's Barreur and Lanceur have different players."""
        return self.holder(side, BARREUR) != self.holder(side, LANCEUR)

    def holder(self, side: int, character: int) -> int:
        """The seat index of the player of one character."""
        for seat in self.side_seats(side):
            if character in seat.characters:
                return seat.index
        raise AssertionError("every character has a player")

    def _part_units(self, seat: Seat) -> tuple[int, ...]:
        """The units whose order token this seat's part gives (the ship only if it holds
        both central mages)."""
        units = [u for u in _LATERAL_UNITS if CHARS_OF_UNIT[u][0] in seat.characters]
        if BARREUR in seat.characters and LANCEUR in seat.characters:
            units.append(SHIP)
        return tuple(sorted(units))

    @property
    def finished(self) -> bool:
        return self.state.player == TERMINAL

    def controller(self, index: int) -> str | None:
        """The bot (engine name) that plays seat ``index`` now, or ``None`` for its player."""
        return self._handed[index] or self.seats[index].bot

    def handed(self, index: int) -> str | None:
        """The bot a seat was handed to during the match, if it still plays it."""
        return self._handed[index]

    def reclaiming(self, index: int) -> bool:
        """Whether the seat's player asked for it back (it returns at the next turn)."""
        return index in self._reclaim

    def _side_bot(self, index: int) -> bool:
        return self.setup.bots[self.seats[index].side] is not None

    # --- orders in progress -----------------------------------------------------------------
    def orders_complete(self, side: int) -> bool:
        """Whether ``side`` has finished programming this turn (taken by the engine or
        waiting for it)."""
        if self.state.phase != ORDERS:
            return False
        return self._ready[side] is not None or self.state.orders[side] is not None

    def own_orders(self, side: int) -> str | None:
        """The side's complete orders this turn (``AATT AT-B``), if any."""
        ready = self._ready[side]
        if ready is not None:
            return ready.removeprefix("orders ")
        orders = self.state.orders[side]
        return None if orders is None else orders_text(orders)  # type: ignore[arg-type]

    def parts(self, side: int) -> dict[int, dict[int, int]]:
        """Each seat's part of the side's orders in progress (seat → unit → token index)."""
        return {seat: dict(part) for seat, part in self._parts[side].items()}

    def ship_agreed(self, side: int) -> int | None:
        return self._ship[side]

    def ship_offer(self, side: int) -> Offer | None:
        return self._ship_offer[side]

    @property
    def order_offer(self) -> Offer | None:
        return self._order_offer

    # --- what a seat may do -----------------------------------------------------------------
    def memo(self, key: object, compute: Callable[[], T]) -> T:
        """``compute()``, kept until the next accepted action (every change of a table is
        one): the views' board and log, the coach's advice."""
        if self._memo_at != len(self.rows):
            self._memo = {}
            self._memo_at = len(self.rows)
        if key not in self._memo:
            self._memo[key] = compute()
        found: T = self._memo[key]
        return found

    def actions(self, index: int) -> tuple[str, ...]:
        """Everything seat ``index`` may send now (empty if it is not its decision);
        memoised until the next accepted action."""
        if self._actions_at != len(self.rows):
            self._actions = {}
            self._actions_at = len(self.rows)
        found = self._actions.get(index)
        if found is None:
            found = self._actions[index] = self._seat_actions(index)
        return found

    def _seat_actions(self, index: int) -> tuple[str, ...]:
        if index == SPECTATOR or self.finished:
            return ()
        seat = self.seats[index]
        if self._side_bot(index):
            return ()
        state = self.state
        if state.phase == ORDERS:
            return self._order_actions(seat)
        if state.player != seat.side:
            return ()
        if is_joint(state) and self.ship_shared(seat.side):
            return self._offers(seat, self._order_offer, state.legal)
        chars = set(seat.characters)
        return tuple(a for a in state.legal if chars & action_characters(state, a))

    def _order_actions(self, seat: Seat) -> tuple[str, ...]:
        side = seat.side
        if self.orders_complete(side):
            return ()
        if self.setup.per_side == 1:
            return ORDER_ACTION_LIST
        actions = list(_part_actions(self._part_units(seat)))
        central = {BARREUR, LANCEUR} & set(seat.characters)
        if central and self.ship_shared(side) and self._ship[side] is None:
            actions += self._offers(seat, self._ship_offer[side], SHIP_TOKENS)
        return tuple(actions)

    @staticmethod
    def _offers(seat: Seat, offer: Offer | None, choices: tuple[str, ...]) -> tuple[str, ...]:
        """A central player's proposals, and the acceptance of the other's pending offer."""
        proposals = tuple(f"{PROPOSE} {c}" for c in choices)
        if offer is not None and offer.seat != seat.index:
            return (f"{ACCEPT} {offer.choice}", *proposals)
        return proposals

    def deciding_seats(self) -> tuple[int, ...]:
        """The seats played by people that may act now."""
        return tuple(
            s.index
            for s in self.seats
            if self.controller(s.index) is None and self.actions(s.index)
        )

    def awaited_seats(self) -> tuple[int, ...]:
        """The seats played by people that the table waits for (their clocks run): the
        deciding seats, but at the orders only those whose part is missing or who owe the
        ship's token (a proposal, or the answer to their partner's); a seat that may only
        send its part again is not awaited."""
        deciding = self.deciding_seats()
        if self.state.phase != ORDERS or self.setup.per_side == 1:
            return deciding
        return tuple(s for s in deciding if self._owes_orders(self.seats[s]))

    def _owes_orders(self, seat: Seat) -> bool:
        side = seat.side
        if self._part_units(seat) and seat.index not in self._parts[side]:
            return True
        central = {BARREUR, LANCEUR} & set(seat.characters)
        if not central or not self.ship_shared(side) or self._ship[side] is not None:
            return False
        offer = self._ship_offer[side]
        return offer is None or offer.seat != seat.index

    def bot_seats(self) -> tuple[int, ...]:
        """The seats played by a bot of their own (not a whole side's) that may act now."""
        return tuple(
            s.index
            for s in self.seats
            if self.controller(s.index) and not self._side_bot(s.index) and self.actions(s.index)
        )

    # --- acting -----------------------------------------------------------------------------
    def check(self, index: int, action: object, *, bot: bool = False) -> str:
        """``action`` if seat ``index`` may send it now (its player, or with ``bot`` the
        bot playing it), else a :class:`TableRefusal` (French) saying why; nothing changes
        either way."""
        if not isinstance(action, str) or not 0 < len(action) <= ACTION_LIMIT:
            raise refuse("action", "Un coup est un texte choisi dans la liste proposée.")
        if self.finished:
            raise refuse("finished", "Le match est terminé.")
        if index == SPECTATOR:
            raise refuse("spectator", "Un spectateur regarde sans jouer.")
        if not bot and self.controller(index) is not None:
            raise refuse(
                "bot_seat",
                "Un bot joue cette place\u00a0; reprenez-la, elle vous revient au tour suivant.",
            )
        allowed = self.actions(index)
        if action in allowed:
            return action
        if not allowed:
            raise refuse("not_your_turn", "Ce n’est pas à vous de décider maintenant.")
        raise refuse(
            "illegal", "Ce coup n’est pas permis maintenant\u00a0: choisissez-en un dans la liste."
        )

    def propose(self, index: int, action: object, *, bot: str | None = None) -> None:
        """Apply seat ``index``'s action (checked by :meth:`check`; ``bot``: the bot that
        plays the seat sends it), then play chance."""
        if bot is not None and bot != self.controller(index):
            raise refuse("bot", f"Aucun bot {bot} ne joue la place {self.seats[index].name}.")
        text = self.check(index, action, bot=bot is not None)
        self.rows.append((index, text))
        self.authors.append(bot or PLAYER)
        self._apply(self.seats[index], text)
        self._settle()

    # --- who plays a seat -------------------------------------------------------------------
    def check_control(self, index: int, action: object) -> str:
        """``action`` (``seat-bot <bot>`` or ``seat-back``) if it may change who plays seat
        ``index`` now, else a refusal; nothing changes either way."""
        if self.finished:
            raise refuse("finished", "Le match est terminé.")
        if not 0 <= index < len(self.seats) or not isinstance(action, str):
            raise refuse("seat", "Place inconnue.")
        verb, _, bot = action.partition(" ")
        name = self.seats[index].called
        if verb == SEAT_BOT:
            if bot not in BOTS:
                shown = ", ".join(BOTS.values())
                raise refuse("bots", f"Bot inconnu\u00a0; au choix\u00a0: {shown}.")
            if self.controller(index) is not None:
                raise refuse("seat_taken", f"Un bot joue déjà la place de {name}.")
            return action
        if action == SEAT_BACK:
            if self._handed[index] is None:
                raise refuse("not_handed", f"La place de {name} n’est pas tenue par un bot.")
            if index in self._reclaim:
                raise refuse("not_handed", f"{name} reprend déjà sa place au tour suivant.")
            return action
        raise refuse("seat", "Changement de place inconnu.")

    def control(self, index: int, action: object) -> None:
        """Hand seat ``index`` to a bot, or give it back to its player at the next turn
        (checked by :meth:`check_control`): a row of the log like any action."""
        text = self.check_control(index, action)
        self.rows.append((index, text))
        self.authors.append(TABLE)
        if text == SEAT_BACK:
            self._reclaim[index] = self.state.turn
        else:
            self._handed[index] = text.partition(" ")[2]
            self._reclaim.pop(index, None)
        self._settle()

    def seat_bot_move(self, decide: Callable[[int, MatchState], str]) -> tuple[int, str] | None:
        """The next move of a seat played by a bot of its own, ``(seat, action)``, or
        ``None`` when none moves now (a person's decision, or a bot waiting for one).

        ``decide(seat, state)`` is the seat's bot on ``state``, the match as the seat's side
        sees it (:meth:`seen_by`). At the orders each bot seat sends its part, proposes
        the ship's token or accepts its partner's offer; otherwise the side's first bot
        seat decides, and the bot seat holding that decision sends it (when a person's
        character holds it, the bots wait for that person). A bot accepts its partner's
        offer, so that two bots, or a bot and a person, always agree."""
        seats = self.bot_seats()
        if not seats:
            return None
        if self.state.phase == ORDERS:
            for index in seats:
                action = self._bot_orders_move(index, decide)
                if action is not None:
                    return index, action
            return None
        lead = seats[0]
        side = self.seats[lead].side
        if is_joint(self.state) and self.ship_shared(side):
            offer = self._order_offer
            if offer is None:
                return lead, f"{PROPOSE} {decide(lead, self.seen_by(side))}"
            accept = f"{ACCEPT} {offer.choice}"
            return next(((i, accept) for i in seats if accept in self.actions(i)), None)
        choice = decide(lead, self.seen_by(side))
        return next(((i, choice) for i in seats if choice in self.actions(i)), None)

    def _bot_orders_move(self, index: int, decide: Callable[[int, MatchState], str]) -> str | None:
        seat = self.seats[index]
        side = seat.side
        if self.setup.per_side == 1:
            return decide(index, self.seen_by(side))
        if self._part_units(seat) and index not in self._parts[side]:
            return self.part_of(index, decide(index, self.seen_by(side)))[0]
        if {BARREUR, LANCEUR} & set(seat.characters) and self.ship_shared(side):
            if self._ship[side] is not None:
                return None
            offer = self._ship_offer[side]
            if offer is None:
                orders = ORDER_ACTIONS[decide(index, self.seen_by(side))]
                return f"{PROPOSE} {SHIP_TOKENS[orders[SHIP]]}"
            if offer.seat != index:
                return f"{ACCEPT} {offer.choice}"
        return None

    def _apply(self, seat: Seat, action: str) -> None:
        verb, _, rest = action.partition(" ")
        side = seat.side
        if verb == PART:
            self._parts[side][seat.index] = _parse_part(rest)
            self._complete_orders(side)
        elif verb in (PROPOSE, ACCEPT) and self.state.phase == ORDERS:
            if verb == PROPOSE:
                self._ship_offer[side] = Offer(seat.index, rest)
            else:
                self._ship[side] = SHIP_TOKENS.index(rest)
                self._ship_offer[side] = None
                self._complete_orders(side)
        elif verb == PROPOSE:
            self._order_offer = Offer(seat.index, rest)
        elif verb == ACCEPT:
            self._order_offer = None
            self.state.apply_action(rest)
        elif verb == "orders" and self.state.phase == ORDERS:
            self._ready[side] = action
        else:
            self.state.apply_action(action)

    def _complete_orders(self, side: int) -> None:
        """Assemble the side's orders once every part is in and the ship agreed."""
        tokens: dict[int, int] = {}
        for part in self._parts[side].values():
            tokens.update(part)
        if self._ship[side] is not None:
            tokens[SHIP] = self._ship[side]  # type: ignore[assignment]
        if len(tokens) < len(UNIT_NAMES):
            return
        lateral = "".join(LATERAL_TOKENS[tokens[u]] for u in _LATERAL_UNITS)
        self._ready[side] = f"orders {lateral} {SHIP_TOKENS[tokens[SHIP]]}"

    def _settle(self) -> None:
        """Draw chance and hand complete orders to the engine until a decision is awaited."""
        state = self.state
        while True:
            if state.player == CHANCE:
                self.chance.apply(state)
            elif state.phase == ORDERS and self._ready[state.side] is not None:
                side = state.side
                action = self._ready[side]
                self._ready[side] = None
                self._parts[side] = {}
                self._ship[side] = None
                self._ship_offer[side] = None
                state.apply_action(action)
            else:
                break
        for seat, turn in list(self._reclaim.items()):
            if state.turn != turn or self.finished:
                self._handed[seat] = None
                del self._reclaim[seat]

    # --- bots -------------------------------------------------------------------------------
    def bot_side(self) -> int | None:
        """The side whose bot decides now, if any."""
        player = self.state.player
        if player in (0, 1) and self.setup.bots[player]:
            return player
        return None

    def seen_by(self, side: int) -> MatchState:
        """A copy of the match as ``side`` sees it: the other side's unrevealed orders
        replaced by a placeholder. Bots and the coach decide from it (they read public
        data only; this makes sure of it)."""
        copy = self.state.copy()
        if copy.phase == ORDERS and copy.orders[1 - side] is not None:
            copy.orders[1 - side] = _MASK
        return copy

    def bot_state(self) -> MatchState:
        """The match as the deciding bot's side sees it (:meth:`seen_by`)."""
        return self.seen_by(self.state.player)

    def part_of(self, index: int, orders: str) -> tuple[str, ...]:
        """What seat ``index`` sends for its share of a side's ``orders`` action: the
        action itself alone, else its part and, if it shares the ship, its proposal of
        the ship's token (or the acceptance of the partner's same offer)."""
        if self.setup.per_side == 1:
            return (orders,)
        seat = self.seats[index]
        tokens = ORDER_ACTIONS[orders]
        units = self._part_units(seat)
        part = PART + "".join(
            f" {UNIT_NAMES[u]}={(SHIP_TOKENS if u == SHIP else LATERAL_TOKENS)[tokens[u]]}"
            for u in units
        )
        sent = [part] if units else []
        if {BARREUR, LANCEUR} & set(seat.characters) and self.ship_shared(seat.side):
            ship = SHIP_TOKENS[tokens[SHIP]]
            offer = self._ship_offer[seat.side]
            accept = offer is not None and offer.seat != index and offer.choice == ship
            sent.append(f"{ACCEPT if accept else PROPOSE} {ship}")
        return tuple(sent)

    def check_bot(self, side: int, action: object) -> str:
        """``action`` if it is a legal decision of ``side``'s bot now, else a refusal."""
        if self.bot_side() != side or not isinstance(action, str):
            raise refuse("bot", f"Le bot du camp {SIDE_NAMES[side]} ne décide pas maintenant.")
        if action not in self.state.legal:
            raise refuse("bot", f"Le bot du camp {SIDE_NAMES[side]} propose un coup illégal.")
        return action

    def play_bot(self, side: int, action: object) -> None:
        """Apply the decision of ``side``'s bot (a row of the log, checked by the engine)."""
        action = self.check_bot(side, action)
        self.rows.append((self.side_seats(side)[0].index, action))
        self.authors.append(self.setup.bots[side] or PLAYER)
        self.state.apply_action(action)
        self._settle()

    def row_decider(self, index: int, action: object) -> int:
        """The seat whose own decision a row is (its clock starts again), or -1: a whole
        side's bot's row or a change of who plays a seat (before the row is applied)."""
        self._check_row_seat(index)
        control = isinstance(action, str) and action.partition(" ")[0] in (SEAT_BOT, SEAT_BACK)
        return -1 if control or self._side_bot(index) else index

    def _check_row_seat(self, index: int) -> None:
        """A stored row names a seat of this table (a tampered log may name any number)."""
        if not 0 <= index < len(self.seats):
            raise refuse("row", "Une ligne du journal de la table nomme une place inconnue.")

    def replay_row(self, index: int, action: object) -> None:
        """Apply one stored row: a whole side's bot's, a change of who plays a seat, or a
        seat's action (by the bot playing it, if one does)."""
        self._check_row_seat(index)
        seat = self.seats[index]
        if self._side_bot(index):
            self.play_bot(seat.side, action)
        elif isinstance(action, str) and action.partition(" ")[0] in (SEAT_BOT, SEAT_BACK):
            self.control(index, action)
        else:
            self.propose(index, action, bot=self.controller(index))


@functools.cache
def _part_actions(units: tuple[int, ...]) -> tuple[str, ...]:
    """Every part a player with these units may send (``part pedalair=A navire=AT-B``)."""
    options = [SHIP_TOKENS if u == SHIP else tuple(LATERAL_TOKENS) for u in units]
    return tuple(
        PART + "".join(f" {UNIT_NAMES[u]}={t}" for u, t in zip(units, choice, strict=True))
        for choice in itertools.product(*options)
    )


def _parse_part(text: str) -> dict[int, int]:
    """``pedalair=A navire=AT-B`` → unit → token index (the text is one of the legal parts)."""
    part: dict[int, int] = {}
    for item in text.split():
        name, _, token = item.partition("=")
        unit = UNIT_NAMES.index(name)
        part[unit] = (SHIP_TOKENS if unit == SHIP else LATERAL_TOKENS).index(token)
    return part


def part_choices(action: str) -> dict[str, str]:
    """The unit → token choices of an orders action or a part (for the page's fields)."""
    verb, _, rest = action.partition(" ")
    if verb == PART:
        return dict(item.partition("=")[::2] for item in rest.split())  # type: ignore[misc]
    if verb == "orders":
        orders = ORDER_ACTIONS[action]
        return {
            UNIT_NAMES[u]: (SHIP_TOKENS if u == SHIP else LATERAL_TOKENS)[orders[u]]
            for u in range(len(UNIT_NAMES))
        }
    return {}
