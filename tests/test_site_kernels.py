"""Kernels sized to readers, on a real loopback server with short timeouts.

The server runs with a cap of 2 reader kernels and a culling timeout of a few seconds
(production: ``book/voila.json``). One flow checks, in order: the French « site complet »
page past the cap, the shutdown of a kernel no browser connected to, the survival of a
connected one, the page served again once a kernel is freed, and the shutdown of the
kernel of a reader who left (websocket closed). And, without a server, kernel starts
queued a few at a time, and their environment (widget echo off unless configured).
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from collections.abc import Iterator

import pytest
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from tornado.httpclient import HTTPRequest
from tornado.websocket import websocket_connect

from akvo_widgets.site import RunningServer, serve_in_background
from akvo_widgets.site_guard import V1_PROTOCOL
from akvo_widgets.site_kernels import WIDGET_ECHO_VARIABLE, BookKernelManager
from tests.test_site_security import ARTIFACTS, ROOT, channels_url, fetch, open_kernel, run

IDLE_TIMEOUT = 4  # seconds without activity before an unconnected kernel is shut down
LIMIT = 30.0  # seconds a test waits for a shutdown


@pytest.fixture(scope="module")
def server() -> Iterator[RunningServer]:
    ARTIFACTS.mkdir(exist_ok=True)
    options = (
        "--BookServer.max_readers=2",
        "--VoilaConfiguration.preheat_kernel=False",  # reader kernels only: exact counts
        f"--MappingKernelManager.cull_idle_timeout={IDLE_TIMEOUT}",
        "--MappingKernelManager.cull_interval=1",
    )
    with serve_in_background(ROOT / "book", ARTIFACTS / "voila-kernels.log", *options) as running:
        yield running


def alive(server: RunningServer, kernel: str) -> bool:
    status, body = fetch(f"{server.url}/api/kernels/{kernel}")
    assert status in (200, 404), body
    return status == 200 and json.loads(body)["id"] == kernel


def wait_gone(server: RunningServer, kernel: str) -> float:
    start = time.monotonic()
    while alive(server, kernel):
        assert time.monotonic() - start < LIMIT, f"kernel {kernel} still alive"
        time.sleep(0.5)
    return time.monotonic() - start


def test_cap_culling_and_readers_who_leave(server: RunningServer) -> None:
    async def flow() -> None:
        reader = await asyncio.to_thread(open_kernel, server)
        connection = await websocket_connect(
            HTTPRequest(channels_url(server, reader)), subprotocols=[V1_PROTOCOL]
        )
        # A GET that never connects, just before the cap is tried: its kernel cannot be
        # culled in between however slow the machine (the reader's render came first).
        crawler = await asyncio.to_thread(open_kernel, server)

        status, html = await asyncio.to_thread(fetch, f"{server.url}/voila/render/des.ipynb")
        assert status == 503
        assert "Le site est complet, réessayez dans un instant." in html
        assert '<html lang="fr">' in html

        await asyncio.to_thread(wait_gone, server, crawler)
        assert await asyncio.to_thread(alive, server, reader), "a connected reader stays"
        newcomer = await asyncio.to_thread(open_kernel, server)  # the cap has room again

        connection.close()  # the reader leaves
        await asyncio.to_thread(wait_gone, server, reader)
        await asyncio.to_thread(wait_gone, server, newcomer)

    run(flow(), 4 * LIMIT)


def test_kernel_starts_are_queued(monkeypatch: pytest.MonkeyPatch) -> None:
    """A burst of 7 starts with ``max_starting=2``: never more than 2 at once, all done."""
    running = peak = 0

    async def start(self: AsyncMappingKernelManager, *args: object, **kwargs: object) -> str:
        nonlocal running, peak
        running += 1
        peak = max(peak, running)
        await asyncio.sleep(0.02)
        running -= 1
        return "kernel"

    monkeypatch.setattr(AsyncMappingKernelManager, "start_kernel", start)

    async def burst() -> list[str]:
        manager = BookKernelManager(max_starting=2)
        return list(await asyncio.gather(*(manager.start_kernel() for _ in range(7))))

    assert run(burst(), 30) == ["kernel"] * 7
    assert peak == 2


@pytest.mark.parametrize(("echo", "expected"), [(False, "0"), (True, "1")])
def test_kernels_start_with_the_configured_widget_echo(
    monkeypatch: pytest.MonkeyPatch, echo: bool, expected: str
) -> None:
    """The kernel's environment says whether ipywidgets echoes; Voilà's variables stay."""
    seen: list[dict[str, str]] = []

    async def start(self: AsyncMappingKernelManager, *args: object, **kwargs: object) -> str:
        env = kwargs["env"]
        assert isinstance(env, dict)
        seen.append(env)
        return "kernel"

    monkeypatch.setattr(AsyncMappingKernelManager, "start_kernel", start)
    monkeypatch.setenv(WIDGET_ECHO_VARIABLE, "1" if expected == "0" else "0")  # overridden
    manager = BookKernelManager(widget_echo=echo)
    run(manager.start_kernel(env={"VOILA_PREHEAT": "True"}), 30)
    run(manager.start_kernel(), 30)  # no env given: the server's, plus the echo setting
    assert seen[0] == {"VOILA_PREHEAT": "True", WIDGET_ECHO_VARIABLE: expected}
    assert seen[1][WIDGET_ECHO_VARIABLE] == expected
    assert seen[1]["PATH"] == os.environ["PATH"]
