"""Serve the book with Voilà: the site root opens the home page, and nothing comes from a CDN.

Plain ``voila book`` shows a file list at ``/`` and links font-awesome from a CDN. This
launcher is Voilà itself with two changes: a redirect from ``/`` to ``index.ipynb``
(prepended to Voilà's own routes, so it wins over the tree page) and the ``akvo`` template,
which is Voilà's ``lab`` template minus the CDN stylesheets. Everything else (timeouts,
kernel culling, preheating) comes from ``voila.json`` in the working directory, as for
plain ``voila``.

Usage (from ``book/``): ``python -m akvo_widgets.site . --port=8866``
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from jupyter_server.utils import url_path_join
from tornado.web import RedirectHandler
from voila.app import Voila  # type: ignore[import-untyped]
from voila.shutdown_kernel_handler import (  # type: ignore[import-untyped]
    VoilaShutdownKernelHandler,
)

#: The notebook the site root redirects to.
HOME_PAGE = "index.ipynb"
TEMPLATE = "akvo"
_SHARE = Path(__file__).resolve().parent / "templates"


def _add_template_root() -> None:
    """Let Voilà find the ``akvo`` template (templates are searched on ``JUPYTER_PATH``)."""
    paths = [p for p in os.environ.get("JUPYTER_PATH", "").split(os.pathsep) if p]
    if str(_SHARE) not in paths:
        os.environ["JUPYTER_PATH"] = os.pathsep.join([str(_SHARE), *paths])


class PageExitShutdownHandler(VoilaShutdownKernelHandler):
    """Voilà's "shut my kernel down" beacon, accepted without an XSRF token.

    The page sends it with ``navigator.sendBeacon`` on unload, which carries no ``_xsrf``
    argument, so Voilà 0.5.13 answers 403 and the kernel lives on until culled
    (voila-dashboards/voila#1458). The route only takes a kernel id (a random UUID) and only
    shuts that kernel down, so skipping the token check is safe here.
    """

    def check_xsrf_cookie(self) -> None:
        return None


class BookServer(Voila):
    """Voilà serving a folder, with ``/`` redirected to the home page."""

    name = "akvo-book"

    def init_handlers(self) -> list[Any]:
        handlers: list[Any] = [
            (route[0], PageExitShutdownHandler, *route[2:])
            if route[1] is VoilaShutdownKernelHandler
            else route
            for route in super().init_handlers()
        ]
        if not self.notebook_path:
            home = url_path_join(self.base_url, "voila/render", HOME_PAGE)
            handlers.insert(0, (self.server_url, RedirectHandler, {"url": home}))
        return handlers


def free_port() -> int:
    """A loopback port nobody listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def background_server(book: Path, log: Path, *, timeout: float = 60.0) -> Iterator[str]:
    """Serve ``book`` on a free loopback port while the block runs; yield its base URL.

    For tests and benchmarks: ``--Voila.port_retries=0`` turns a port taken in the meantime
    into an error instead of a silent move to another port; SIGTERM stops Voilà cleanly.
    """
    port = free_port()
    command = [
        sys.executable,
        "-m",
        "akvo_widgets.site",
        ".",
        "--no-browser",
        "--Voila.ip=127.0.0.1",
        f"--port={port}",
        "--Voila.port_retries=0",
    ]
    url = f"http://127.0.0.1:{port}"
    with log.open("wb") as output:
        process = subprocess.Popen(command, cwd=book, stdout=output, stderr=subprocess.STDOUT)
    try:
        _wait_until_serving(f"{url}/voila/render/{HOME_PAGE}", process, log, timeout)
        yield url
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _wait_until_serving(
    url: str, process: subprocess.Popen[bytes], log: Path, timeout: float
) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"Voilà exited early:\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(url, timeout=5):
                return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.2)
    raise RuntimeError(f"Voilà did not answer at {url} within {timeout} s")


def main(argv: list[str] | None = None) -> None:
    """Run the book server; options after ours (e.g. another ``--template``) win."""
    _add_template_root()
    args = sys.argv[1:] if argv is None else argv
    BookServer.launch_instance(argv=[f"--template={TEMPLATE}", *args])


if __name__ == "__main__":
    main()
