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


#: Query arguments Voilà would read to change the page's look; the book ignores them (with
#: ``allow_*_override`` off Voilà ignores their value, but a page asked with them still
#: skips the pre-heated pool and starts a fresh kernel).
LOOK_ARGUMENTS = ("template", "theme")


class BookPageHandler(FrenchErrorsMixin, TornadoVoilaHandler):  # type: ignore[misc]
    """Voilà's page renderer, with the reader cap, a kernel-free HEAD and clean addresses.

    A page view starts (or takes from the pool) one kernel; when the server already holds
    ``max_readers`` reader kernels, the visitor gets the French « site complet » page (503,
    ``Retry-After``) instead. ``HEAD`` answers whether the page exists without a kernel.
    ``?template=`` and ``?theme=`` are dropped (:data:`LOOK_ARGUMENTS`). A page asked without
    ``.ipynb`` or with a trailing slash (``/voila/render/des``, ``…/des.ipynb/``) is
    redirected to its address, or gets the French 404 page if there is no such page.
    """

    async def get(self, path: str | None = None) -> None:
        for name in LOOK_ARGUMENTS:
            self.request.arguments.pop(name, None)
            self.request.query_arguments.pop(name, None)
        if path is not None and (canonical := self._canonical(path)) != path:
            if canonical is None:
                _finish_error(self, 404)
            else:
                base = self.settings.get("base_url", "/")
                self.redirect(f"{base}voila/render/{canonical}", permanent=True)
            return
        book = self.settings.get("akvo_book")
        if book is not None and path and path.endswith(".ipynb") and book.is_full():
            self.set_header("Retry-After", "30")
            _finish_error(self, 503)
            return
        if book is None:
            await TornadoVoilaHandler.get(self, path)
            return
        book.render_begins()
        try:
            await TornadoVoilaHandler.get(self, path)
        finally:
            book.render_ends()

    def _canonical(self, path: str) -> str | None:
        """The page's own address for ``path`` (``des``, ``des/``, ``des.ipynb/`` →
        ``des.ipynb``), ``path`` itself if it is one, None if no page answers to it."""
        if path.endswith(".ipynb"):
            return path
        stem = path.rstrip("/")
        page = stem if stem.endswith(".ipynb") else f"{stem}.ipynb"
        return page if stem and self._is_page(page) else None

    def _is_page(self, path: str) -> bool:
        """True if ``path`` names a notebook of the book (no hidden part, not outside it)."""
        root = Path(self.settings["contents_manager"].root_dir).resolve()
        page = (root / path).resolve()
        return (
            page.is_file()
            and page.suffix == ".ipynb"
            and root in page.parents
            and not any(part.startswith(".") for part in page.relative_to(root).parts)
        )

    def head(self, path: str | None = None) -> None:
        if path is None or not self._is_page(path):
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
