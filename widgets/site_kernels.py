"""The book server's kernel manager: kernel starts queued a few at a time.

At start-up Voilà fills every pre-heated pool at once (dozens of kernels with ``make book``'s
pools) and a burst of readers past the pools starts one kernel each, all together. On two
cores, dozens of Python processes importing at the same time each take minutes, pass their
start-up timeout and leave pages without widgets. Queued, each kernel starts in about a
second and the first readers are served first.
"""

from __future__ import annotations

import asyncio
from typing import Any

from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from traitlets import Int


class BookKernelManager(AsyncMappingKernelManager):  # type: ignore[misc]
    """Jupyter's kernel manager with at most ``max_starting`` kernels starting at once."""

    max_starting = Int(
        3,
        help="Most kernels starting at the same time (start-up is CPU-bound: about the "
        "number of cores); the others wait their turn.",
    ).tag(config=True)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._start_slots = asyncio.Semaphore(max(1, self.max_starting))

    async def start_kernel(self, *args: Any, **kwargs: Any) -> str:  # type: ignore[override]
        async with self._start_slots:
            kernel_id: str = await super().start_kernel(*args, **kwargs)
            return kernel_id
