"""A page whose kernel fails before the page has run: the reader is told, the page ends.

A kernel can die as it starts: in a burst of a hundred kernel starts, another process once
took one of its loopback ports between jupyter_client's pick and the kernel's bind
(« Address already in use »). Voilà then

- on a page view with a kernel of its own: logs the error and keeps the response open,
  sending a heartbeat every few seconds for as long as the reader waits, on placeholders
  that never draw (measured: a reader still waiting after 150 s);
- from a pre-heated pool: hands the failed entry to the next reader, whose page is cut off.

Here the first ends with a French notice and a link that reloads the page, and the dead
kernel is shut down; the second skips failed entries (their kernels shut down) for the next
one, or renders the page afresh when the pool has nothing else.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from voila import (  # type: ignore[import-untyped]
    handler,
    notebook_renderer,
    voila_kernel_manager,
)

#: Shown where the page's cells would have been (inside ``#rendered_cells``, styled by
#: akvo.css); an empty ``href`` loads the same address again.
FAILED_PAGE = (
    '<div class="akvo-page-failed" role="alert">'
    "<p>Cette page n’a pas pu démarrer sur le serveur.</p>"
    "<p>Rechargez-la\u00a0: le plus souvent, un nouvel essai suffit.</p>"
    '<p><a class="akvo-reload" href="">Recharger la page</a></p>'
    "</div>\n"
)


class BookNotebookRenderer(notebook_renderer.NotebookRenderer):  # type: ignore[misc]
    """Voilà's page renderer (page views and pools alike), ended with :data:`FAILED_PAGE`
    when the page cannot run (its kernel died or never answered); ``failed`` says so."""

    failed = False

    def generate_content_generator(
        self, kernel_id: str | None = None, kernel_future: Any = None
    ) -> AsyncIterator[tuple[str, Any]]:
        snippets = super().generate_content_generator(kernel_id, kernel_future)
        return self._ended_on_failure(snippets, kernel_id)

    async def _ended_on_failure(
        self, snippets: AsyncIterator[tuple[str, Any]], kernel_id: str | None
    ) -> AsyncIterator[tuple[str, Any]]:
        try:
            async for snippet in snippets:
                yield snippet
        except Exception:
            self.failed = True
            self.log.exception(
                "The page %s could not run in kernel %s", self.notebook_path, kernel_id
            )
            yield FAILED_PAGE, None
            # A page view's kernel goes now; a pool's, when a reader would take it.
            manager = getattr(self.request_handler, "kernel_manager", None)
            if manager is not None:
                await _shut_down(manager, kernel_id, self.log)


async def _shut_down(manager: Any, kernel_id: str | None, log: Any) -> None:
    """Shut ``kernel_id`` down if the manager still lists it (a failure here is logged)."""
    if kernel_id is None or kernel_id not in manager:
        return
    try:
        await manager.shutdown_kernel(kernel_id, now=True)
    except Exception:  # already gone, or its process would not stop: the culler's turn
        log.warning("Could not shut down the failed kernel %s", kernel_id, exc_info=True)


def failed(entry: Any) -> bool:
    """True if a pool entry (Voilà's start-and-render task) has failed: its kernel did not
    start, or the page's render in it raised."""
    if not entry.done():
        return False
    if entry.cancelled() or entry.exception() is not None:
        return True
    if getattr(entry.result().get("renderer"), "failed", False):
        return True
    render = entry.result().get("task")
    return bool(
        render is not None and render.done() and not render.cancelled() and render.exception()
    )


RenderedPage = tuple[Any, list[str], str]


def skipping_failed_entries(
    manager: Any, take: Callable[..., Awaitable[RenderedPage]]
) -> Callable[..., Awaitable[RenderedPage]]:
    """Voilà's ``get_rendered_notebook`` (``take``) that passes over the pool's failed
    entries, shutting their kernels down, and renders the page afresh, as a pool would,
    when the failed ones were all the pool had."""

    async def get_rendered_notebook(notebook_name: str, *args: Any, **kwargs: Any) -> RenderedPage:
        pool = manager._pools.setdefault(notebook_name, [])
        while pool and failed(pool[0]):
            entry = pool.pop(0)
            kernel_id = (
                None if entry.cancelled() or entry.exception() else entry.result()["kernel_id"]
            )
            manager.log.warning("Skipping a failed pre-heated kernel for %s", notebook_name)
            await _shut_down(manager, kernel_id, manager.log)
        if not pool:  # the handler chose the pool path: give it an entry to take, started
            # at a reader's priority (no VOILA_PREHEAT), a spare kernel if one is ready
            path = os.path.dirname(notebook_name)
            pool.append(asyncio.ensure_future(manager._initialize(notebook_name, None, path=path)))
        return await take(notebook_name, *args, **kwargs)

    return get_rendered_notebook


def end_failed_pages() -> None:
    """Make Voilà render pages (page views and pools) with :class:`BookNotebookRenderer`."""
    handler.NotebookRenderer = BookNotebookRenderer
    voila_kernel_manager.NotebookRenderer = BookNotebookRenderer
