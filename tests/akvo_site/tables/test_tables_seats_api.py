"""Online tables over HTTP, issue 37: the creation request's clock, seat bots and names,
hand-over and take-back routes and their status codes, unknown fields refused, « Mes
tables » (each token reads only its own seat), expiry as 410."""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest

from tests.tables_play import API, PRESETS, InProcessServer, create_over_http

LADDER = ["débutant", "facile", "normal", "fort", "expert"]


def _view(http: httpx.Client, made: dict[str, Any], seat: int) -> dict[str, Any]:
    answer = http.get(f"{API}/{made['table']}", params={"token": made["seats"][seat]["token"]})
    assert answer.status_code == 200, answer.text
    view: dict[str, Any] = answer.json()
    return view


@pytest.mark.parametrize("players", [2, 4, 6])
@pytest.mark.parametrize("level", LADDER)
def test_a_bot_of_any_ladder_level_takes_one_seat_at_creation(
    http: httpx.Client, players: int, level: str
) -> None:
    last = "B1" if players == 2 else f"B{players // 2}"
    made = create_over_http(http, players=players, bots={last: level}, names={"A1": "Léa"})
    seats = made["seats"]
    assert [s["bot"] for s in seats] == [None] * (players - 1) + [level]
    assert seats[-1]["token"] is None and all(s["token"] for s in seats[:-1])
    assert seats[0]["person"] == "Léa"
    view = _view(http, made, 0)
    assert [s["bot"] for s in view["seats"]][-1] == level
    assert view["seats"][0]["presence"] == "away"  # no event stream open


@pytest.mark.parametrize(
    ("clock", "label"),
    [
        ({"mode": "en direct", "minutes": 3}, "en direct, 3\u00a0min par décision"),
        ({"mode": "sur plusieurs jours", "hours": 24}, "sur plusieurs jours, 24\u00a0h par tour"),
    ],
)
def test_the_clock_chosen_at_creation_is_in_every_view(
    http: httpx.Client, clock: dict[str, Any], label: str
) -> None:
    made = create_over_http(http, clock=clock)
    view = _view(http, made, 0)
    assert view["clock"] == {**clock, "label": label}
    deciding = view["decision"]["seats"]
    assert deciding == [0, 1]  # both sides program their orders
    assert all(isinstance(s["deadline"], int) for s in view["seats"] if s["seat"] == 0)


@pytest.mark.parametrize(
    ("request_fields", "code"),
    [
        ({"clock": {"mode": "en direct", "minutes": 0}}, "clock"),
        ({"clock": {"mode": "en direct", "hours": 3}}, "clock"),
        ({"names": {"A1": "<b>"}}, "names"),
        ({"bots": {"A1": "hasard", "B1": "normal"}}, "bots"),
        ({"colour": "bleu"}, "request"),
    ],
)
def test_a_bad_creation_field_is_a_400_naming_it(
    http: httpx.Client, request_fields: dict[str, Any], code: str
) -> None:
    answer = http.post(API, json={"teams": PRESETS, **request_fields})
    assert answer.status_code == 400 and answer.json()["error"] == code


def test_an_action_body_with_an_unknown_field_is_refused_with_400(http: httpx.Client) -> None:
    made = create_over_http(http)
    token = made["seats"][0]["token"]
    before = _view(http, made, 0)
    body = {"token": token, "action": before["legal"][0]["action"], "extra": 1}
    answer = http.post(f"{API}/{made['table']}/actions", json=body)
    assert answer.status_code == 400
    assert answer.json() == {
        "error": "request",
        "message": "Champ inconnu dans la demande\u00a0: « extra ».",
    }
    assert _view(http, made, 0) == before  # nothing changed


def test_hand_over_and_take_back_with_their_status_codes(http: httpx.Client) -> None:
    made = create_over_http(http, players=4, bots={"B2": "facile"})
    table, a1, a2 = made["table"], made["seats"][0]["token"], made["seats"][1]["token"]

    def post(route: str, **body: Any) -> httpx.Response:
        return http.post(f"{API}/{table}/{route}", json=body)

    # A2 acts once: its seat is taken by a person, present or not, and not offered.
    legal = _view(http, made, 1)["legal"]
    assert http.post(
        f"{API}/{table}/actions", json={"token": a2, "action": legal[0]["action"]}
    ).is_success
    refused = post("hand-over", token=a1, seat="A2", bot="normal")
    assert (refused.status_code, refused.json()["error"]) == (409, "not_offered")
    # B1 was never opened: anyone may fill it.
    view = post("hand-over", token=a1, seat="B1", bot="fort").json()
    b1 = next(s for s in view["seats"] if s["name"] == "B1")
    assert (b1["played_by"], b1["handed"]) == ("fort", True)
    again = post("hand-over", token=a1, seat="B1", bot="normal")
    assert (again.status_code, again.json()["error"]) == (409, "seat_taken")
    bot_seat = post("hand-over", token=a1, seat="B2", bot="normal")
    assert (bot_seat.status_code, bot_seat.json()["error"]) == (409, "seat_taken")
    not_handed = post("take-back", token=a1)
    assert (not_handed.status_code, not_handed.json()["error"]) == (409, "not_handed")
    # A1 hands its own seat, then asks it back: back at the next turn.
    mine = post("hand-over", token=a1, seat="A1", bot="débutant").json()
    assert mine["seats"][0]["played_by"] == "débutant"
    back = post("take-back", token=a1).json()
    assert back["seats"][0]["reclaiming"] is True
    twice = post("take-back", token=a1)
    assert (twice.status_code, twice.json()["error"]) == (409, "not_handed")
    for body, code in (
        ({"token": a1, "seat": "C9", "bot": "normal"}, "seat"),
        ({"token": a1, "seat": "A2", "bot": "robot"}, "bots"),
        ({"token": a1, "seat": "A2", "bot": "normal", "why": "x"}, "request"),
    ):
        answer = post("hand-over", **body)
        assert (answer.status_code, answer.json()["error"]) == (400, code), answer.text
    spectator = post("take-back", token=made["spectator"]["token"])
    assert spectator.status_code == 403
    stranger = post("take-back", token="x" * 43)
    assert stranger.status_code == 403


def test_mine_answers_each_token_with_its_own_seat_only(http: httpx.Client) -> None:
    first = create_over_http(http, names={"A1": "Léa"})
    second = create_over_http(http, players=4, bots={"B": "normal"})
    pairs = [
        [first["table"], first["seats"][0]["token"]],
        [second["table"], second["seats"][1]["token"]],
        [first["table"], "not-a-token"],
        ["nope", first["seats"][1]["token"]],
    ]
    answer = http.post(f"{API}/mine", json={"tokens": pairs})
    assert answer.status_code == 200
    tables = answer.json()["tables"]
    assert tables[0] == {
        "table": first["table"],
        "seat": "A1",
        "role": "player",
        "teams": ["Équipe Perrockiss", "Fish Tank"],
        "players": 2,
        "status": "playing",
        "result": None,
        "turn": 1,
        "yours": True,
        "waiting": None,  # its own decision: nothing awaited from others
        "clock": None,
    }
    assert tables[1]["seat"] == "A2" and tables[1]["yours"] is True
    assert tables[2:] == [
        {"table": first["table"], "error": "forbidden"},
        {"table": "nope", "error": "not_found"},
    ]
    text = answer.text
    for made in (first, second):  # no token and no other seat's secret comes back
        assert all(s["token"] is None or s["token"] not in text for s in made["seats"][1:])
    assert "orders" not in text and "legal" not in text
    for bad in ({"tokens": "x"}, {"tokens": [["a"]]}, {"tokens": [["a", "b"]] * 51}, {"x": 1}):
        assert http.post(f"{API}/mine", json=bad).status_code == 400


def test_an_expired_table_answers_410_and_stays_readable(tmp_path: Any) -> None:
    settings = {"idle_limit": 0.5 / 3600, "tick": 0.05, "rate": 1000.0, "burst": 1000}
    with InProcessServer(tmp_path, **settings) as server, httpx.Client(base_url=server.url) as http:
        made = create_over_http(http)
        token = made["seats"][0]["token"]
        legal = _view(http, made, 0)["legal"]
        for _ in range(200):
            time.sleep(0.05)
            view = _view(http, made, 0)
            if view["status"] == "expired":
                break
        assert view["status"] == "expired"
        answer = http.post(
            f"{API}/{made['table']}/actions", json={"token": token, "action": legal[0]["action"]}
        )
        assert answer.status_code == 410 and answer.json()["error"] == "expired"


def test_the_servers_tick_offers_a_late_seat_and_the_others_hand_it_over(
    tmp_path: Any,
) -> None:
    """The server's own tick (every 50 ms here) on a clock moved forward: A1 sent its
    orders and stays connected, B1 came and left; when B1's minute has run out A1 reads it
    offered and hands it to a bot of its choice."""
    settings = {"tick": 0.05, "rate": 1000.0, "burst": 1000}
    with InProcessServer(tmp_path, **settings) as server, httpx.Client(base_url=server.url) as http:
        service = server.app.service
        shift = [0.0]
        service.now = lambda: time.time() + shift[0]
        made = create_over_http(http, clock={"mode": "en direct", "minutes": 1})
        table, a1, b1 = made["table"], made["seats"][0]["token"], made["seats"][1]["token"]
        legal = _view(http, made, 0)["legal"]
        sent = http.post(f"{API}/{table}/actions", json={"token": a1, "action": legal[0]["action"]})
        assert sent.is_success
        events = f"{API}/{table}/events"
        with http.stream("GET", events, params={"token": b1}) as stream:
            next(stream.iter_lines())  # B1 came (its seat is no longer free) and leaves
        with (
            httpx.Client(base_url=server.url) as a1_stream,
            a1_stream.stream("GET", events, params={"token": a1}) as present,
        ):
            # A1 stays: no takeover for everyone away. The line iterator is kept: dropped,
            # it would close the stream, and A1 would leave when the server next writes.
            a1_lines = present.iter_lines()
            next(a1_lines)
            early = http.post(
                f"{API}/{table}/hand-over", json={"token": a1, "seat": "B1", "bot": "fort"}
            )
            assert (early.status_code, early.json()["error"]) == (409, "not_offered")
            shift[0] = 61.0  # B1's minute ran out
            for _ in range(200):
                time.sleep(0.05)
                view = _view(http, made, 0)
                if "B1" in view["decision"]["offered"]:
                    break
            assert view["decision"]["offered"] == ["B1"]
            b1_seat = next(s for s in view["seats"] if s["name"] == "B1")
            assert (b1_seat["offered"], b1_seat["presence"]) == (True, "away")
            handed = http.post(
                f"{API}/{table}/hand-over", json={"token": a1, "seat": "B1", "bot": "fort"}
            )
            assert handed.status_code == 200, handed.text
        b1_seat = next(s for s in handed.json()["seats"] if s["name"] == "B1")
        assert (b1_seat["played_by"], b1_seat["offered"]) == ("fort", False)
