"""Spare kernels: started ahead of time with the book's imports run, for any page (issue 20.3).

A burst of readers on a chapter whose pre-heated pool holds one kernel used to start a
kernel per reader: on two cores twenty Python processes importing ipykernel, numpy, bqplot
and the engine together took 40 s. A spare kernel has paid that already (about 1.6 s of
CPU); what is left for the reader is the page's own cells (0.1–0.3 s). Spares are not tied
to a page: Voilà renders the page in one on its ordinary path (the one for a page whose pool
is empty), so one set of spares covers a burst on any chapter.

The spares are refilled after each hand-out, at the pools' priority (readers' own kernel
starts go first, :mod:`akvo_site.kernels.manager`), are never culled while they wait, are not
counted as readers' kernels, and take their room in ``BookPools.memory_mb``.

A spare starts without the variables Voilà gives a reader's kernel from the request
(``QUERY_STRING``, ``SCRIPT_NAME``…), as a pre-heated kernel does: the book's pages read none
of them. Voilà sets ``VOILA_KERNEL_ID`` itself when it renders the page.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from jupyter_server._tz import utcnow

from akvo.errors import AkvoError

#: What a spare imports before any reader comes: the modules the book's pages import, a page
#: class taken from the facade by its module (a test reads every notebook's imports and
#: checks they are all here).
BOOK_IMPORTS = (
    "ipywidgets",
    "bqplot",
    "numpy",
    "scipy.stats",
    "akvo",
    "akvo_widgets.chapters",
    "akvo_widgets.learn.duel",
    "akvo_widgets.learn.examples",
    "akvo_widgets.learn.examples_game",
    "akvo_widgets.learn.matrix",
    "akvo_widgets.learn.roll",
    "akvo_widgets.learn.sharing",
    "akvo_widgets.learn.shot",
    "akvo_widgets.play.exercises",
    "akvo_widgets.play.game",
    "akvo_widgets.play.replay",
    "akvo_widgets.play.tutorial",
    "akvo_widgets.design.compare",
    "akvo_widgets.design.lab",
    "akvo_widgets.design.strength",
    "akvo_widgets.design.variants",
    "akvo_widgets.reference.aide_memoire",
    "akvo_widgets.reference.concordance",
    "akvo_widgets.reference.glossary",
    "akvo_widgets.reference.siblings",
)

#: Engine caches a spare fills after its imports, each a function called without arguments:
#: the dice tables of « Les dés » (0.15 s the first time a kernel rolls 1 to 8 dice).
ENGINE_PREPARATION = ("akvo.dice.prepare_tables",)

log = logging.getLogger(__name__)


class SpareConfigError(AkvoError, ValueError):
    """A malformed spare setting (a module or function name, a count)."""


class SpareWarmError(AkvoError, RuntimeError):
    """A spare kernel did not run the book's imports (the kernel is shut down, not used)."""


def _dotted(names: Iterable[str]) -> list[str]:
    dotted = list(names)
    for name in dotted:
        if not isinstance(name, str) or not all(part.isidentifier() for part in name.split(".")):
            raise SpareConfigError(f"not a dotted Python name: {name!r}")
    return dotted


def warm_code(modules: Iterable[str], calls: Iterable[str] = ()) -> str:
    """The cell a spare runs: import each module, then call each ``module.function()``;
    nothing is left bound in the namespace the reader's page will run in."""
    names, functions = _dotted(modules), _dotted(calls)
    for function in functions:
        if "." not in function:
            raise SpareConfigError(f"a call must name its module: {function!r}")
    return (
        "import importlib as _i\n"
        f"for _m in {names!r}:\n    _i.import_module(_m)\n"
        f"for _f in {functions!r}:\n"
        "    _m, _n = _f.rsplit('.', 1)\n    getattr(_i.import_module(_m), _n)()\n"
        "del _i, _m\n" + ("del _f, _n\n" if functions else "")
    )


async def run_silently(manager: Any, kernel_id: str, code: str, timeout: float) -> None:
    """Run ``code`` in the kernel without a trace in its history (``silent``: no execution
    count, no output published); raise :class:`SpareWarmError` unless it ran to the end."""
    client = manager.get_kernel(kernel_id).client()
    client.start_channels()
    try:
        await client.wait_for_ready(timeout=timeout)
        reply = await client.execute_interactive(
            code,
            silent=True,
            store_history=False,
            allow_stdin=False,
            timeout=timeout,
            output_hook=lambda message: None,
        )
    except (TimeoutError, RuntimeError) as error:
        raise SpareWarmError(f"kernel {kernel_id} did not warm up: {error}") from error
    finally:
        client.stop_channels()
    content = reply.get("content", {})
    if content.get("status") != "ok":
        raise SpareWarmError(
            f"kernel {kernel_id} failed the book's imports: "
            f"{content.get('ename', '?')}: {content.get('evalue', '')}"
        )


def retry_delay(failed_in_a_row: int) -> float:
    """Seconds before starting spares again after ``failed_in_a_row`` failed starts: 5 s,
    doubling, at most a minute (a start that keeps failing must not take the cores)."""
    return float(min(60, 5 * 2 ** max(0, failed_in_a_row - 1)))


#: How the kernel manager starts a spare: kernel name, path, and the warm-up to run on the
#: started kernel's id while the start slot is still held.
StartSpare = Callable[[str, str, Callable[[str], Awaitable[None]]], Awaitable[str]]


class SpareKernels:
    """Up to ``size`` warmed kernels of ``kernel_name`` in ``path`` (the book folder, "").

    ``start`` is the kernel manager's queued start (:meth:`BookKernelManager.start_spare`);
    ``warm`` runs the imports in a started kernel (default: :func:`run_silently` with
    :data:`BOOK_IMPORTS`).
    """

    def __init__(
        self,
        manager: Any,
        size: int,
        start: StartSpare,
        warm: Callable[[str], Awaitable[None]] | None = None,
        kernel_name: str = "python3",
        path: str = "",
        timeout: float = 60.0,
    ) -> None:
        if isinstance(size, bool) or not isinstance(size, int) or size < 0:
            raise SpareConfigError(
                f"the number of spare kernels must be a whole number ≥ 0, not {size!r}"
            )
        self.manager = manager
        self.size = size
        self.kernel_name = kernel_name
        self.path = path
        self._start = start
        code = warm_code(BOOK_IMPORTS, ENGINE_PREPARATION)
        self._warm = warm or (lambda kernel_id: run_silently(manager, kernel_id, code, timeout))
        self.ready: list[str] = []  # warmed, oldest first
        self.warming: set[str] = set()  # started, imports running
        self._starting: set[asyncio.Task[None]] = set()
        self._dead: set[asyncio.Future[Any]] = set()  # shutdowns of spares found dead
        self.failures = 0
        self._failed_in_a_row = 0
        self._retry: asyncio.TimerHandle | None = None

    def __contains__(self, kernel_id: object) -> bool:
        return kernel_id in self.warming or kernel_id in self.ready

    def held(self) -> int:
        """Kernels the spares hold now (warmed or warming): not readers' kernels."""
        return len(self.ready) + len(self.warming)

    def fill(self) -> None:
        """Start what is missing (each start queued behind the readers' own)."""
        for _ in range(self.size - len(self.ready) - len(self._starting)):
            task = asyncio.ensure_future(self._start_one())
            self._starting.add(task)
            task.add_done_callback(self._starting.discard)

    async def _start_one(self) -> None:
        try:
            kernel_id = await self._start(self.kernel_name, self.path, self._warmed)
        except Exception as error:  # logged, and tried again later: a spare is a nicety
            self.failures += 1
            self._failed_in_a_row += 1
            delay = retry_delay(self._failed_in_a_row)
            log.warning("spare kernel not started (%s); next try in %.0f s", error, delay)
            self._retry = asyncio.get_running_loop().call_later(delay, self.fill)
            return
        self._failed_in_a_row = 0
        self.ready.append(kernel_id)

    async def _warmed(self, kernel_id: str) -> None:
        self.warming.add(kernel_id)
        try:
            await self._warm(kernel_id)
        finally:
            self.warming.discard(kernel_id)

    async def take(self, kernel_name: str | None, path: str | None) -> str | None:
        """A warmed kernel for a reader's page, or None (no spare ready, or the page wants
        another kernel or folder); each one handed out is replaced."""
        if (kernel_name or self.kernel_name) != self.kernel_name or (path or "") != self.path:
            return None
        while self.ready:
            kernel_id = self.ready.pop(0)
            self.fill()
            if kernel_id not in self.manager:
                continue
            kernel = self.manager.get_kernel(kernel_id)
            if not await kernel.is_alive():
                shutdown = asyncio.ensure_future(self.manager.shutdown_kernel(kernel_id))
                self._dead.add(shutdown)  # held until done (asyncio keeps weak references)
                shutdown.add_done_callback(self._dead.discard)
                continue
            kernel.last_activity = utcnow()  # its last activity was the warm-up, maybe long ago
            return kernel_id
        return None
