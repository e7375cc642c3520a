"""Secrets stay secret: until the reveal, nothing side B (or a spectator) gets depends on
the orders side A programs.

As the rules audit did for the bots: two tables in the same position, where A programs
different orders (the same number of moves, in the same order, with different tokens),
must give B's seats and the spectator byte-identical views after every move, and
identical refusals, until both sides are complete; at the reveal they differ (so the
comparison can fail). The same holds for the pushes of the service.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from akvo.match.actions import ORDER_ACTION_LIST, ORDER_ACTIONS, SHIP_TOKENS
from akvo.match.board import BARREUR, LANCEUR, SHIP, UNIT_NAMES
from akvo.match.phases import ORDERS
from akvo.online import SPECTATOR, Table, TableRefusal, seat_view, view_json
from akvo.online.service import TableService
from akvo.online.store import TableStore
from akvo_site.tables.api import FrenchLabels
from akvo_site.tables.coach import TableCoach
from tests.tables_play import PRESETS, new_table, play_until

LABELS, COACH = FrenchLabels(), TableCoach()

#: Actions B tries that are not B's to send (refused: the refusal must not leak either).
_PROBES = ("activate pedalair", "orders AAAA", "part navire=TX", "propose XX", "keep")


def _plan(table: Table, side: int, orders: str) -> list[tuple[int, str]]:
    """The moves by which ``side``'s players program ``orders``: each seat's part, then
    the ship's token proposed by the Barreur's player and accepted by the Lanceur's."""
    if table.setup.per_side == 1:
        return [(table.side_seats(side)[0].index, orders)]
    tokens = ORDER_ACTIONS[orders]
    moves = []
    for seat in table.side_seats(side):
        units = [u for u in range(5) if u != SHIP and _unit_char(u) in seat.characters]
        if BARREUR in seat.characters and LANCEUR in seat.characters:
            units.append(SHIP)
        text = " ".join(f"{UNIT_NAMES[u]}={_token(u, tokens[u])}" for u in sorted(units))
        moves.append((seat.index, f"part {text}"))
    if table.ship_shared(side):
        ship = SHIP_TOKENS[tokens[SHIP]]
        moves.append((table.holder(side, BARREUR), f"propose {ship}"))
        moves.append((table.holder(side, LANCEUR), f"accept {ship}"))
    return moves


def _unit_char(unit: int) -> int:
    return {0: 0, 1: 1, 3: 4, 4: 5}[unit]


def _token(unit: int, index: int) -> str:
    return SHIP_TOKENS[index] if unit == SHIP else "AT"[index]


def _b_sees(table: Table) -> list[str]:
    """B's seats' and the spectator's views, with the book's labels and coach."""
    watchers = [s.index for s in table.side_seats(1)] + [SPECTATOR]
    return [view_json(seat_view(table, i, LABELS, coach=COACH)) for i in watchers]


def _probe(table: Table, seat: int, action: str) -> str:
    try:
        table.propose(seat, action)
    except TableRefusal as refusal:
        return f"{refusal.code}: {refusal.message}"
    return "accepted"


@settings(max_examples=40)
@given(
    players=st.sampled_from([2, 4, 6]),
    seed=st.integers(0, 10_000),
    turn=st.integers(1, 2),
    a_orders=st.lists(st.sampled_from(ORDER_ACTION_LIST), min_size=2, max_size=2, unique=True),
    b_orders=st.sampled_from(ORDER_ACTION_LIST),
    schedule=st.randoms(use_true_random=False),
)
def test_b_sees_nothing_of_as_orders_until_the_reveal(
    players: int,
    seed: int,
    turn: int,
    a_orders: list[str],
    b_orders: str,
    schedule: random.Random,
) -> None:
    one = new_table(players, seed=seed)
    at_orders = play_until(
        one, lambda t: t.state.turn == turn and t.state.phase == ORDERS, random.Random(seed)
    )
    if not at_orders:
        return
    other = new_table(players, seed=seed)
    for seat, action in one.rows:
        other.replay_row(seat, action)
    plans = [_plan(one, 0, a_orders[0]), _plan(other, 0, a_orders[1])]
    b_moves = _plan(one, 1, b_orders)
    # One interleaving of A's and B's moves, and B's probes, played on both tables.
    steps = ["A"] * len(plans[0]) + ["B"] * len(b_moves) + ["probe"] * 3
    schedule.shuffle(steps)
    b_seats = [s.index for s in one.side_seats(1)]
    # Each step's move on each table: A's differ between the tables, B's are the same.
    moves = {"A": iter(zip(*plans, strict=True)), "B": ((m, m) for m in b_moves)}
    for step in steps:
        both_complete = one.orders_complete(0) and one.orders_complete(1)
        if one.state.phase != ORDERS or both_complete:
            break
        assert _b_sees(one) == _b_sees(other)
        if step == "probe":
            seat, probe = schedule.choice(b_seats), schedule.choice(_PROBES)
            assert _probe(one, seat, probe) == _probe(other, seat, probe)
            continue
        for table, move in zip((one, other), next(moves[step]), strict=True):
            table.propose(*move)
    assert one.state.phase != ORDERS  # the reveal happened
    assert _b_sees(one) != _b_sees(other)  # and now A's orders show


def test_the_services_pushes_to_b_match_whatever_a_programs() -> None:
    """Pushes, views and refusals of the service, at 4 players, with the table id (the only
    thing two tables cannot share) masked."""
    seen: list[list[str]] = []
    for a_parts in (
        ["part pedalair=A kitesurfeur=A", "part surfeur=A plongeur=A", "AA"],
        ["part pedalair=T kitesurfeur=T", "part surfeur=T plongeur=T", "TT"],
    ):
        service = TableService(TableStore(":memory:"), LABELS, coach=COACH)
        made = service.create({"teams": PRESETS, "players": 4, "seed": 99})
        table_id = made["table"]
        tokens = [seat["token"] for seat in made["seats"]]
        got: list[str] = []
        for token in [*tokens[2:], made["spectator"]["token"]]:
            service.subscribe(table_id, token, got.append)

        def refusal(
            token: str, action: str, table_id: str = table_id, service: TableService = service
        ) -> str:
            try:
                service.act(table_id, token, action)
            except TableRefusal as refused:
                return refused.message
            return "accepted"

        got.append(refusal(tokens[2], "part surfeur=A plongeur=A"))
        service.act(table_id, tokens[0], a_parts[0])
        got.append(str(service.view(table_id, tokens[3])))
        service.act(table_id, tokens[3], "part surfeur=T plongeur=A")
        service.act(table_id, tokens[1], a_parts[1])
        service.act(table_id, tokens[0], f"propose {a_parts[2]}")
        got.append(refusal(tokens[3], f"accept {a_parts[2]}"))
        service.act(table_id, tokens[1], f"accept {a_parts[2]}")
        got.append(str(service.view(table_id, tokens[2])))
        seen.append([text.replace(table_id, "<id>") for text in got])
    assert len(seen[0]) == len(seen[1]) > 8
    assert seen[0] == seen[1]
