"""Online tables, the HTTP API (akvo_site.tables.api), served in-process without Voilà:
creation, views, actions, pushes, tokens, hostile clients, a script playing through it."""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from akvo.online.client import SeatClient, create_table, play_seat
from tests.tables_play import API, PRESETS, InProcessServer, create_over_http, run_async


def _act(http: httpx.Client, made: dict[str, Any], token: str, action: Any) -> httpx.Response:
    return http.post(f"{API}/{made['table']}/actions", json={"token": token, "action": action})


def test_creation_answers_201_with_seats_tokens_and_links(http: httpx.Client) -> None:
    answer = http.post(API, json={"teams": PRESETS, "players": 4, "bots": {"B": "normal"}})
    assert answer.status_code == 201
    made = answer.json()
    assert answer.headers["Location"] == f"{API}/{made['table']}"
    seats = made["seats"]
    assert [s["name"] for s in seats] == ["A1", "A2", "B1", "B2"]
    assert [s["bot"] for s in seats] == [None, None, "normal", "normal"]
    assert seats[0]["characters"] == ["pedalair", "kitesurfeur", "barreur"]
    assert seats[2]["token"] is None and seats[2]["link"] is None
    link = seats[0]["link"]
    assert link.endswith(f"/akvo/table/{made['table']}#{seats[0]['token']}")
    assert made["spectator"]["link"].endswith("#" + made["spectator"]["token"])


def test_a_seat_reads_its_view_and_plays_and_others_are_refused(http: httpx.Client) -> None:
    made = create_over_http(http)
    a, b = (s["token"] for s in made["seats"])
    url = f"{API}/{made['table']}"
    view = http.get(url, params={"token": a}).json()
    assert view["you"]["name"] == "A1" and len(view["legal"]) == 64
    assert view["legal"][0]["label"].startswith("Ordres\u00a0: Pédalair avancer")
    same = http.get(url, headers={"Authorization": f"Bearer {a}"}).json()
    assert same == view
    answer = _act(http, made, a, "orders ATTA AT-B")
    assert answer.status_code == 200 and answer.json()["orders"]["A"] == "ATTA AT-B"
    again = _act(http, made, a, "orders AAAA AA")
    assert again.status_code == 409
    assert again.json() == {
        "error": "not_your_turn",
        "message": "Ce n’est pas à vous de décider maintenant.",
    }
    other = http.get(url, params={"token": b}).json()
    assert other["orders"]["A"] == "hidden"
    watcher = made["spectator"]["token"]
    assert _act(http, made, watcher, "orders TTTT TT").status_code == 403


@pytest.mark.parametrize("token", [None, "", "nope", "x" * 43, "y" * 3000])
def test_a_wrong_or_missing_token_gets_403_and_nothing(http: httpx.Client, token: Any) -> None:
    made = create_over_http(http)
    url = f"{API}/{made['table']}"
    params = {} if token is None else {"token": token}
    for path in ("", "/record", "/qr", "/events"):
        answer = http.get(url + path, params=params)
        assert answer.status_code == 403, path
        assert answer.json()["error"] == "forbidden"
        assert "Lien invalide" in answer.json()["message"]
    assert _act(http, made, token, "orders AAAA AA").status_code == 403
    mine = made["seats"][0]["token"]
    assert http.get(url, params={"token": mine}).json()["orders"] == {"A": None, "B": None}


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        (b"[" * 3000, 400, "request"),
        (b'{"a":' * 600 + b"1" + b"}" * 600, 400, "request"),
        (b'{"teams": ["perrockiss", "fish-tank"], "seed": 1e999}', 400, "seed"),
        (b'{"teams": ["perrockiss", "fish-tank"], "seed": NaN}', 400, "request"),
        (b'{"teams": ["perrockiss", "fish-tank"], "seed": ' + b"9" * 4000 + b"}", 400, "seed"),
        (b'{"teams": {"A": 1}}', 400, "teams"),
        (b'{"teams": ["perrockiss", "fish-tank"], "players": "4"}', 400, "players"),
        (b'["perrockiss", "fish-tank"]', 400, "request"),
        (b"\xff\xfe{}", 400, "request"),
        (b"", 400, "request"),
        (b"{" + b" " * 5000 + b"}", 413, "too_large"),
    ],
)
def test_hostile_json_is_refused_cleanly(
    http: httpx.Client, body: bytes, status: int, code: str
) -> None:
    answer = http.post(API, content=body, headers={"Content-Type": "application/json"})
    assert answer.status_code == status
    assert answer.json()["error"] == code and answer.json()["message"]


def test_only_json_is_read(http: httpx.Client) -> None:
    form = http.post(API, data={"teams": "perrockiss"})
    assert form.status_code == 415 and "JSON" in form.json()["message"]
    made = create_over_http(http)
    token = made["seats"][0]["token"]
    for action in (None, 3, ["orders AAAA AA"], {"a": 1}, "x" * 1000):
        answer = _act(http, made, token, action)
        assert answer.status_code == 400 and answer.json()["error"] == "action"


def test_a_bad_team_list_is_explained_in_french(http: httpx.Client) -> None:
    answer = http.post(API, json={"teams": ["perrockiss", "LEGS VUNF JACK ZBIM PYTH DROX+QQ"]})
    assert answer.status_code == 400
    message = answer.json()["message"]
    assert message.startswith("La liste de l’équipe B n’est pas valide (R27).")
    assert "Q" in message


def test_a_flood_from_one_client_is_throttled(tmp_path: Path) -> None:
    slow = InProcessServer(tmp_path, rate=0.001, burst=5, create_burst=2)
    with slow, httpx.Client(base_url=slow.url) as http:
        codes = [http.get(f"{API}/options").status_code for _ in range(6)]
        assert codes == [200] * 5 + [429]
        answer = http.get(f"{API}/options")
        assert answer.status_code == 429 and int(answer.headers["Retry-After"]) >= 1
        assert answer.json()["message"] == "Trop de demandes à la fois\u00a0: patientez un instant."
    strict = InProcessServer(tmp_path, create_rate=0.01, create_burst=2)
    with strict, httpx.Client(base_url=strict.url) as http:
        made = [http.post(API, json={"teams": PRESETS}).status_code for _ in range(3)]
        assert made == [201, 201, 429]


def test_tokens_stay_out_of_the_access_log(http: httpx.Client, caplog: Any) -> None:
    made = create_over_http(http)
    token = made["seats"][0]["token"]
    with caplog.at_level(logging.INFO, logger="akvo.tables"):
        http.get(f"{API}/{made['table']}", params={"token": token})
        http.get(f"{API}/{made['table']}/record", params={"token": "wrong"})
        for _ in range(200):  # the server's thread logs just after it answers
            lines = [r.getMessage() for r in caplog.records]
            if any(line.startswith("403 GET") for line in lines):
                break
            time.sleep(0.02)
    assert f"200 GET {API}/{made['table']} " in " ".join(lines)
    assert f"403 GET {API}/{made['table']}/record " in " ".join(lines)
    assert all(token not in line and "wrong" not in line for line in lines)


def test_pages_and_qr_codes(http: httpx.Client) -> None:
    made = create_over_http(http)
    page = http.get(f"/akvo/table/{made['table']}")
    assert page.status_code == 200 and "tables.js" in page.text
    assert "script-src 'self'" in page.headers["Content-Security-Policy"]
    assert http.get("/akvo/en-ligne").status_code == 200
    assert http.get("/akvo/tables-static/tables.js").status_code == 200
    qr = http.get(f"{API}/{made['table']}/qr", params={"token": made["seats"][1]["token"]})
    assert qr.status_code == 200 and qr.headers["Content-Type"] == "image/svg+xml"
    assert qr.text.startswith("<svg")
    options = http.get(f"{API}/options").json()
    assert {t["key"] for t in options["teams"]} >= {"perrockiss", "fish-tank"}
    assert [b["key"] for b in options["bots"]] == ["débutant", "facile", "normal", "fort", "expert"]
    assert options["clocks"] == [
        {"mode": "en direct", "unit": "minutes", "min": 1, "max": 60},
        {"mode": "sur plusieurs jours", "unit": "hours", "min": 1, "max": 168},
    ]
    assert options["rules"]["weather"][1] == {
        "value": "coin",
        "label": "Pile ou face à chaque tour",
    }


def _but_seats(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k != "seats"}


def test_each_seat_is_pushed_its_view_on_every_change(server: InProcessServer) -> None:
    async def scenario() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        async with httpx.AsyncClient() as http:
            made = await create_table(http, server.url, {"teams": PRESETS, "seed": 3})
            a, b = (SeatClient(http, server.url, made["table"], s["token"]) for s in made["seats"])
            seen: tuple[list[dict[str, Any]], list[dict[str, Any]]] = ([], [])

            async def listen(seat: SeatClient, into: list[dict[str, Any]], count: int) -> None:
                async for text in seat.pushes():
                    view = json.loads(text)
                    if into and _but_seats(into[-1]) == _but_seats(view):
                        continue  # a change of presence only (the other seat came)
                    into.append(view)
                    if len(into) == count:
                        return

            tasks = [
                asyncio.create_task(listen(a, seen[0], 3)),
                asyncio.create_task(listen(b, seen[1], 3)),
            ]
            while len(seen[1]) < 1 or len(seen[0]) < 1:
                await asyncio.sleep(0.01)
            await a.act("orders AAAA AA")
            await b.act("orders TTTT TT")
            await asyncio.wait_for(asyncio.gather(*tasks), 20)
            return seen

    a_seen, b_seen = run_async(scenario())
    assert [v["programmed"] for v in b_seen[:2]] == [
        {"A": False, "B": False},
        {"A": True, "B": False},
    ]
    assert b_seen[1]["orders"] == {"A": "hidden", "B": None}
    assert b_seen[2]["orders"] == {"A": "AAAA AA", "B": "TTTT TT"}  # revealed
    assert a_seen[1]["orders"] == {"A": "AAAA AA", "B": None}


def test_pushes_to_b_are_the_same_bytes_whatever_a_programs(server: InProcessServer) -> None:
    """The secrecy test at the HTTP level: B's push payloads, views and refusals."""

    async def table(a_orders: list[str]) -> list[str]:
        async with httpx.AsyncClient() as http:
            made = await create_table(http, server.url, {"teams": PRESETS, "players": 4, "seed": 8})
            seats = [SeatClient(http, server.url, made["table"], s["token"]) for s in made["seats"]]
            got: list[str] = []

            async def listen() -> None:
                async for text in seats[2].pushes():
                    got.append(text)

            task = asyncio.create_task(listen())
            await asyncio.sleep(0.2)
            await seats[0].act(a_orders[0])
            await seats[3].act("part surfeur=T plongeur=T")
            await seats[1].act(a_orders[1])
            await seats[0].act(a_orders[2])
            refused = await http.post(
                f"{seats[3].url}/actions", json={"token": seats[3].token, "action": a_orders[3]}
            )
            got.append(refused.text)
            await seats[1].act(a_orders[3])
            got.append((await seats[3].view()).__repr__())
            await asyncio.sleep(0.3)
            task.cancel()
            return [text.replace(made["table"], "<id>") for text in got]

    async def both() -> list[list[str]]:
        return [
            await table(
                [
                    "part pedalair=A kitesurfeur=A",
                    "part surfeur=A plongeur=A",
                    "propose AA",
                    "accept AA",
                ]
            ),
            await table(
                [
                    "part pedalair=T kitesurfeur=A",
                    "part surfeur=T plongeur=A",
                    "propose TT",
                    "accept TT",
                ]
            ),
        ]

    one, other = run_async(both())
    assert len(one) >= 5 and one == other


@pytest.mark.parametrize(("players", "bots"), [(2, {"B": "normal"}), (4, {})])
def test_scripts_using_only_the_api_play_whole_matches(
    server: InProcessServer, players: int, bots: dict[str, str]
) -> None:
    async def match() -> list[Any]:
        async with httpx.AsyncClient(timeout=30) as http:
            made = await create_table(
                http, server.url, {"teams": PRESETS, "players": players, "bots": bots, "seed": 2}
            )
            seats = [
                SeatClient(http, server.url, made["table"], s["token"])
                for s in made["seats"]
                if s["token"]
            ]
            logs = await asyncio.wait_for(
                asyncio.gather(*(play_seat(seat, seed=i) for i, seat in enumerate(seats))), 120
            )
            record = await seats[0].record()
            humans = {s["seat"] for s in made["seats"] if s["token"]}
            return [logs, record, humans]

    logs, record, humans = run_async(match())
    assert all(log.final["status"] == "finished" for log in logs)
    # Every action acknowledged to a script is in the log, and nothing else of theirs.
    acted = sorted(action for log in logs for _, action in log.acted)
    assert acted == sorted(action for seat, action in record["rows"] if seat in humans)
    assert record["match"]["actions"] and record["setup"]["players"] == players


def test_the_coach_gives_each_option_its_exact_value_and_hides_nothing_it_should_not(
    http: httpx.Client,
) -> None:
    made = create_over_http(http, seed=5, bots={"B": "normal"})
    token = made["seats"][0]["token"]
    url = f"{API}/{made['table']}"
    view = http.get(url, params={"token": token}).json()
    assert view["coach"]["suggestion"][0].startswith("orders ")  # the bot's programme
    assert "pas de valeur exacte" in view["coach"]["note"]
    view = _act(http, made, token, view["coach"]["suggestion"][0]).json()
    for _ in range(500):
        if view["status"] != "playing" or any("coach" in e for e in view["legal"]):
            break
        if view["legal"]:
            view = _act(http, made, token, view["legal"][0]["action"]).json()
        else:  # the bot is deciding
            time.sleep(0.02)
            view = http.get(url, params={"token": token}).json()
    valued = [e for e in view["legal"] if "coach" in e]
    shape = re.compile(
        r"\d+,\d\u00a0% de (recul|réussite)"
        r"|\d+,\d\d\u00a0pt espéré|(valeur|gain) -?\d+,\d\d\u00a0pt"
    )
    assert valued and all(shape.fullmatch(e["coach"]) for e in valued)
    assert view["coach"]["labels"]
    quiet = create_over_http(http, coach=False)
    assert (
        http.get(f"{API}/{quiet['table']}", params={"token": quiet["seats"][0]["token"]}).json()[
            "coach"
        ]
        is None
    )
