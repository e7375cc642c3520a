"""Profiles, ratings and the replay link over HTTP (issue 37.5), served in-process: a
profile made by name, a seat joined with its key, the match played by a script against a
bot, the profile rated (luck-adjusted, against the ladder's bot rating) and listed in the
standings; the finished table's public record served for « Revoir un match », an
unfinished one's refused; a profile's « Vos erreurs » kept and merged under its key."""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from akvo.coach.exercises import Card, export_json, import_json, merge
from akvo.match import play_match
from akvo.online.client import SeatClient, create_table, play_seat
from akvo.online.mistakes import EMPTY
from akvo_site.tables.api import MAX_BODY, MISTAKES_BODY
from akvo_widgets.play.mistakes import SERVER_COPY
from tests.mistake_sets import valid_exercises
from tests.tables_play import PRESETS, InProcessServer, run_async

API = "/akvo/api/tables"
DAY = dt.date(2026, 12, 7)
JSON = {"Content-Type": "application/json"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[InProcessServer]:
    with InProcessServer(
        tmp_path_factory.mktemp("profiles"),
        rate=1000.0,
        burst=1000,
        create_rate=1000.0,
        create_burst=1000,
    ) as running:
        yield running


@pytest.fixture(scope="module")
def http(server: InProcessServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.url, timeout=20) as client:
        yield client


def test_profile_requests_are_checked(http: httpx.Client) -> None:
    made = http.post("/akvo/api/profiles", json={"name": "Noé"})
    assert made.status_code == 201 and len(made.json()["key"]) == 43
    taken = http.post("/akvo/api/profiles", json={"name": "NOÉ"})
    assert taken.status_code == 409 and taken.json()["error"] == "name_taken"
    unknown = http.post("/akvo/api/profiles", json={"name": "Zoé", "email": "z@example.org"})
    assert unknown.status_code == 400 and "email" in unknown.json()["message"]
    form = http.post("/akvo/api/profiles", content=b"name=Zo", headers={"Content-Type": "x"})
    assert form.status_code == 415
    me = http.post("/akvo/api/profiles/me", json={"key": made.json()["key"]}).json()
    assert (me["name"], me["rating"], me["low"], me["high"], me["tables"]) == (
        "Noé",
        1500,
        800,
        2200,
        0,
    )
    assert http.post("/akvo/api/profiles/me", json={"key": "nope"}).status_code == 403
    assert http.get("/akvo/api/profiles/me").status_code == 405  # the key never in a URL


def test_a_rated_match_against_a_bot_and_its_replay_link(
    server: InProcessServer, http: httpx.Client
) -> None:
    key = http.post("/akvo/api/profiles", json={"name": "Léa"}).json()["key"]

    async def match() -> tuple[dict[str, Any], int, dict[str, Any], dict[str, Any]]:
        async with httpx.AsyncClient(timeout=30) as client:
            made = await create_table(
                client,
                server.url,
                {"teams": PRESETS, "players": 2, "bots": {"B": "normal"}, "seed": 4},
            )
            table, token = made["table"], made["seats"][0]["token"]
            joined = await client.post(
                f"{server.url}{API}/{table}/profile", json={"token": token, "key": key}
            )
            early = await client.get(f"{server.url}{API}/{table}/replay")
            seat = SeatClient(client, server.url, table, token)
            await asyncio.wait_for(play_seat(seat, seed=1), 120)
            return joined.json(), early.status_code, await seat.record(), made

    view, early, record, made = run_async(match())
    assert view["seats"][0]["profile"]["name"] == "Léa" and view["seats"][1]["profile"] is None
    assert early == 409  # a running table's record is never served
    replay = http.get(f"{API}/{made['table']}/replay")
    assert replay.status_code == 200 and replay.json() == record["match"]
    # The rating is measured off the loop (the luck ledger): wait for it.
    deadline = time.monotonic() + 60
    standings: list[dict[str, Any]] = []
    while time.monotonic() < deadline:
        standings = http.get("/akvo/api/standings").json()["profiles"]
        if any(p["name"] == "Léa" for p in standings):
            break
        time.sleep(0.2)
    lea = next(p for p in standings if p["name"] == "Léa")
    assert lea["tables"] == 1 and lea["leaves"] == 0 and lea["deviation"] < 350
    assert (
        lea["low"] == lea["rating"] - 2 * lea["deviation"]
        or abs(lea["low"] - (lea["rating"] - 2 * lea["deviation"])) <= 1
    )
    assert "key" not in lea and "profile" not in lea  # nothing private in the standings


def test_the_standings_page_is_french_and_guarded(http: httpx.Client) -> None:
    page = http.get("/akvo/classement")
    assert page.status_code == 200 and '<h1 class="tbl-title">Classement</h1>' in page.text
    assert "profile.js" in page.text and "standings.js" in page.text
    assert "script-src 'self'" in page.headers["Content-Security-Policy"]
    assert http.get("/akvo/tables-static/profile.js").status_code == 200


def _mistakes(http: httpx.Client, body: dict[str, Any]) -> httpx.Response:
    return http.post(f"/{SERVER_COPY}", json=body)


def test_mistakes_are_kept_under_the_profiles_key_and_merged(http: httpx.Client) -> None:
    """Issue 34.7: two browsers of one profile send their « Vos erreurs »; the server keeps
    the union, each card at its furthest, and answers it to the key's holder only."""
    key = http.post("/akvo/api/profiles", json={"name": "Mia"}).json()["key"]
    other = http.post("/akvo/api/profiles", json={"name": "Tom"}).json()["key"]
    assert _mistakes(http, {"key": key}).json() == {"mistakes": ""}  # nothing kept yet
    made = valid_exercises(play_match(11).record(), 3, start=100)
    here = (made[:2], (Card(made[0].id, DAY), Card(made[1].id, DAY)))
    there = (made[1:], (Card(made[1].id, DAY + dt.timedelta(days=3), 1, 1), Card(made[2].id, DAY)))
    sent = export_json(*here)
    assert len(sent.encode()) > MAX_BODY  # a set is longer than any other request
    first = _mistakes(http, {"key": key, "mistakes": sent})
    assert first.status_code == 200 and first.json()["mistakes"] == export_json(*merge(here, EMPTY))
    both = _mistakes(http, {"key": key, "mistakes": export_json(*there)}).json()["mistakes"]
    exercises, cards = import_json(both)
    assert exercises == tuple(sorted(made, key=lambda e: e.id))  # the union, nothing lost
    assert {c.id: c.right for c in cards} == {made[0].id: 0, made[1].id: 1, made[2].id: 0}
    assert _mistakes(http, {"key": key}).json()["mistakes"] == both  # read back as kept
    # Nobody else reads them: another profile has its own (none), no key or a wrong one: 403.
    assert _mistakes(http, {"key": other}).json() == {"mistakes": ""}
    for refused in ({"mistakes": sent}, {"key": key + "x", "mistakes": sent}, {"key": 7}):
        answer = _mistakes(http, refused)
        assert answer.status_code == 403 and answer.json()["error"] == "forbidden"
    assert http.get(f"/{SERVER_COPY}").status_code == 405  # the key never in an address
    # A hostile set, a set that is not a text, an unknown field: 400 in French, nothing kept.
    hostile = json.loads(sent)
    hostile["exercises"][0]["better"] = ["launch missiles"]
    for bad, code in (
        ({"key": key, "mistakes": json.dumps(hostile)}, "mistakes"),
        ({"key": key, "mistakes": hostile}, "mistakes"),
        ({"key": key, "mistakes": "{"}, "mistakes"),
        ({"key": key, "mistakes": sent, "owner": "Mia"}, "request"),
    ):
        answer = _mistakes(http, bad)
        assert (answer.status_code, answer.json()["error"]) == (400, code)
        assert "rien n’a changé" in answer.json()["message"] or "owner" in answer.json()["message"]
    assert _mistakes(http, {"key": key}).json()["mistakes"] == both
    huge = http.post(f"/{SERVER_COPY}", content=b" " * (MISTAKES_BODY + 1), headers=JSON)
    assert huge.status_code == 413
