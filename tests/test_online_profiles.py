"""Online tables, pseudonymous profiles and ratings (issue 37.5): a name and a secret key
(only its hash stored), chosen when joining a seat; finished tables rate their players
(Glicko-2, luck-adjusted where measured), a leaver scores a loss and a leave, bot turns
are not theirs; a finished table's public record for « Revoir un match »; a profile's
« Vos erreurs » kept on the server, replaced only from the version read (issue 34.7).

Each test runs on SQLite, and on PostgreSQL where the throwaway cluster of
``test_online_postgres`` can start (skipped otherwise, unless AKVO_REQUIRE_POSTGRES=1)."""

from __future__ import annotations

import asyncio
import datetime as dt
import random
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from akvo.coach.exercises import Card, export_json, import_json
from akvo.match import play_match
from akvo.online import TableRefusal
from akvo.online.profiles import bot_ratings, public
from akvo.online.ratings import START_DEVIATION, Profile, Rating
from akvo.online.service import TableService, token_hash
from akvo.online.store import Store, TableStore
from tests.mistake_sets import valid_exercises
from tests.tables_play import PRESETS
from tests.test_online_postgres import dsn  # noqa: F401  (the cluster fixture)

Factory = Callable[[], Store]


@pytest.fixture(params=["sqlite", "postgres"])
def stores(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Factory]:
    """A function opening the same store again (a restart), closed after the test."""
    opened: list[Store] = []
    if request.param == "sqlite":
        path = tmp_path / "tables.sqlite"

        def open_sqlite() -> Store:
            opened.append(TableStore(path))
            return opened[-1]

        yield open_sqlite
    else:
        address = request.getfixturevalue("dsn")
        from akvo.online.store_pg import PostgresStore

        first = PostgresStore(address)
        with first._db.transaction():  # a clean slate for each test
            first._db.execute(
                "TRUNCATE akvo_rated_tables, akvo_seat_profiles, akvo_profile_mistakes, "
                "akvo_profiles"
            )
        first.close()

        def open_pg() -> Store:
            opened.append(PostgresStore(address))
            return opened[-1]

        yield open_pg
    for store in opened:
        store.close()


def _service(store: Store, **options: Any) -> TableService:
    return TableService(store, luck_adjusted=False, **options)


def _profile(service: TableService, name: str) -> dict[str, Any]:
    return service.create_profile({"name": name})


def _table(service: TableService, **request: Any) -> tuple[str, list[str | None]]:
    made = service.create({"teams": PRESETS, "seed": 3, **request})
    return str(made["table"]), [s["token"] for s in made["seats"]]


def _play_out(service: TableService, table_id: str, tokens: list[str | None], seed: int) -> None:
    """Every seat its player still plays picks a random legal action until the end."""
    rng = random.Random(seed)
    table = service.table(table_id)
    while not table.finished:
        seats = [s for s in table.deciding_seats() if table.controller(s) is None]
        seat = rng.choice(seats)
        service.act(table_id, tokens[seat], rng.choice(table.actions(seat)))


def test_a_profile_keeps_only_its_keys_hash(stores: Factory) -> None:
    service = _service(stores())
    made = _profile(service, "  Léa   la Rapide ")
    assert made["name"] == "Léa la Rapide" and len(made["key"]) == 43
    found = service.store.profile_by_key(token_hash(made["key"]))
    assert found is not None and found.id == made["profile"]
    assert service.own_profile(made["key"]) == {
        "profile": made["profile"],
        **public("Léa la Rapide", Profile()),
    }
    if isinstance(service.store, TableStore):  # the key itself is nowhere in the file
        dump = "\n".join(service.store._db.iterdump())
        assert made["key"] not in dump and token_hash(made["key"]) in dump


@pytest.mark.parametrize(
    ("request_", "code"),
    [
        ({"name": ""}, "profile"),
        ({"name": "x" * 25}, "profile"),
        ({"name": "<script>"}, "profile"),
        ({"name": 3}, "profile"),
        ({"name": "Max", "email": "max@example.org"}, "request"),
        (["Max"], "request"),
    ],
)
def test_a_bad_profile_request_is_refused(stores: Factory, request_: object, code: str) -> None:
    service = _service(stores())
    with pytest.raises(TableRefusal) as refused:
        service.create_profile(request_)
    assert refused.value.code == code
    assert service.standings() == []


def test_a_name_is_taken_once_whatever_its_case(stores: Factory) -> None:
    service = _service(stores())
    _profile(service, "Max")
    with pytest.raises(TableRefusal) as taken:
        _profile(service, "MAX")
    assert taken.value.code == "name_taken" and "déjà pris" in taken.value.message


def test_a_seat_joins_under_a_profile_once_and_every_seat_sees_the_name(
    stores: Factory,
) -> None:
    service = _service(stores())
    lea = _profile(service, "Léa")
    table_id, tokens = _table(service)
    service.join(table_id, {"token": tokens[0], "key": lea["key"]})
    for token in tokens:
        seats = service.view(table_id, token)["seats"]
        assert seats[0]["profile"]["name"] == "Léa" and seats[1]["profile"] is None
        assert seats[0]["profile"]["low"] == 1500 - 700  # ± 2 RD of a newcomer
    refusals = [
        ({"token": tokens[0], "key": lea["key"]}, "seat_taken"),  # the seat is bound
        ({"token": tokens[1], "key": lea["key"]}, "seat_taken"),  # one profile, one seat
        ({"token": tokens[1], "key": "not-a-key"}, "forbidden"),
        ({"token": "forged", "key": lea["key"]}, "forbidden"),
        ({"token": tokens[1], "key": lea["key"], "x": 1}, "request"),
    ]
    for request, code in refusals:
        with pytest.raises(TableRefusal) as refused:
            service.join(table_id, request)
        assert refused.value.code == code, request
    with pytest.raises(TableRefusal) as spectator:
        made = service.create({"teams": PRESETS})
        service.join(made["table"], {"token": made["spectator"]["token"], "key": lea["key"]})
    assert spectator.value.code == "spectator"


def test_a_finished_table_rates_its_players_once(stores: Factory) -> None:
    service = _service(stores())
    lea, max_ = _profile(service, "Léa"), _profile(service, "Max")
    table_id, tokens = _table(service)
    service.join(table_id, {"token": tokens[0], "key": lea["key"]})
    service.join(table_id, {"token": tokens[1], "key": max_["key"]})
    _play_out(service, table_id, tokens, seed=1)
    result = service.table(table_id).state.result
    after = {p["name"]: p for p in service.standings()}
    assert after["Léa"]["tables"] == after["Max"]["tables"] == 1
    assert after["Léa"]["deviation"] < START_DEVIATION  # a game was learnt from
    if result == "A":
        assert after["Léa"]["rating"] > 1500 > after["Max"]["rating"]
    elif result == "B":
        assert after["Max"]["rating"] > 1500 > after["Léa"]["rating"]
    # Golden: two newcomers, one game (Glickman's formulas): ±162.3 (±162 shown), RD 290.3.
    winner = "Léa" if result == "A" else "Max"
    if result != "draw":
        assert (after[winner]["rating"], after[winner]["deviation"]) == (1662, 290)
    # Whichever server asks again, the table is rated once; the views show the new ones.
    assert not service.store.rate(table_id, lambda before: {})
    seats = service.view(table_id, tokens[0])["seats"]
    assert seats[0]["profile"]["rating"] == after["Léa"]["rating"]
    # A restarted server reads the same standings.
    again = _service(stores())
    assert {p["name"]: p for p in again.standings()} == after
    # Pruning ended tables drops their seats' profiles, never the profiles themselves.
    assert again.store.prune(0) == 1 and again.store.seat_profiles(table_id) == {}
    assert {p["name"]: p for p in again.standings()} == after


def test_a_table_left_unrated_by_a_stopped_server_is_rated_when_the_next_one_starts(
    stores: Factory, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = _service(stores())
    lea, max_ = _profile(service, "Léa"), _profile(service, "Max")
    table_id, tokens = _table(service)
    service.join(table_id, {"token": tokens[0], "key": lea["key"]})
    service.join(table_id, {"token": tokens[1], "key": max_["key"]})
    monkeypatch.setattr(service, "_rate", lambda entry: None)  # stopped before rating
    _play_out(service, table_id, tokens, seed=1)
    assert service.store.unrated_ids() == [table_id]
    assert all(p["tables"] == 0 for p in service.standings())
    again = _service(stores())
    again.load()
    after = {p["name"]: p for p in again.standings()}
    assert after["Léa"]["tables"] == after["Max"]["tables"] == 1
    assert again.store.unrated_ids() == []
    third = _service(stores())
    third.load()
    assert {p["name"]: p for p in third.standings()} == after  # rated once


def test_a_leaver_scores_a_loss_and_a_leave_and_bot_turns_are_not_theirs(
    stores: Factory,
) -> None:
    service = _service(stores(), bot_ratings={"greedy": Rating(1500.0, 60.0)})
    lea, max_ = _profile(service, "Léa"), _profile(service, "Max")
    left = []
    for seed in (1, 2):
        table_id, tokens = _table(service, seed=seed)
        service.join(table_id, {"token": tokens[0], "key": lea["key"]})
        service.join(table_id, {"token": tokens[1], "key": max_["key"]})
        table = service.table(table_id)
        service.act(table_id, tokens[0], table.actions(0)[0])  # Léa's one decision
        service.hand_over(table_id, tokens[0], "A1", "normal")  # then she leaves
        _play_out(service, table_id, tokens, seed=seed)
        left.append(table.state.result)
    lea_now = service.own_profile(lea["key"])
    assert (lea_now["tables"], lea_now["leaves"]) == (2, 2)
    assert lea_now["rating"] < 1500 and lea_now["leaves_often"]  # two losses, whatever
    max_now = service.own_profile(max_["key"])
    assert max_now["tables"] == 2 and max_now["leaves"] == 0 and not max_now["leaves_often"]
    if set(left) == {"B"}:  # Max scored the table's own result against the bot's side
        assert max_now["rating"] > 1500
    if set(left) == {"A"}:
        assert max_now["rating"] < 1500
    # A profile that never decided at a table (a bot from its first turn) is not rated.
    table_id, tokens = _table(service, seed=4)
    service.join(table_id, {"token": tokens[0], "key": lea["key"]})
    service.hand_over(table_id, tokens[0], "A1", "normal")
    _play_out(service, table_id, tokens, seed=4)
    assert service.own_profile(lea["key"])["tables"] == 2


def test_a_player_against_bots_is_rated_by_the_bots_ladder_rating(stores: Factory) -> None:
    ladder = {"elo": {"greedy": [0.0, 0.0, 0.0], "expert": [265.7, 9.0, 522.3]}}
    ratings = bot_ratings(ladder)
    assert ratings["greedy"] == Rating(1500.0, 30.0)
    assert ratings["expert"].rating == pytest.approx(1765.7)
    assert ratings["expert"].deviation == pytest.approx((522.3 - 9.0) / 2 / 1.96)
    service = _service(stores(), bot_ratings=ratings)
    lea = _profile(service, "Léa")
    table_id, tokens = _table(service, bots={"B": "normal"})
    service.join(table_id, {"token": tokens[0], "key": lea["key"]})
    _play_out(service, table_id, tokens, seed=5)
    assert service.own_profile(lea["key"])["tables"] == 1
    unrated = _service(stores())  # no bot rating given: a side of bots is no opponent
    max_ = _profile(unrated, "Max")
    table_id, tokens = _table(unrated, bots={"B": "normal"})
    unrated.join(table_id, {"token": tokens[0], "key": max_["key"]})
    _play_out(unrated, table_id, tokens, seed=5)
    assert unrated.own_profile(max_["key"])["tables"] == 0


def test_luck_adjusted_scores_rate_between_a_win_and_a_loss(tmp_path: Path) -> None:
    """With the coach's luck ledger, each side scores result − luck (in 0–1): both
    players' changes are those of that score, not of 1 / 0."""
    from akvo.online.profiles import luck_scores
    from akvo.online.ratings import update

    service = TableService(TableStore(tmp_path / "t.sqlite"))  # luck-adjusted, no loop
    lea, max_ = _profile(service, "Léa"), _profile(service, "Max")
    table_id, tokens = _table(service)
    service.join(table_id, {"token": tokens[0], "key": lea["key"]})
    service.join(table_id, {"token": tokens[1], "key": max_["key"]})
    _play_out(service, table_id, tokens, seed=1)
    scores = luck_scores(service.table(table_id).state.record())
    assert scores is not None and all(0.0 <= s <= 1.0 for s in scores)
    expected = update(Rating(), [(Rating(), scores[0])])
    assert service.own_profile(lea["key"])["rating"] == round(expected.rating)


def test_the_public_record_is_a_finished_tables_only(stores: Factory) -> None:
    service = _service(stores())
    table_id, tokens = _table(service)
    with pytest.raises(TableRefusal) as playing:
        service.public_record(table_id)  # hidden orders of a running table never leave
    assert playing.value.code == "playing"
    with pytest.raises(TableRefusal) as unknown:
        service.public_record("nope")
    assert unknown.value.code == "not_found"
    _play_out(service, table_id, tokens, seed=2)
    record = service.public_record(table_id)
    assert record == service.table(table_id).state.record()
    assert record == _service(stores()).public_record(table_id)  # from the store, restarted


def test_sqlite_refuses_a_second_profile_with_the_same_key(tmp_path: Path) -> None:
    store = TableStore(tmp_path / "t.sqlite")
    store.create_profile("p1", "A", "0" * 64)
    with pytest.raises(sqlite3.IntegrityError):
        store.create_profile("p2", "B", "0" * 64)


def test_a_profiles_mistakes_are_replaced_only_from_the_version_read(stores: Factory) -> None:
    store = stores()
    profile = _profile(_service(store), "Ana")["profile"]
    assert store.mistakes(profile) is None
    assert store.keep_mistakes(profile, "un", 0) and store.mistakes(profile) == ("un", 1)
    assert not store.keep_mistakes(profile, "deux", 0)  # another request kept one first
    assert not store.keep_mistakes(profile, "deux", 2)
    assert store.keep_mistakes(profile, "deux", 1) and store.mistakes(profile) == ("deux", 2)
    assert stores().mistakes(profile) == ("deux", 2)  # kept through a restart
    with pytest.raises(Exception) as nobody:  # only a profile keeps a set
        store.keep_mistakes("personne", "trois", 0)
    assert type(nobody.value).__name__ in ("IntegrityError", "ForeignKeyViolation")


def test_mistakes_replaced_meanwhile_are_read_and_merged_again(tmp_path: Path) -> None:
    """Two requests of one profile at once: the one that finds its version gone reads the
    other's set and merges again, so neither set is lost."""
    made = valid_exercises(play_match(11).record(), 2, start=30)
    day = dt.date(2026, 12, 7)
    mine, theirs = (((e,), (Card(e.id, day),)) for e in made)

    class Racing(TableStore):
        raced = False

        def keep_mistakes(self, profile_id: str, text: str, version: int) -> bool:
            if not self.raced:  # another server keeps its set just before this one
                self.raced = True
                assert super().keep_mistakes(profile_id, export_json(*theirs), version)
            return super().keep_mistakes(profile_id, text, version)

    service = _service(Racing(tmp_path / "t.sqlite"))
    key = _profile(service, "Ana")["key"]
    kept = asyncio.run(service.keep_mistakes({"key": key, "mistakes": export_json(*mine)}))
    assert {e.id for e in import_json(kept["mistakes"])[0]} == {e.id for e in made}
    assert asyncio.run(service.keep_mistakes({"key": key})) == kept
