"""The book server's own pages: home redirect, French error pages, the reader cap, HEAD,
the readiness probe.

Every page a visitor can get from the server is French and self-contained (the error
template in ``templates/errors/`` loads nothing from outside and never shows a message,
a path or a traceback).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tornado import web
from voila.tornado.handler import TornadoVoilaHandler  # type: ignore[import-untyped]

#: Folder of the French error templates (``error.html``, ``404.html``).
ERROR_TEMPLATES = Path(__file__).resolve().parent / "templates" / "errors"


def error_page(handler: web.RequestHandler, status: int) -> str:
    """The French error page for ``status``, rendered with the server's template loader."""
    env = handler.settings["jinja2_env"]
    base_url = handler.settings.get("base_url", "/")
    return str(env.get_template("error.html").render(status_code=status, base_url=base_url))


def _finish_error(handler: web.RequestHandler, status: int) -> None:
    handler.set_status(status)
    handler.set_header("Content-Type", "text/html; charset=utf-8")
    handler.set_header("Cache-Control", "no-store")
    if handler.request.method == "HEAD":
        handler.finish()
    else:
        handler.finish(error_page(handler, status))


class FrenchErrorsMixin(web.RequestHandler):
    """Errors rendered as the French page (Tornado's default shows English and tracebacks)."""

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        _finish_error(self, status_code)


class NotFoundHandler(FrenchErrorsMixin):
    """Every URL no route serves: the French 404 page (GET and HEAD alike)."""

    def prepare(self) -> None:
        _finish_error(self, 404)


class HomeRedirectHandler(FrenchErrorsMixin):
    """``/`` → the home page, for GET and HEAD (Tornado's RedirectHandler has no HEAD)."""

    def initialize(self, url: str) -> None:
        self._url = url

    def get(self) -> None:
        self.redirect(self._url)

    def head(self) -> None:
        self.redirect(self._url)


class BookPageHandler(FrenchErrorsMixin, TornadoVoilaHandler):  # type: ignore[misc]
    """Voilà's page renderer, with the reader cap and a kernel-free HEAD.

    A page view starts (or takes from the pool) one kernel; when the server already holds
    ``max_readers`` reader kernels, the visitor gets the French « site complet » page (503,
    ``Retry-After``) instead. ``HEAD`` answers whether the page exists without a kernel.
    """

    async def get(self, path: str | None = None) -> None:
        book = self.settings.get("akvo_book")
        if book is not None and path and path.endswith(".ipynb") and book.is_full():
            self.set_header("Retry-After", "30")
            _finish_error(self, 503)
            return
        if book is None:
            await TornadoVoilaHandler.get(self, path)
            return
        book.rendering += 1
        try:
            await TornadoVoilaHandler.get(self, path)
        finally:
            book.rendering -= 1

    def head(self, path: str | None = None) -> None:
        root = Path(self.settings["contents_manager"].root_dir).resolve()
        page = (root / (path or "")).resolve()
        exists = (
            path is not None
            and page.is_file()
            and page.suffix == ".ipynb"
            and root in page.parents
            and not any(part.startswith(".") for part in page.relative_to(root).parts)
        )
        if not exists:
            _finish_error(self, 404)
            return
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.finish()


class ReadyHandler(FrenchErrorsMixin):
    """``GET /akvo/ready``: are the pre-heated pools full? For benchmarks and health checks.

    Answers ``{"ready": bool, "warm": n, "wanted": m}`` (200 when ready, else 503) from
    counters the server already holds: it starts nothing, names no kernel, page or path, and
    costs the same for any client.
    """

    def get(self) -> None:
        state = self.settings["akvo_book"].pool_state()
        self.set_status(200 if state.ready else 503)
        self.set_header("Content-Type", "application/json")
        self.set_header("Cache-Control", "no-store")
        body = {"ready": state.ready, "warm": state.warm, "wanted": state.wanted}
        self.finish(json.dumps(body))

    def head(self) -> None:
        state = self.settings["akvo_book"].pool_state()
        self.set_status(200 if state.ready else 503)
        self.set_header("Cache-Control", "no-store")
        self.finish()
