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
import contextlib
import json
import os
import stat
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from tornado.httpclient import HTTPRequest
from tornado.websocket import websocket_connect

from akvo_site.app import BookServer, RunningServer, serve_in_background
from akvo_site.guard import V1_PROTOCOL
from akvo_site.kernels.manager import WIDGET_ECHO_VARIABLE, BookKernelManager
from tests.akvo_site.test_site_security import (
    ARTIFACTS,
    ROOT,
    channels_url,
    fetch,
    open_kernel,
    run,
)

IDLE_TIMEOUT = 4  # seconds without activity before an unconnected kernel is shut down
LIMIT = 30.0  # seconds a test waits for a shutdown
CHANNELS = ("shell", "iopub", "stdin", "control", "hb")


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


def assert_talks_over_unix_sockets(kernel: str) -> None:
    """``KernelManager.transport`` is ``ipc`` (``book/voila.json``): the kernel's channels
    are Unix sockets beside its connection file, no loopback port picked ahead of its start
    that another process could take first."""
    connection = Path(kernel_connection_file(kernel))
    info = json.loads(connection.read_text())
    assert info["transport"] == "ipc", info
    assert info["ip"] == str(connection.with_suffix("")) + "-ipc"
    sockets = sorted(p.name for p in connection.parent.glob(f"kernel-{kernel}-ipc-*"))
    ports = sorted(f"kernel-{kernel}-ipc-{info[f'{c}_port']}" for c in CHANNELS)
    assert sockets == ports and all(
        stat.S_ISSOCK(os.stat(connection.parent / s).st_mode) for s in sockets
    )


def kernel_connection_file(kernel: str) -> str:
    """The connection file named on the command line of kernel ``kernel``'s process."""
    for proc in Path("/proc").iterdir():
        with contextlib.suppress(OSError):
            arguments = (proc / "cmdline").read_bytes().split(b"\0")
            for argument in arguments:
                if argument.endswith(f"kernel-{kernel}.json".encode()):
                    return argument.decode()
    raise AssertionError(f"no process for kernel {kernel}")


def test_cap_culling_and_readers_who_leave(server: RunningServer) -> None:
    async def flow() -> None:
        reader = await asyncio.to_thread(open_kernel, server)
        assert_talks_over_unix_sockets(reader)
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


@pytest.mark.parametrize(
    ("root", "transport", "refused"),
    [("/tmp", "ipc", False), ("/x" * 30, "ipc", True), ("/x" * 30, "tcp", False)],
)
def test_a_connection_folder_too_long_for_unix_sockets_stops_the_server(
    root: str, transport: str, refused: bool
) -> None:
    """A kernel's Unix socket path must fit the system's 107 bytes; checked at start."""
    server = SimpleNamespace(
        config={"KernelManager": {"transport": transport}}, connection_dir=f"{root}/voila_abcdefgh"
    )
    if refused:
        with pytest.raises(SystemExit, match=r"shorter --Voila\.connection_dir_root"):
            BookServer._check_socket_paths(server)
    else:
        BookServer._check_socket_paths(server)
