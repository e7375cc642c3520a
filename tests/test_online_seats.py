"""Online tables, who plays each seat: clocks, presence, offers, bots taking a seat and the
player taking it back, bots in single seats at 2, 4 and 6 players (issue 37, items 1–3).

Time is a fake clock given to the service (``now``): every test is instant."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from akvo.match.phases import ORDERS
from akvo.online import TableRefusal, parse_request, seat_view
from akvo.online.clock import ClockSetup, SeatClocks
from akvo.online.service import TableService
from akvo.online.store import TableStore
from akvo.online.table import PLAYER, SEAT_BACK, TABLE, Table
from tests.tables_play import PRESETS, new_table


class FakeTime:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.t = 1_000_000.0

    def __call__(self) -> float:
        return self.t


def _service(now: FakeTime) -> TableService:
    return TableService(TableStore(":memory:", now=now), now=now)


def _create(service: TableService, players: int = 2, **request: object) -> dict[str, object]:
    return service.create({"teams": PRESETS, "players": players, "seed": 5, **request})


def _tokens(made: dict[str, object]) -> list[str | None]:
    return [seat["token"] for seat in made["seats"]]  # type: ignore[attr-defined,index]


def _play(service: TableService, table_id: str, tokens: list[str | None], seat: int) -> None:
    """Seat ``seat`` plays its first legal action."""
    token = tokens[seat]
    view = service.view(table_id, token)
    service.act(table_id, token, view["legal"][0]["action"])


# --- the clock, from the creation request ---------------------------------------------------
def test_a_clock_is_read_from_the_request() -> None:
    live = parse_request({"teams": PRESETS, "clock": {"mode": "en direct", "minutes": 3}})
    assert live.clock == ClockSetup("live", 3) and live.clock.seconds == 180
    days = parse_request({"teams": PRESETS, "clock": {"mode": "days", "hours": 24}})
    assert days.clock == ClockSetup("days", 24) and days.clock.seconds == 86_400
    assert days.clock.label == "sur plusieurs jours, 24\u00a0h par tour"
    assert parse_request({"teams": PRESETS}).clock is None
    again = type(live).from_dict(live.to_dict())
    assert again.clock == live.clock


@pytest.mark.parametrize(
    ("clock", "message"),
    [
        ({"mode": "blitz", "minutes": 3}, "L’horloge est"),
        ({"mode": "en direct", "hours": 3}, "L’horloge est"),
        ({"mode": "en direct"}, "L’horloge est"),
        ({"mode": "en direct", "minutes": 3, "x": 1}, "L’horloge est"),
        ("en direct", "L’horloge est"),
        ({"mode": "en direct", "minutes": 0}, "de 1 à 60 minutes par décision"),
        ({"mode": "en direct", "minutes": True}, "de 1 à 60 minutes par décision"),
        ({"mode": "en direct", "minutes": 2.5}, "de 1 à 60 minutes par décision"),
        ({"mode": "sur plusieurs jours", "hours": 169}, "de 1 à 168 heures par tour"),
    ],
)
def test_a_malformed_clock_is_refused_with_a_clear_message(clock: object, message: str) -> None:
    with pytest.raises(TableRefusal, match=message) as refused:
        parse_request({"teams": PRESETS, "clock": clock})
    assert refused.value.code == "clock"


def test_live_clocks_restart_at_each_decision_days_clocks_at_each_turn() -> None:
    live = SeatClocks(ClockSetup("live", 2), 2, 0.0)
    live.update((0, 1), 1, 10.0)
    assert live.deadline(0) == live.deadline(1) == 130.0
    live.update((0, 1), 1, 50.0, acted=0)  # seat 0 decided: a new decision, a new allowance
    assert (live.deadline(0), live.deadline(1)) == (170.0, 130.0)
    assert live.out_of_time(130.0) == (1,)
    days = SeatClocks(ClockSetup("days", 1), 2, 0.0)
    days.update((0,), 1, 0.0)
    days.update((1,), 1, 1000.0)  # seat 0 spent 1000 s of its hour this turn
    days.update((0,), 1, 1500.0)
    assert days.deadline(0) == 1500.0 + 3600 - 1000 and days.deadline(1) is None
    days.update((0,), 2, 2000.0)  # a new turn: the whole hour again
    assert days.deadline(0) == 2000.0 + 3600


# --- seats handed to a bot, and taken back ---------------------------------------------------
def test_a_seat_out_of_time_is_offered_then_handed_over_and_taken_back() -> None:
    now = FakeTime()
    service = _service(now)
    made = _create(service, clock={"mode": "en direct", "minutes": 1})
    table_id, tokens = str(made["table"]), _tokens(made)
    pushes: list[str] = []
    service.subscribe(table_id, tokens[0], pushes.append)
    service.subscribe(table_id, tokens[1], lambda _: None)
    table = service.table(table_id)
    assert table.state.phase == ORDERS and table.deciding_seats() == (0, 1)
    _play(service, table_id, tokens, 0)  # A programs, B does not
    with pytest.raises(TableRefusal) as early:
        service.hand_over(table_id, tokens[0], "B1", "normal")
    assert early.value.code == "not_offered"
    now.t += 61
    service.tick()
    view = service.view(table_id, tokens[0])
    assert view["seats"][1]["offered"] and view["decision"]["offered"] == ["B1"]
    assert service.presence(table_id)[1]["offered"]
    with pytest.raises(TableRefusal) as unknown:
        service.hand_over(table_id, tokens[0], "B1", "genius")
    assert unknown.value.code == "bots"
    service.hand_over(table_id, tokens[0], "B1", "normal")
    # The bot programmed B's orders at once; the log says who wrote each row.
    assert table.rows[1] == (1, "seat-bot greedy") and table.authors[:2] == [PLAYER, TABLE]
    assert "greedy" in table.authors[2:] and table.controller(1) == "greedy"
    assert service.view(table_id, tokens[0])["seats"][1]["played_by"] == "normal"
    with pytest.raises(TableRefusal) as busy:
        service.act(table_id, tokens[1], "orders AAAA AA")
    assert busy.value.code == "bot_seat"
    turn = table.state.turn
    service.take_back(table_id, tokens[1])
    assert table.rows[-1] == (1, SEAT_BACK) and table.reclaiming(1)
    with pytest.raises(TableRefusal):
        service.take_back(table_id, tokens[1])
    rng = random.Random(1)
    while table.state.turn == turn and not table.finished:
        seat = rng.choice(table.deciding_seats())
        service.act(table_id, tokens[seat], rng.choice(table.actions(seat)))
    assert table.controller(1) is None and not table.reclaiming(1)
    # The log replays to the same table, takeovers included.
    again = Table(table_id, table.setup)
    for seat, action in table.rows:
        again.replay_row(seat, action)
    assert again.authors == table.authors and again.state.history == table.state.history


def test_a_player_may_hand_their_own_seat_to_a_bot_at_any_time() -> None:
    service = _service(FakeTime())
    made = _create(service, players=4)
    table_id, tokens = str(made["table"]), _tokens(made)
    service.hand_over(table_id, tokens[1], 1, "normal")
    table = service.table(table_id)
    assert table.controller(1) == "greedy" and 1 in table.parts(0)  # its part is in
    with pytest.raises(TableRefusal) as spectator:
        service.hand_over(table_id, made["spectator"]["token"], 0, "normal")  # type: ignore[index]
    assert spectator.value.code == "spectator"
    with pytest.raises(TableRefusal) as seat:
        service.hand_over(table_id, tokens[0], "C1", "normal")
    assert seat.value.code == "seat"


def test_a_table_whose_players_are_all_away_hands_the_seat_over_by_itself() -> None:
    now = FakeTime()
    service = _service(now)
    made = _create(service, clock={"mode": "sur plusieurs jours", "hours": 2})
    table_id, tokens = str(made["table"]), _tokens(made)
    table = service.table(table_id)
    stop = service.subscribe(table_id, tokens[0], lambda _: None)
    _play(service, table_id, tokens, 0)
    now.t += 2 * 3600 + 1
    service.tick()  # B is out of time, A is present: B's seat is only offered
    assert table.controller(1) is None and service.presence(table_id)[1]["offered"]
    stop()
    assert service.presence(table_id)[0]["presence"] == "away"
    service.tick()  # now everyone is away: the table hands B's seat over itself
    assert table.controller(1) == service.takeover_bot == "greedy"


def test_an_offered_seat_nobody_answers_for_goes_to_a_bot_after_one_more_allowance() -> None:
    now = FakeTime()
    service = _service(now)
    made = _create(service, clock={"mode": "en direct", "minutes": 2})
    table_id, tokens = str(made["table"]), _tokens(made)
    service.subscribe(table_id, tokens[0], lambda _: None)
    _play(service, table_id, tokens, 0)
    now.t += 121
    service.tick()
    assert service.table(table_id).controller(1) is None
    now.t += 119
    service.tick()
    assert service.table(table_id).controller(1) is None
    now.t += 1
    service.tick()
    assert service.table(table_id).controller(1) == "greedy"


def test_presence_follows_the_event_streams_and_is_pushed() -> None:
    now = FakeTime()
    service = _service(now)
    made = _create(service)
    table_id, tokens = str(made["table"]), _tokens(made)
    seen: list[str] = []
    service.subscribe(table_id, tokens[0], seen.append)
    assert [p["presence"] for p in service.presence(table_id)] == ["present", "away"]
    now.t += 5
    stop = service.subscribe(table_id, tokens[1], lambda _: None)
    assert service.presence(table_id)[1] == {
        "seat": "B1",
        "presence": "present",
        "since": now.t,
        "bot": None,
        "offered": False,
    }
    assert '"presence":"present"' in seen[-1] and len(seen) == 2  # A was told B came
    stop()
    assert service.view(table_id, tokens[0])["seats"][1]["presence"] == "away" and len(seen) == 3


# --- bots in single seats --------------------------------------------------------------------
@pytest.mark.parametrize(
    ("players", "bots"),
    [
        (2, {"B1": "normal"}),
        (4, {"A2": "normal"}),
        (6, {"A2": "normal", "B3": "normal"}),
        (4, {"A1": "normal", "A2": "normal"}),
    ],
)
def test_bots_in_single_seats_play_whole_matches(players: int, bots: dict[str, str]) -> None:
    service = _service(FakeTime())
    made = _create(service, players=players, bots=bots)
    table_id, tokens = str(made["table"]), _tokens(made)
    table = service.table(table_id)
    bot_seats = {i for i, t in enumerate(tokens) if t is None}
    assert {table.seats[i].name for i in bot_seats} == set(bots)
    rng = random.Random(players)
    while not table.finished:
        seat = rng.choice(table.deciding_seats())
        action = rng.choice(table.actions(seat))
        service.act(table_id, tokens[seat], action)
    bot_rows = {
        seat for (seat, _), by in zip(table.rows, table.authors, strict=True) if by != PLAYER
    }
    assert bot_rows == bot_seats  # every bot seat played, and only bot seats by bots
    record = service.record(table_id, tokens[next(i for i in range(players) if tokens[i])])
    assert record["by"] == table.authors


def test_seat_bots_are_checked_in_the_request() -> None:
    assert parse_request({"teams": PRESETS, "players": 4, "bots": {"A2": "fort"}}).seat_bots == (
        (1, "search"),
    )
    assert parse_request({"teams": PRESETS, "bots": {"B1": "normal"}}).bots == (None, "greedy")
    for bots, message in [
        ({"A3": "normal"}, "une place de la table"),
        ({"A1": "normal", "B1": "normal"}, "au moins un camp"),
        ({"A": "normal", "B1": "normal", "B2": "normal"}, "au moins une place"),
    ]:
        with pytest.raises(TableRefusal, match=message):
            parse_request(
                {
                    "teams": PRESETS,
                    "players": 4 if "B2" in bots or "A3" in bots else 2,
                    "bots": bots,
                }
            )


# --- what a side waits for, in words ---------------------------------------------------------
def test_a_side_reads_what_it_still_waits_for_in_words() -> None:
    table = new_table(6, names={"A1": "Léa", "A2": "Max", "A3": "Zoé"})
    part = next(a for a in table.actions(0) if a.startswith("part"))
    table.propose(0, part)
    view = seat_view(table, 0)
    assert view["decision"]["sent"] and view["decision"]["yours"]
    assert view["decision"]["waiting"] == (
        "en attente de Max\u00a0: le Barreur et le Lanceur\u00a0; "
        "en attente de Zoé\u00a0: le Surfeur et le Plongeur"
    )
    assert view["team"]["parts_text"] == ["Léa — Pédalair\u00a0: A, Kitesurfeur\u00a0: A"]
    assert seat_view(table, 3)["decision"]["waiting"] == (
        "en attente de B2\u00a0: le Barreur et le Lanceur\u00a0; "
        "en attente de B3\u00a0: le Surfeur et le Plongeur"
    )
    assert "Léa" not in str(seat_view(table, 3)["team"])


def test_the_ship_proposal_reads_in_words() -> None:
    table = new_table(4, names={"A1": "Léa", "A2": "Max"})
    table.propose(0, "propose AT-B")
    mine = seat_view(table, 1)
    assert mine["team"]["offer"]["text"].startswith("Léa propose le double-jeton")
    assert "en attente de Léa\u00a0: le Pédalair, le Kitesurfeur" not in (
        mine["decision"]["waiting"] or ""
    )
    assert seat_view(table, 0)["decision"]["waiting"] == (
        "en attente de Max\u00a0: le Surfeur et le Plongeur, l’accord sur le double-jeton proposé"
    )


# --- hardening -------------------------------------------------------------------------------
def test_an_action_body_with_an_unknown_field_is_refused() -> None:
    service = _service(FakeTime())
    made = _create(service)
    table_id, tokens = str(made["table"]), _tokens(made)
    with pytest.raises(TableRefusal, match="Champ inconnu") as refused:
        service.act_request(table_id, {"token": tokens[0], "action": "orders AAAA AA", "x": 1})
    assert refused.value.code == "request" and not service.table(table_id).rows
    with pytest.raises(TableRefusal):
        service.act_request(table_id, ["orders AAAA AA"])
    service.act_request(table_id, {"action": "orders AAAA AA"}, tokens[0])
    assert service.table(table_id).rows == [(0, "orders AAAA AA")]


def test_a_seat_nobody_opened_may_be_filled_by_a_bot_later() -> None:
    service = _service(FakeTime())
    made = _create(service, players=6)
    table_id, tokens = str(made["table"]), _tokens(made)
    service.subscribe(table_id, tokens[4], lambda _: None)
    service.hand_over(table_id, tokens[0], "A3", "normal")  # never opened: anyone fills it
    with pytest.raises(TableRefusal) as refused:
        service.hand_over(table_id, tokens[0], "B2", "normal")  # B2 is here
    assert refused.value.code == "not_offered"
    assert service.table(table_id).controller(2) == "greedy"


def test_the_other_sides_deadlines_do_not_tell_when_its_parts_came() -> None:
    """Two tables on the same clock, A1 sends its part in one only: B's views are equal."""
    views = []
    for sends in (True, False):
        now = FakeTime()
        service = _service(now)
        made = _create(service, players=4, clock={"mode": "en direct", "minutes": 5})
        table_id, tokens = str(made["table"]), _tokens(made)
        now.t += 30
        if sends:
            table = service.table(table_id)
            service.act(table_id, tokens[0], next(a for a in table.actions(0) if "part" in a))
        mine = service.view(table_id, tokens[1])
        assert mine["seats"][1]["deadline"] == 1_000_300  # one's own side's clocks show
        # A1 sent its part but owes the ship's token: its clock starts again
        assert mine["seats"][0]["deadline"] == (1_000_330 if sends else 1_000_300)
        view = service.view(table_id, tokens[2])
        views.append({k: v for k, v in view.items() if k != "table"})
        assert [s["deadline"] for s in view["seats"]] == [None, None, 1_000_300, 1_000_300]
    assert views[0] == views[1]


def test_seat_bots_play_on_the_servers_event_loop() -> None:
    """With a loop attached, a seat's bot plays there; a slow one in a worker thread."""
    import asyncio

    from tests.tables_play import run_async

    async def play() -> tuple[str | None, bool]:
        service = _service(FakeTime())
        service.attach(asyncio.get_running_loop())
        made = _create(service, players=4, bots={"A2": "fort", "B2": "normal"})
        table_id, tokens = str(made["table"]), _tokens(made)
        table = service.table(table_id)
        for _ in range(600):
            if 1 in table.parts(0) and 3 in table.parts(1):
                break
            await asyncio.sleep(0.05)
        service.close()
        assert tokens[1] is None
        return table.controller(1), 3 in table.parts(1) and 1 in table.parts(0)

    assert run_async(play()) == ("search", True)


def test_a_player_whose_part_is_in_is_not_waited_for() -> None:
    table = new_table(6)
    assert table.awaited_seats() == (0, 1, 2, 3, 4, 5)
    table.propose(0, next(a for a in table.actions(0) if a.startswith("part")))
    assert table.awaited_seats() == (1, 2, 3, 4, 5) and 0 in table.deciding_seats()
    four = new_table(4)
    four.propose(0, next(a for a in four.actions(0) if a.startswith("part")))
    assert 0 in four.awaited_seats()  # A1 still owes the ship's token with A2
    four.propose(0, "propose AT-B")
    assert 0 not in four.awaited_seats() and 1 in four.awaited_seats()


def test_a_takeover_survives_a_restart(tmp_path: Path) -> None:
    now = FakeTime()
    path = tmp_path / "tables.sqlite"
    service = TableService(TableStore(path, now=now), now=now)
    made = _create(service, players=4)
    table_id, tokens = str(made["table"]), _tokens(made)
    service.hand_over(table_id, tokens[3], "B2", "normal")
    service.take_back(table_id, tokens[3])
    rows = list(service.table(table_id).rows)
    service.store.close()
    again = TableService(TableStore(path, now=now), now=now)
    assert again.load() == 1
    table = again.table(table_id)
    assert table.rows == rows and table.controller(3) == "greedy" and table.reclaiming(3)
    assert again.view(table_id, tokens[0])["seats"][3]["played_by"] == "normal"


@pytest.mark.parametrize(
    "clock", [{"mode": "en direct", "minutes": 2}, {"mode": "sur plusieurs jours", "hours": 1}]
)
def test_seat_clocks_survive_a_restart(tmp_path: Path, clock: dict[str, object]) -> None:
    """A restarted server rebuilds each seat's deadline from the log's times (not a fresh
    clock at start), and a deadline that passed while it was down hands the seat over."""
    now = FakeTime()
    path = tmp_path / "tables.sqlite"
    service = TableService(TableStore(path, now=now), now=now)
    made = _create(service, players=4, clock=clock)
    table_id, tokens = str(made["table"]), _tokens(made)
    for seat in (0, 2):
        now.t += 7
        _play(service, table_id, tokens, seat)
    now.t += 30
    before = list(service.table(table_id).live.deadlines)
    waiting = [s for s, d in enumerate(before) if d is not None]
    assert waiting and all(d is not None and d > now.t for d in before if d is not None)
    service.store.close()
    now.t += 50  # the server is down for 50 s
    again = TableService(TableStore(path, now=now), now=now)
    assert again.load() == 1
    assert again.table(table_id).live.deadlines == before  # not now + a whole allowance
    later = max(d for d in before if d is not None) + 1
    now.t = later
    again.tick()  # nobody came back: every player is away, the late seat goes to a bot
    table = again.table(table_id)
    assert [table.controller(s) for s in waiting][:1] == ["greedy"]
