"""A page whose kernel dies as it starts (akvo_site/kernels/failures.py).

Voilà kept such a page's response open with heartbeats for as long as the reader waited
(measured: still waiting after 150 s), and handed a pool's failed entry to the next reader.
Unit tests on stand-ins, then a real server whose kernels all die at start (a ``python3``
kernel spec that exits at once, first on ``JUPYTER_PATH``).
"""

from __future__ import annotations

import asyncio
import json
import logging
import sys
import time
import urllib.request
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from akvo_site.app import RunningServer, serve_in_background
from akvo_site.kernels.failures import (
    FAILED_PAGE,
    BookNotebookRenderer,
    failed,
    skipping_failed_entries,
)
from tests.akvo_site.test_site_security import ARTIFACTS, ROOT, fetch


class Manager:
    """A kernel manager stand-in: the kernels it holds, the ones it was asked to stop."""

    def __init__(self, kernels: set[str], pools: dict[str, list[Any]] | None = None) -> None:
        self.kernels, self.stopped = kernels, []
        self._pools = pools or {}
        self.initialized: list[tuple[str, dict[str, Any]]] = []
        self.log = logging.getLogger("test_site_failures")

    def __contains__(self, kernel_id: object) -> bool:
        return kernel_id in self.kernels

    async def shutdown_kernel(self, kernel_id: str, now: bool = False) -> None:
        self.kernels.discard(kernel_id)
        self.stopped.append(kernel_id)

    async def _initialize(self, name: str, kernel_id: Any = None, **kwargs: Any) -> dict[str, Any]:
        self.initialized.append((name, kwargs))
        return {"kernel_id": "fresh", "task": done(("page", None)), "renderer": None}


def done(result: Any = None, error: BaseException | None = None) -> asyncio.Future[Any]:
    future: asyncio.Future[Any] = asyncio.get_event_loop_policy().get_event_loop().create_future()
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)
    return future


def renderer_with(manager: Manager | None) -> BookNotebookRenderer:
    """A renderer whose page view belongs to a handler holding ``manager`` (None: a pool's)."""
    renderer = BookNotebookRenderer(voila_configuration=_Configuration(), notebook_path="des.ipynb")
    renderer.request_handler = None if manager is None else _Handler(manager)
    return renderer


class _Configuration:
    prelaunch_hook = None


class _Handler:
    def __init__(self, manager: Manager) -> None:
        self.kernel_manager = manager


async def snippets(fail_after: int) -> AsyncIterator[tuple[str, Any]]:
    for index in range(fail_after):
        yield f"<p>{index}</p>", None
    raise RuntimeError("Kernel died before replying to kernel_info")


def collect(renderer: BookNotebookRenderer, source: AsyncIterator[tuple[str, Any]]) -> list[str]:
    async def run() -> list[str]:
        return [html async for html, _ in renderer._ended_on_failure(source, "k1")]

    return asyncio.run(run())


def test_a_page_view_whose_kernel_dies_ends_with_the_french_notice() -> None:
    manager = Manager({"k1", "k2"})
    renderer = renderer_with(manager)
    assert collect(renderer, snippets(2)) == ["<p>0</p>", "<p>1</p>", FAILED_PAGE]
    assert renderer.failed
    assert manager.stopped == ["k1"] and manager.kernels == {"k2"}
    assert "Recharger la page" in FAILED_PAGE and 'role="alert"' in FAILED_PAGE


def test_a_page_that_runs_is_left_alone() -> None:
    async def whole() -> AsyncIterator[tuple[str, Any]]:
        yield "<p>a</p>", None
        yield "<p>b</p>", None

    manager = Manager({"k1"})
    renderer = renderer_with(manager)
    assert collect(renderer, whole()) == ["<p>a</p>", "<p>b</p>"]
    assert not renderer.failed and manager.stopped == []


def test_a_pool_render_that_fails_is_marked_and_keeps_its_kernel_for_the_skip() -> None:
    renderer = renderer_with(None)  # a pool's renderer has no request handler
    assert collect(renderer, snippets(0)) == [FAILED_PAGE]
    assert renderer.failed


def entry(render_error: bool = False, renderer_failed: bool = False) -> asyncio.Future[Any]:
    renderer = type("R", (), {"failed": renderer_failed})()
    error = RuntimeError("render") if render_error else None
    task = done(("page", None), error)
    return done({"kernel_id": f"k{id(renderer)}", "task": task, "renderer": renderer})


def test_failed_tells_every_way_a_pool_entry_fails() -> None:
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    try:
        starting = loop.create_future()
        cancelled = loop.create_future()
        cancelled.cancel()
        assert not failed(starting)  # still starting: not known to have failed
        assert failed(cancelled)
        assert failed(done(error=RuntimeError("no kernel")))
        assert failed(entry(render_error=True))
        assert failed(entry(renderer_failed=True))
        assert not failed(entry())
    finally:
        loop.close()
        asyncio.set_event_loop(None)


def test_a_reader_skips_the_failed_entries_and_their_kernels_are_shut_down() -> None:
    async def run() -> None:
        bad, good = entry(renderer_failed=True), entry()
        bad_kernel = bad.result()["kernel_id"]
        manager = Manager({bad_kernel}, {"des.ipynb": [bad, good]})
        taken: list[Any] = []

        async def take(name: str) -> Any:
            taken.append(manager._pools[name].pop(0))
            return taken[-1]

        await skipping_failed_entries(manager, take)("des.ipynb")
        assert taken == [good] and manager.stopped == [bad_kernel]
        assert manager.initialized == []

    asyncio.run(run())


def test_a_pool_of_failed_entries_only_renders_the_page_afresh() -> None:
    async def run() -> None:
        manager = Manager(set(), {"chapitres/des.ipynb": [entry(render_error=True)]})

        async def take(name: str) -> Any:
            return await manager._pools[name].pop(0)

        fresh = await skipping_failed_entries(manager, take)("chapitres/des.ipynb")
        assert fresh["kernel_id"] == "fresh"
        # at a reader's priority (no VOILA_PREHEAT in its environment), in the page's folder
        assert manager.initialized == [("chapitres/des.ipynb", {"path": "chapitres"})]

    asyncio.run(run())


# --- A real server whose kernels all die at start ----------------------------------------


@pytest.fixture(scope="module")
def dying_kernels(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    data = tmp_path_factory.mktemp("jupyter")
    spec = data / "kernels" / "python3"
    spec.mkdir(parents=True)
    argv = [sys.executable, "-c", "import sys; sys.exit(3)", "-f", "{connection_file}"]
    kernel = {"argv": argv, "display_name": "Python 3", "language": "python"}
    (spec / "kernel.json").write_text(json.dumps(kernel))
    pools = {"default": {"pool_size": 0}, "des.ipynb": {"pool_size": 1}}
    options = (
        f"--VoilaKernelManager.kernel_pools_config={json.dumps(pools)}",
        "--BookPools.memory_mb=0",
    )
    ARTIFACTS.mkdir(exist_ok=True)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("JUPYTER_PATH", f"{data}:{Path(sys.prefix, 'share', 'jupyter')}")
        log = ARTIFACTS / "voila-failures.log"
        with serve_in_background(ROOT / "book", log, *options, timeout=120) as running:
            yield running


#: Longest a page may take to end here (a kernel's death is known within a few seconds;
#: Voilà's own page would still be sending a heartbeat every 10 s).
DEADLINE_S = 45.0


def read_within(url: str, seconds: float) -> tuple[int, str, bool]:
    """GET ``url``, reading until the response ends or ``seconds`` have passed: (status,
    body so far, whether it ended)."""
    deadline = time.monotonic() + seconds
    with urllib.request.urlopen(url, timeout=seconds) as response:
        chunks = []
        while time.monotonic() < deadline:
            chunk = response.read1(65536)
            if not chunk:
                return response.status, b"".join(chunks).decode(), True
            chunks.append(chunk)
        return response.status, b"".join(chunks).decode(), False


@pytest.mark.server
@pytest.mark.parametrize("notebook", ["tour-de-jeu.ipynb", "des.ipynb"], ids=["own", "pooled"])
def test_the_reader_is_told_and_the_page_ends(dying_kernels: RunningServer, notebook: str) -> None:
    url = f"{dying_kernels.url}/voila/render/{notebook}"
    status, body, ended = read_within(url, DEADLINE_S)
    assert status == 200 and ended, body[-300:]
    assert body.rstrip().endswith(FAILED_PAGE.strip())  # the last thing sent, then the end
    ready, _ = fetch(f"{dying_kernels.url}/akvo/ready")
    assert ready in (200, 503)  # the server answers on
