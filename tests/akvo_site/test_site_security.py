"""Hostile clients against a real book server on loopback (bounded: a few messages each).

- the legacy-frame freeze: a websocket client without the v1 subprotocol that opens the
  widget control comm and asks for the widget states used to send Voilà's handler into a
  near-endless loop (site frozen, memory growing ~33 MB/s); now it is refused, a malformed
  v1 frame closes its connection, and the site keeps answering with flat memory;
- Voilà's message filter: an ``execute_request`` sent by a client runs nothing;
- the Host allow-list, HEAD, the French 404, the file list not served.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import pytest
from jupyter_server.services.kernels.connection.base import (
    deserialize_msg_from_ws_v1,
    serialize_msg_to_ws_v1,
)
from tornado.httpclient import HTTPClientError, HTTPRequest
from tornado.websocket import WebSocketClientConnection, WebSocketClosedError, websocket_connect

from akvo_site.app import SMALL_POOLS, RunningServer, serve_in_background
from akvo_site.guard import V1_PROTOCOL, host_allowed, v1_offsets

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
PAGE = "des.ipynb"
T = TypeVar("T")


@pytest.fixture(scope="module")
def server() -> Iterator[RunningServer]:
    ARTIFACTS.mkdir(exist_ok=True)
    log = ARTIFACTS / "voila-security.log"
    with serve_in_background(ROOT / "book", log, *SMALL_POOLS) as running:
        yield running


def run(coroutine: Coroutine[Any, Any, T], timeout: float) -> T:
    """Run ``coroutine`` to completion in a thread of its own (Playwright's sync API may
    already run an event loop in this one, when browser tests ran first)."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, asyncio.wait_for(coroutine, timeout)).result()


def fetch(url: str, *, method: str = "GET", host: str | None = None) -> tuple[int, str]:
    request = urllib.request.Request(url, method=method)
    if host is not None:
        request.add_unredirected_header("Host", host)
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def open_kernel(server: RunningServer) -> str:
    """Render a page as a reader would; return its kernel id."""
    status, html = fetch(f"{server.url}/voila/render/{PAGE}")
    assert status == 200
    match = re.search(r'"kernelId": "([0-9a-f-]{36})"', html)
    assert match, "no kernel id in the page"
    return match.group(1)


def channels_url(server: RunningServer, kernel: str) -> str:
    ws = server.url.replace("http://", "ws://")
    return f"{ws}/api/kernels/{kernel}/channels?session_id={uuid.uuid4()}"


def message(msg_type: str, content: dict[str, Any], session: str) -> dict[str, Any]:
    return {
        "header": {
            "msg_id": uuid.uuid4().hex,
            "msg_type": msg_type,
            "username": "attacker",
            "session": session,
            "date": datetime.now(UTC).isoformat(),
            "version": "5.3",
        },
        "parent_header": {},
        "metadata": {},
        "content": content,
        "buffers": [],
    }


def v1_frame(msg: dict[str, Any], channel: str = "shell") -> bytes:
    parts = [json.dumps(msg[k]).encode() for k in ("header", "parent_header", "metadata")]
    parts.append(json.dumps(msg["content"]).encode())
    return bytes(serialize_msg_to_ws_v1(parts, channel))  # type: ignore[no-untyped-call]


def legacy_attack(session: str) -> list[str]:
    """The freeze recipe: open the widget control comm and ask for every widget state."""
    comm = uuid.uuid4().hex
    opening = message(
        "comm_open", {"comm_id": comm, "target_name": "jupyter.widget.control", "data": {}}, session
    )
    opening["metadata"] = {"version": "1.0.0"}  # ipywidgets' control protocol
    request = message("comm_msg", {"comm_id": comm, "data": {"method": "request_states"}}, session)
    return [json.dumps({**m, "channel": "shell"}) for m in (opening, request)]


def test_v1_frame_check() -> None:
    good = v1_frame(message("kernel_info_request", {}, "s"))
    assert v1_offsets(good) is not None
    assert deserialize_msg_from_ws_v1(good)[0] == "shell"  # type: ignore[no-untyped-call]
    huge = (2**60).to_bytes(8, "little") + good[8:]
    assert v1_offsets(huge) is None
    assert v1_offsets(b"\x00" * 4) is None
    assert v1_offsets(b'{"header": {}}') is None
    backwards = bytearray(good)
    backwards[16:24] = (len(good) + 1).to_bytes(8, "little")
    assert v1_offsets(bytes(backwards)) is None


def test_legacy_client_is_refused_and_the_site_stays_up(server: RunningServer) -> None:
    kernel = open_kernel(server)
    before = rss_mb(server.pid)

    async def attack() -> int:
        try:
            connection = await websocket_connect(channels_url(server, kernel))
        except HTTPClientError as refused:
            return refused.code
        # Not refused: perform the whole attack, then let the test's checks judge the site.
        await asyncio.sleep(1)  # the server first waits for the kernel's idle status
        for frame in legacy_attack(uuid.uuid4().hex):
            await connection.write_message(frame)
        await asyncio.sleep(2)
        connection.close()
        return 101

    code = run(attack(), 30)
    start = time.monotonic()
    status, _ = fetch(f"{server.url}/voila/render/{PAGE}", method="HEAD")
    assert status == 200
    assert time.monotonic() - start < 2, "the site must keep answering"
    assert code == 400, "a client without the v1 subprotocol must be refused"
    time.sleep(1)
    assert rss_mb(server.pid) - before < 30, "server memory must stay flat"


async def _v1_connection(server: RunningServer, kernel: str) -> WebSocketClientConnection:
    request = HTTPRequest(channels_url(server, kernel))
    return await websocket_connect(request, subprotocols=[V1_PROTOCOL])


def test_malformed_v1_frame_closes_the_connection(server: RunningServer) -> None:
    kernel = open_kernel(server)
    before = rss_mb(server.pid)

    async def attack() -> Any:
        connection = await _v1_connection(server, kernel)
        good = v1_frame(message("kernel_info_request", {}, "s"))
        try:
            await connection.write_message((2**60).to_bytes(8, "little") + good[8:], binary=True)
        except WebSocketClosedError:
            return []
        seen = []  # what the kernel sent on its own (its status) before the server closed it
        while (frame := await connection.read_message()) is not None:
            assert isinstance(frame, bytes)
            _, parts = deserialize_msg_from_ws_v1(frame)  # type: ignore[no-untyped-call]
            seen.append(json.loads(parts[0])["msg_type"])
        return seen

    assert "kernel_info_reply" not in run(attack(), 30)  # closed, the request never reached
    status, _ = fetch(f"{server.url}/voila/render/{PAGE}", method="HEAD")
    assert status == 200
    assert rss_mb(server.pid) - before < 30


def test_no_traceback_reaches_a_visitor(server: RunningServer) -> None:
    """A comm handler that fails (bad control-protocol version) prints a traceback with
    server paths on the kernel's stderr: the visitor's websocket must not carry it."""
    kernel = open_kernel(server)
    session = uuid.uuid4().hex

    async def exchange() -> list[tuple[str, str]]:
        connection = await _v1_connection(server, kernel)
        opening = message(
            "comm_open",
            {"comm_id": uuid.uuid4().hex, "target_name": "jupyter.widget.control", "data": {}},
            session,
        )
        await connection.write_message(v1_frame(opening), binary=True)
        await asyncio.sleep(1.5)
        await connection.write_message(
            v1_frame(message("kernel_info_request", {}, session)), binary=True
        )
        seen: list[tuple[str, str]] = []
        while not any(kind == "kernel_info_reply" for kind, _ in seen):
            frame = await connection.read_message()
            assert isinstance(frame, bytes)
            _, parts = deserialize_msg_from_ws_v1(frame)  # type: ignore[no-untyped-call]
            seen.append((json.loads(parts[0])["msg_type"], parts[3].decode()))
        connection.close()
        return seen

    seen = run(exchange(), 60)
    assert "comm_close" in [kind for kind, _ in seen], "the comm handler failed (as intended)"
    assert not [kind for kind, _ in seen if kind in ("error", "stream")]
    assert not [text for _, text in seen if "Traceback" in text or "/site-packages/" in text]


def test_execute_request_from_a_client_runs_nothing(server: RunningServer, tmp_path: Path) -> None:
    kernel = open_kernel(server)
    marker = tmp_path / "executed"
    session = uuid.uuid4().hex

    async def exchange() -> list[str]:
        connection = await _v1_connection(server, kernel)
        code = f"open({str(marker)!r}, 'w').write('x')"
        execute = message("execute_request", {"code": code, "silent": False}, session)
        await connection.write_message(v1_frame(execute), binary=True)
        info = message("kernel_info_request", {}, session)
        await connection.write_message(v1_frame(info), binary=True)
        seen: list[str] = []
        while "kernel_info_reply" not in seen:
            frame = await connection.read_message()
            assert isinstance(frame, bytes)
            _, parts = deserialize_msg_from_ws_v1(frame)  # type: ignore[no-untyped-call]
            seen.append(json.loads(parts[0])["msg_type"])
        await asyncio.sleep(1)
        connection.close()
        return seen

    seen = run(exchange(), 60)
    assert "kernel_info_reply" in seen, "the relay works for allowed messages"
    assert "execute_reply" not in seen
    assert not marker.exists(), "the client's code must not run"


@pytest.mark.parametrize(
    ("host", "allowed"),
    [
        ("127.0.0.1:8866", True),
        ("localhost", True),
        ("[::1]:8866", True),
        ("evil.example.com", False),
        ("192.168.1.10:8866", False),
        ("akvo.example.org", True),
        ("AKVO.example.org.", True),
        ("www.akvo.example.org", False),
        ("jeux.example.net", True),
        ("example.net", False),
        ("", False),
    ],
)
def test_host_allow_list(host: str, allowed: bool) -> None:
    assert host_allowed(host, ["akvo.example.org", ".example.net"]) is allowed


def test_foreign_host_is_refused(server: RunningServer) -> None:
    assert fetch(f"{server.url}/", host="rebound.attacker.example")[0] == 403
    assert fetch(f"{server.url}/voila/render/{PAGE}", host="attacker.example:80")[0] == 403
    assert fetch(f"{server.url}/", method="HEAD", host="localhost")[0] == 200


def test_head_404_and_no_file_list(server: RunningServer) -> None:
    assert fetch(f"{server.url}/", method="HEAD")[0] == 200
    assert fetch(f"{server.url}/voila/render/{PAGE}", method="HEAD")[0] == 200
    assert fetch(f"{server.url}/voila/render/absente.ipynb", method="HEAD")[0] == 404
    for path in (
        "/voila/tree",
        "/voila/tree/",
        "/voila/api/contents",
        "/voila/render/absente.ipynb",
    ):
        status, html = fetch(server.url + path)
        assert status == 404, path
        assert '<html lang="fr">' in html
        assert "Page introuvable" in html
        assert "http" not in html.replace("http-equiv", ""), "no external fetch"
        assert "absente" not in html and "Traceback" not in html


def test_ready_probe_answers_counts_only(server: RunningServer) -> None:
    """``/akvo/ready``: JSON counts of pooled kernels, nothing that names a kernel or a path;
    a foreign Host is refused like everywhere else."""
    status, body = fetch(f"{server.url}/akvo/ready")
    state = json.loads(body)
    assert set(state) == {"ready", "warm", "wanted"}
    assert state["wanted"] == 1  # SMALL_POOLS: one pre-heated home page
    assert state["ready"] == (state["warm"] >= 1)
    assert status == (200 if state["ready"] else 503)
    assert fetch(f"{server.url}/akvo/ready", host="evil.example:80")[0] == 403
