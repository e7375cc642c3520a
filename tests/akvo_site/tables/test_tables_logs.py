"""No seat token reaches the book server's log (issue 37.7): every refusal path — a
malformed table id (404), a token where the id goes, a refused Host (403), a wrong token
(403), an unknown field (400), an illegal move (409), a take-back once too often (409), a
wrong method (405), a flood (429) — is driven with a live token in the path, the query,
the Authorization header or the body, then the whole captured log is searched. The same
for a profile's secret key on the profile routes (join, own profile, standings, replay,
kept mistakes)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from akvo_site.app import SMALL_POOLS, RunningServer, serve_in_background
from tests.tables_play import PRESETS

ROOT = Path(__file__).resolve().parents[3]
API = "/akvo/api/tables"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[RunningServer, Path]]:
    folder = tmp_path_factory.mktemp("logs")
    log = folder / "server.log"
    options = (
        f"--OnlineTables.database={folder / 'tables.sqlite'}",
        "--OnlineTables.create_burst=3",
        "--OnlineTables.create_rate=0.001",
        "--Application.log_level=DEBUG",
    )
    with serve_in_background(ROOT / "book", log, *SMALL_POOLS, *options) as running:
        yield running, log


def call(
    url: str, *, method: str = "GET", body: object = None, headers: dict[str, str] | None = None
) -> tuple[int, str]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    for name, value in (headers or {}).items():
        request.add_unredirected_header(name, value)
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def test_no_refusal_path_writes_a_token_to_the_log(
    server: tuple[RunningServer, Path],
) -> None:
    running, log = server
    base = running.url
    status, text = call(f"{base}/akvo/api/profiles", method="POST", body={"name": "Léa"})
    assert status == 201
    key = json.loads(text)["key"]
    status, text = call(f"{base}{API}", method="POST", body={"teams": PRESETS})
    assert status == 201
    made = json.loads(text)
    table, token = made["table"], made["seats"][0]["token"]
    other = made["seats"][1]["token"]
    bearer = {"Authorization": f"Bearer {token}"}
    seen = [
        call(f"{base}{API}/bad.id?token={token}")[0],  # malformed id: no route
        call(f"{base}{API}/{token}?token={token}")[0],  # a token where the id goes
        call(f"{base}/voila/render/{token}.ipynb?token={token}")[0],
        call(f"{base}{API}/{table}?token={token}", headers={"Host": "evil.example"})[0],
        call(f"{base}{API}/{table}", headers={**bearer, "Host": "evil.example"})[0],
        call(f"{base}{API}/{table}/record?token={token}")[0],  # not finished
        call(f"{base}{API}/{table}/qr?token={token}x")[0],
        call(f"{base}{API}/{table}?token={token}", method="PUT", body={})[0],
        call(
            f"{base}{API}/{table}/actions",
            method="POST",
            body={"token": token, "action": "x", "why": token},
        )[0],
        call(f"{base}{API}/{table}/actions", method="POST", body={"token": token, "action": "x"})[
            0
        ],
        call(
            f"{base}{API}/{table}/hand-over",
            method="POST",
            body={"token": other, "seat": "A1", "bot": "normal"},
        )[0],
        call(f"{base}{API}/{table}/take-back", method="POST", body={"token": token})[0],
        call(f"{base}{API}/{table}/take-back", method="POST", body={"token": token})[0],
        call(f"{base}{API}/{table}/events?token={token}x")[0],
        call(f"{base}/akvo/table/{table}?token={token}")[0],
        *[
            call(f"{base}{API}", method="POST", body={"teams": PRESETS, "seed": token})[0]
            for _ in range(4)
        ],
    ]
    assert seen[:15] == [404, 404, 404, 403, 403, 409, 403, 405, 400, 409, 200, 200, 409, 403, 200]
    assert 429 in seen[15:]  # the creation throttle (3 at once), with a token in the body
    join = f"{base}{API}/{table}/profile"
    me = f"{base}/akvo/api/profiles/me"
    mistakes = f"{base}/akvo/api/profiles/mistakes"
    keyed = [
        call(join, method="POST", body={"token": other + "x", "key": key})[0],
        call(join, method="POST", body={"token": other, "key": key + "x"})[0],
        call(join, method="POST", body={"token": other, "key": key, "why": key})[0],
        call(f"{join}?key={key}", method="POST", body={"token": other, "key": key})[0],
        call(join, method="POST", body={"token": token, "key": key})[0],  # one profile, one seat
        call(me, method="POST", body={"key": key})[0],
        call(me, method="POST", body={"key": key + "x"})[0],
        call(f"{me}?key={key}", method="GET")[0],
        call(f"{base}/akvo/api/profiles", method="POST", body={"name": key})[0],  # throttled
        call(f"{base}/akvo/api/standings?key={key}", headers={"Authorization": f"Bearer {key}"})[0],
        call(f"{base}{API}/{table}/replay?key={key}")[0],  # not finished: never served
        call(f"{base}{API}/{key}/replay")[0],
        call(f"{base}/akvo/classement?key={key}")[0],
        call(mistakes, method="POST", body={"key": key + "x", "mistakes": key})[0],
        call(mistakes, method="POST", body={"key": key, "why": key})[0],
        call(mistakes, method="POST", body={"key": key, "mistakes": key})[0],  # not a set
        call(f"{mistakes}?key={key}", method="GET")[0],
        call(mistakes, method="POST", body={"key": key})[0],
    ]
    assert keyed[:13] == [403, 403, 400, 200, 409, 200, 403, 405, 429, 200, 409, 404, 200]
    assert keyed[13:] == [403, 400, 400, 405, 200]
    text = log.read_text(encoding="utf-8", errors="replace")
    assert f"{API}/bad.id" in text  # the refusals were logged, paths only
    for secret in (token, other, token[:20], other[:20], key, key[:20]):
        assert secret not in text
