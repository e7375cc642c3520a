"""The book server's kernel manager: kernel starts queued, spares handed out, widget echo off.

At start-up Voilà fills every pre-heated pool at once (dozens of kernels with ``make book``'s
pools) and a burst of readers past the pools starts one kernel each, all together. On two
cores, dozens of Python processes importing at the same time each take minutes, pass their
start-up timeout and leave pages without widgets. Queued, each kernel starts in about a
second and the first readers are served first; a reader's own kernel goes before the
pools' refills (a pre-heated kernel is for the next reader, this one is waiting now).

Every kernel starts with ``JUPYTER_WIDGETS_ECHO=0`` (unless configured otherwise): ipywidgets
8 then does not echo each value a reader sets back to the page before running the handlers,
one message fewer on every round trip (``benchmarks/results/roundtrip.md``). The echo keeps
several views of one widget in step; a book page is one reader's view of its own kernel.

A reader whose page has no pre-heated kernel left gets a spare kernel, if one is ready
(:mod:`akvo_site.kernels.spares`), instead of starting one.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import os
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from hmac import compare_digest
from typing import Any

from jupyter_client.session import Session
from jupyter_server._tz import utcnow
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from traitlets import Bool, Float, Int

from .spares import SpareKernels

#: ipywidgets 8 reads this variable once, at import, in the kernel.
WIDGET_ECHO_VARIABLE = "JUPYTER_WIDGETS_ECHO"
#: Voilà sets it to "True" in the environment of the kernels it starts for its pools.
PREHEAT_VARIABLE = "VOILA_PREHEAT"
READER, POOL = 0, 1  # start priorities: lower goes first


class StartSlots:
    """At most ``slots`` holders at once; waiters go by priority, then in arrival order."""

    def __init__(self, slots: int) -> None:
        self.free = max(1, slots)
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self._arrival = itertools.count()

    @asynccontextmanager
    async def slot(self, priority: int) -> AsyncIterator[None]:
        await self._acquire(priority)
        try:
            yield
        finally:
            self._release()

    async def _acquire(self, priority: int) -> None:
        if self.free > 0 and not self._waiting:
            self.free -= 1
            return
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (priority, next(self._arrival), turn))
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():
                self._release()  # handed the slot just as it was cancelled: pass it on
            raise

    def _release(self) -> None:
        while self._waiting:
            _, _, turn = heapq.heappop(self._waiting)
            if not turn.done():
                turn.set_result(None)
                return
        self.free += 1


class BookKernelManager(AsyncMappingKernelManager):  # type: ignore[misc]
    """Jupyter's kernel manager: at most ``max_starting`` kernels starting at once, and
    each kernel's widget echo as ``widget_echo`` says."""

    max_starting = Int(
        3,
        help="Most kernels starting at the same time (start-up is CPU-bound: about the "
        "number of cores); the others wait their turn.",
    ).tag(config=True)

    widget_echo = Bool(
        False,
        help="Let ipywidgets echo every value a reader sets back to the page "
        "(JUPYTER_WIDGETS_ECHO): one more message per change, only useful when several "
        "views share one kernel.",
    ).tag(config=True)

    pool_hold_s = Float(
        0.0,
        help="Longest a pool's or a spare's kernel start waits for the pages being rendered "
        "(readers on spare kernels run their cells now; a start would take their CPU). "
        "0: no wait (30 in book/voila.json, for bursts of readers).",
    ).tag(config=True)

    #: Warmed kernels for readers whose page's pool is empty (set by the server when
    #: ``BookPools.spares`` is on; None: every such reader starts a kernel).
    spare_kernels: SpareKernels | None = None

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._start_slots = StartSlots(self.max_starting)
        self._no_render = asyncio.Event()  # set while no reader's page is being rendered
        self._no_render.set()

    def pages_rendering(self, count: int) -> None:
        """The server tells how many readers' pages are being rendered right now."""
        if count > 0:
            self._no_render.clear()
        else:
            self._no_render.set()

    async def _after_renders(self) -> None:
        """Wait (at most ``pool_hold_s``) until no reader's page is being rendered."""
        if self.pool_hold_s <= 0:
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._no_render.wait(), self.pool_hold_s)

    def _environment(self, env: dict[str, str] | None) -> dict[str, str]:
        env = dict(env or os.environ)
        env[WIDGET_ECHO_VARIABLE] = "1" if self.widget_echo else "0"
        return env

    async def start_kernel(self, *args: Any, **kwargs: Any) -> str:  # type: ignore[override]
        env = kwargs["env"] = self._environment(kwargs.get("env"))
        priority = POOL if env.get(PREHEAT_VARIABLE) == "True" else READER
        if priority == READER and self.spare_kernels is not None and not args:
            spare = await self.spare_kernels.take(kwargs.get("kernel_name"), kwargs.get("path"))
            if spare is not None:
                self.log.info("Using spare kernel: %s", spare)
                return spare
        if priority == POOL:
            await self._after_renders()
        async with self._start_slots.slot(priority):
            kernel_id: str = await super().start_kernel(*args, **kwargs)
            return kernel_id

    async def start_spare(
        self, kernel_name: str, path: str, warm: Callable[[str], Awaitable[None]]
    ) -> str:
        """Start a kernel at the pools' priority and run ``warm`` on it before giving the
        start slot back (the imports are the costly part); a kernel that fails it is shut
        down and the error raised."""
        env = self._environment(None)
        env[PREHEAT_VARIABLE] = "False"  # it will serve a reader's page on Voilà's own path
        await self._after_renders()
        async with self._start_slots.slot(POOL):
            kernel_id: str = await super().start_kernel(
                kernel_name=kernel_name,
                path=path,  # type: ignore[arg-type]  # an ApiPath is a str
                env=env,
            )
            try:
                await warm(kernel_id)
            except BaseException:
                await self.shutdown_kernel(kernel_id, now=True)
                raise
            return kernel_id

    def start_watching_activity(self, kernel_id: str) -> None:
        """jupyter_server's record of a kernel's activity, reading only what it decides on.

        jupyter_server deserialises every IOPub message of every kernel — its signature
        checked, four JSON frames, every date in them parsed — to learn whether the kernel
        was active and, from status messages, its execution state: 17 % of the server's
        thread in a burst of readers (py-spy, 25 readers on spare kernels). Here the
        signature is still checked, the header and parent header are read without their
        dates, and the content only of status messages; the decisions are jupyter_server's
        (tests/akvo_site/kernels/test_site_spares.py replays messages through both)."""
        self.log.debug("Watching kernel activity: %s", kernel_id)
        kernel = self._kernels[kernel_id]
        kernel.reason = ""
        kernel.last_activity = utcnow()
        kernel._activity_stream = kernel.connect_iopub()
        session = Session(config=kernel.session.config, key=kernel.session.key)

        def record_activity(msg_list: list[bytes]) -> None:
            _idents, fed = session.feed_identities(msg_list)
            frames = [frame if isinstance(frame, bytes) else frame.bytes for frame in fed[:5]]
            if len(frames) < 5 or (
                session.auth is not None
                and not compare_digest(frames[0], session.sign(frames[1:5]))
            ):
                self.log.warning("kernel %s: IOPub message not signed as expected", kernel_id)
                return
            msg_type = session.unpack(frames[1]).get("msg_type")
            parent_type = (session.unpack(frames[2]) or {}).get("msg_type")
            if (
                self.track_message_type(msg_type)
                or self.track_message_type(parent_type)
                or kernel.execution_state == "busy"
            ):
                self.last_kernel_activity = kernel.last_activity = utcnow()
            if msg_type == "status":
                execution_state = session.unpack(frames[4])["execution_state"]
                if self.track_message_type(parent_type):
                    kernel.execution_state = execution_state
                elif kernel.execution_state == "starting" and execution_state != "starting":
                    kernel.execution_state = "idle"

        kernel._activity_stream.on_recv(record_activity)

    async def cull_kernel_if_idle(self, kernel_id: str) -> None:
        """Jupyter's culling, except for the spares (idle by design until a reader comes)."""
        if self.spare_kernels is not None and kernel_id in self.spare_kernels:
            return
        await super().cull_kernel_if_idle(kernel_id)
