"""Serve the book with Voilà, safe for public readers: the launcher and its server class.

Plain ``voila book`` shows a file list at ``/``, links font-awesome from a CDN, accepts any
Host header and any websocket client, and starts a kernel for every page view without
limit. :class:`BookServer` is Voilà itself with these changes (handlers in
:mod:`akvo_site.guard` and :mod:`akvo_site.pages`):

- ``/`` redirects to ``index.ipynb``; the file list (``/voila/tree``) and the contents API
  are not served; unknown URLs get a French 404 page; ``HEAD`` is answered without a kernel;
- the ``akvo`` template: Voilà's ``lab`` template in French, offline, phone-friendly, the
  text shown at once; visitors cannot change the template or the theme (``?template=``,
  ``?theme=`` are ignored); ``/voila/render/des`` and trailing slashes reach the page;
- the kernel websocket accepts only v1 clients and checks every frame (see site_guard);
- requests whose Host header is not loopback, ``localhost`` or one of
  ``BookServer.public_hosts`` are refused (403);
- at most ``BookServer.max_readers`` reader kernels live at once; past that a reader gets the
  French « site complet » page (503) instead of an overloaded server;
- the kernel-shutdown beacon of a closed page is accepted without an XSRF token;
- kernel starts are queued, a few at a time, readers first (:mod:`akvo_site.kernels.manager`);
- the pre-heated pools follow the readers within ``BookPools.memory_mb``
  (:mod:`akvo_site.kernels.pools`), and ``BookPools.spares`` kernels with the book's
  imports run wait for the readers of a page whose pool is empty
  (:mod:`akvo_site.kernels.spares`);
- the page templates are compiled once per server, not per page view
  (:mod:`akvo_site.render`);
- the extensions' content-hashed files are served immutable (:mod:`akvo_site.assets`);
- ``/akvo/ready`` says whether the pre-heated pools are full (for benchmarks and health
  checks; counts only, see :class:`~akvo_site.pages.ReadyHandler`).

Timeouts, kernel culling and pre-heated pools come from ``voila.json`` in the working
directory, as for plain ``voila``.

Usage (from ``book/``): ``python -m akvo_site . --port=8866``; ``--template=NAME``
serves another installed Voilà template instead of ``akvo`` (the operator's choice).
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
from jupyter_server._tz import utcnow
from jupyter_server.base.handlers import FileFindHandler
from jupyter_server.utils import url_path_join
from tornado import httputil, web
from tornado.ioloop import IOLoop, PeriodicCallback
from traitlets import Bool, Int, List, Unicode
from voila.app import Voila  # type: ignore[import-untyped]
from voila.shutdown_kernel_handler import (  # type: ignore[import-untyped]
    VoilaShutdownKernelHandler,
)
from voila.tornado.contentshandler import VoilaContentsHandler  # type: ignore[import-untyped]
from voila.tornado.handler import TornadoVoilaHandler  # type: ignore[import-untyped]
from voila.tornado.kernel_websocket_handler import (  # type: ignore[import-untyped]
    VoilaKernelWebsocketHandler,
)
from voila.tornado.treehandler import TornadoVoilaTreeHandler  # type: ignore[import-untyped]

from .assets import HashedAssetsHandler
from .guard import (
    GuardedKernelWebsocketHandler,
    RefusedHostHandler,
    host_allowed,
    log_request,
    mask_log_secrets,
)
from .kernels.failures import end_failed_pages, skipping_failed_entries
from .kernels.manager import BookKernelManager
from .kernels.pools import BookPools, DemandPools
from .kernels.spares import SpareKernels
from .pages import (
    ERROR_TEMPLATES,
    BookPageHandler,
    HomeRedirectHandler,
    NotFoundHandler,
    ReadyHandler,
)
from .render import share_compiled_templates
from .tables.api import OnlineTables, table_handlers

#: The longest name of a kernel's Unix socket in the connection folder, and the longest
#: socket path Linux accepts (``sun_path``: 108 bytes with its final NUL).
IPC_SOCKET_NAME = "/kernel-00000000-0000-0000-0000-000000000000-ipc-99"
UNIX_PATH_MAX = 107

#: The notebook the site root redirects to.
HOME_PAGE = "index.ipynb"
#: Small pre-heated pools for test servers (one kernel for the home page, none elsewhere,
#: and they do not grow with the readers): tests start many servers, and
#: ``book/voila.json`` pre-heats dozens of kernels for bursts.
SMALL_POOLS = (
    '--VoilaKernelManager.kernel_pools_config={"default": {"pool_size": 0}, '
    f'"{HOME_PAGE}": {{"pool_size": 1}}}}',
    "--BookPools.memory_mb=0",
    # A test reads page after page: the home page's refill must not wait for them.
    "--BookKernelManager.pool_hold_s=0",
)
#: The readiness route (relative to the base URL): JSON, pools full or not.
READY_ROUTE = "akvo/ready"
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


class HostCheckedApplication(web.Application):
    """A Tornado application that answers only requests whose Host header is allowed."""

    def __init__(self, public_hosts: list[str], **settings: Any) -> None:
        super().__init__(**settings)
        self.public_hosts = list(public_hosts)

    def find_handler(self, request: httputil.HTTPServerRequest, **kwargs: Any) -> Any:
        if not host_allowed(request.host, self.public_hosts):
            return self.get_handler_delegate(request, RefusedHostHandler)
        return super().find_handler(request, **kwargs)


#: Voilà routes the book does not serve: the file list and the contents API.
_UNSERVED = (TornadoVoilaTreeHandler, VoilaContentsHandler)
#: Voilà's handlers replaced by the book's (same routes, same arguments).
_REPLACED = {
    VoilaShutdownKernelHandler: PageExitShutdownHandler,
    VoilaKernelWebsocketHandler: GuardedKernelWebsocketHandler,
    TornadoVoilaHandler: BookPageHandler,
}


class BookServer(Voila):
    """Voilà serving the book folder, guarded for public readers (see the module doc)."""

    name = "akvo-book"

    public_hosts = List(
        Unicode(),
        default_value=[],
        help="Host names the site answers to besides loopback and localhost, e.g. "
        "['akvo.example.org']; a name starting with a dot allows its subdomains.",
    ).tag(config=True)

    immutable_assets = Bool(
        True,
        help="Serve the front-end extensions' content-hashed files (``remoteEntry.<hash>.js``, "
        "``<id>.<hash>.js``) as immutable: a reader's next pages take them from the cache "
        "without asking the server again (Voilà serves them ``no-cache``).",
    ).tag(config=True)

    max_readers = Int(
        60,
        help="Most reader kernels alive at once (pre-heated pool kernels not counted); "
        "past it a new page view gets the French « site complet » page (HTTP 503).",
    ).tag(config=True)

    #: The pools that follow the readers (None when ``BookPools.memory_mb`` is 0).
    demand_pools: DemandPools | None = None

    def initialize(self, argv: Any = None) -> None:
        super().initialize(argv)
        share_compiled_templates()  # a page view compiles no template (site_render)
        end_failed_pages()  # a page whose kernel died ends with a French notice (site_failures)
        # Visitors never choose the template or the theme (?template=, ?theme=).
        self.voila_configuration.allow_template_override = "NO"
        self.voila_configuration.allow_theme_override = "NO"
        # Kernel starts queued (site_kernels), unless configured otherwise.
        if "multi_kernel_manager_class" not in self.config.get("VoilaConfiguration", {}):
            self.voila_configuration.multi_kernel_manager_class = BookKernelManager

    def init_settings(self) -> dict[str, Any]:
        settings: dict[str, Any] = super().init_settings()
        # French, offline error pages first, for Voilà's and jupyter_server's handlers.
        for key in ("voila_jinja2_env", "jinja2_env"):
            env: jinja2.Environment = settings[key]
            env.loader = jinja2.ChoiceLoader(
                [jinja2.FileSystemLoader(str(ERROR_TEMPLATES)), env.loader]  # type: ignore[list-item]
            )
        settings["default_handler_class"] = NotFoundHandler
        settings["log_function"] = log_request  # no query, no token in the access log
        mask_log_secrets()  # nor in any other line (Voilà's 404 quotes the file asked for)
        settings["akvo_book"] = self
        self._refresh_handed_out_kernels()
        self._follow_demand()
        return settings

    def _follow_demand(self) -> None:
        """Pools that grow with their readers, within the memory budget (site_pools)."""
        manager = self.kernel_manager
        settings = BookPools(config=self.config)
        if settings.memory_mb <= 0 or not hasattr(manager, "fill_if_needed"):
            return
        budget, spares = settings.split_budget()
        self.demand_pools = DemandPools(manager, budget, settings.most, settings.idle_s)
        if spares and hasattr(manager, "start_spare"):
            manager.spare_kernels = SpareKernels(manager, spares, manager.start_spare)
            IOLoop.current().add_callback(manager.spare_kernels.fill)
        self._pool_timer = PeriodicCallback(self.demand_pools.shrink_idle, settings.check_s * 1000)
        self._pool_timer.start()

    def _refresh_handed_out_kernels(self) -> None:
        """A pre-heated kernel handed to a reader counts as just active, and a pool's failed
        entries are passed over (:func:`~akvo_site.kernels.failures.skipping_failed_entries`).

        Its last activity is its pre-heating, maybe minutes ago: without this, the culler
        could shut it down before the reader's browser connects to it.
        """
        manager = self.kernel_manager
        take = getattr(manager, "get_rendered_notebook", None)
        if take is None:
            return
        handed_out = skipping_failed_entries(manager, take)  # (site_failures)

        async def get_rendered_notebook(*args: Any, **kwargs: Any) -> Any:
            rendered = await handed_out(*args, **kwargs)
            kernel_id = rendered[2]
            if kernel_id in manager:
                manager.get_kernel(kernel_id).last_activity = utcnow()
            return rendered

        manager.get_rendered_notebook = get_rendered_notebook

    def init_handlers(self) -> list[Any]:
        handlers: list[Any] = []
        for route in super().init_handlers():
            handler = route[1]
            if handler in _UNSERVED:
                continue
            if handler is FileFindHandler and "labextensions" in route[0] and self.immutable_assets:
                handler = HashedAssetsHandler
            handlers.append((route[0], _REPLACED.get(handler, handler), *route[2:]))
        if not self.notebook_path:
            home = url_path_join(self.base_url, "voila/render", HOME_PAGE)
            handlers.insert(0, (self.server_url, HomeRedirectHandler, {"url": home}))
        handlers.insert(0, (url_path_join(self.base_url, READY_ROUTE), ReadyHandler))
        tables = OnlineTables(config=self.config)  # the online tables (issue 23)
        handlers[:0] = table_handlers(tables, self.base_url, Path.cwd())
        return handlers

    def start(self) -> None:
        """Voilà's ``start`` with a host-checked application (the rest is unchanged)."""
        self.connection_dir = tempfile.mkdtemp(prefix="voila_", dir=self.connection_dir_root)
        self.log.info("Storing connection files in %s.", self.connection_dir)
        self._check_socket_paths()
        settings = self.init_settings()
        # Voilà updates the settings after the application is built, too late for the
        # settings read at construction (``compress_response``: gzip).
        self.app = HostCheckedApplication(
            self.public_hosts, **{**settings, **self.tornado_settings}
        )
        self.app.add_handlers(".*$", self.init_handlers())
        self.listen()

    def _check_socket_paths(self) -> None:
        """Kernels over Unix sockets (``KernelManager.transport = "ipc"``, book/voila.json:
        no loopback port picked ahead of a kernel's start that another process could take
        first) need socket paths the system accepts; a clear error at start, not kernels
        dying one by one."""
        transport = self.config.get("KernelManager", {}).get("transport", "tcp")
        longest = len(self.connection_dir) + len(IPC_SOCKET_NAME)
        if transport == "ipc" and longest > UNIX_PATH_MAX:
            raise SystemExit(
                f"Kernel sockets in {self.connection_dir} would be {longest} bytes long, over "
                f"the system's {UNIX_PATH_MAX}: give a shorter --Voila.connection_dir_root"
            )

    #: Page requests being rendered right now (their kernels may not be listed yet).
    rendering = 0

    def render_begins(self) -> None:
        self.rendering += 1
        self._tell_kernel_manager()

    def render_ends(self) -> None:
        self.rendering -= 1
        self._tell_kernel_manager()

    def _tell_kernel_manager(self) -> None:
        """Pool and spare starts wait for the readers' renders (site_kernels)."""
        told = getattr(self.kernel_manager, "pages_rendering", None)
        if told is not None:
            told(self.rendering)

    def reader_kernels(self) -> int:
        """Reader kernels alive or starting, at least as many as the pages being rendered.

        All kernels (started or starting) minus the pre-heated pools and the spares; during
        a burst many requests are in flight before their kernels are registered, so the
        number of renders in progress is a lower bound too.
        """
        manager = self.kernel_manager
        kernels = set(manager.list_kernel_ids()) | set(getattr(manager, "_pending_kernels", {}))
        pooled = sum(len(pool) for pool in getattr(manager, "_pools", {}).values())
        spares = getattr(manager, "spare_kernels", None)
        spare = spares.held() if spares is not None else 0
        return max(len(kernels) - pooled - spare, self.rendering, 0)

    def is_full(self) -> bool:
        """True when one more reader would pass ``max_readers``."""
        return self.reader_kernels() >= self.max_readers

    def pool_state(self) -> PoolState:
        """How many pre-heated kernels are wanted and how many have finished their page.

        A pooled kernel is warm once it has started and its page has run to the end (what a
        reader then gets at once); one still starting or running its cells is not. The
        spares count too, warm once their imports have run.
        """
        manager = self.kernel_manager
        pools: dict[str, list[Any]] = getattr(manager, "_pools", {})
        configured: dict[str, dict[str, Any]] = getattr(manager, "kernel_pools_config", {})
        default = configured.get("default", {}).get("pool_size", 0)
        wanted = sum(configured.get(name, {}).get("pool_size", default) for name in pools)
        warm = sum(1 for pool in pools.values() for item in pool if _warm(item))
        spares = getattr(manager, "spare_kernels", None)
        if spares is not None:
            wanted += spares.size
            warm += min(len(spares.ready), spares.size)
        return PoolState(wanted=wanted, warm=warm)


@dataclass(frozen=True)
class PoolState:
    """Pre-heated kernels: how many the pools hold when full, how many are ready now."""

    wanted: int
    warm: int

    @property
    def ready(self) -> bool:
        return self.warm >= self.wanted


def _warm(item: Any) -> bool:
    """True if a pool entry (Voilà's start-and-render task) has finished rendering."""
    if not item.done() or item.cancelled() or item.exception() is not None:
        return False
    render = item.result().get("task")
    return render is not None and bool(render.done())


def free_port() -> int:
    """A loopback port nobody listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass(frozen=True)
class RunningServer:
    """A book server started by :func:`serve_in_background`: its base URL and process id."""

    url: str
    pid: int


def server_command(
    port: int, *options: str, program: tuple[str, ...] = ("-m", "akvo_site")
) -> list[str]:
    """The command that serves the book of the current folder on ``port`` of the loopback:
    no browser, and ``--Voila.port_retries=0`` makes a port taken in the meantime an error
    instead of a silent move to another port; ``options``: extra command-line options;
    ``program``: what Python runs (a benchmark's wrapper of this module's ``main``)."""
    return [
        sys.executable,
        *program,
        ".",
        "--no-browser",
        "--Voila.ip=127.0.0.1",
        f"--port={port}",
        "--Voila.port_retries=0",
        *options,
    ]


@contextmanager
def serve_in_background(
    book: Path, log: Path, *options: str, timeout: float = 60.0
) -> Iterator[RunningServer]:
    """Serve ``book`` on a free loopback port while the block runs.

    For tests and benchmarks; ``options`` are extra command-line options (e.g.
    ``--BookServer.max_readers=2``, see :func:`server_command`); SIGTERM stops Voilà
    cleanly.
    """
    if os.environ.get("AKVO_NO_SERVERS") == "1":
        raise RuntimeError(
            "AKVO_NO_SERVERS=1 (make check): this test starts a book server; "
            "mark it @pytest.mark.server (tests/conftest.py)"
        )
    port = free_port()
    command = server_command(port, *options)
    url = f"http://127.0.0.1:{port}"
    with log.open("wb") as output:
        process = subprocess.Popen(command, cwd=book, stdout=output, stderr=subprocess.STDOUT)
    try:
        wait_until_serving(f"{url}/voila/render/{HOME_PAGE}", process, log, timeout)
        yield RunningServer(url, process.pid)
    finally:
        stop_server(process)


def stop_server(process: subprocess.Popen[bytes], grace: float = 15.0) -> None:
    """SIGTERM (Voilà shuts its kernels down), then SIGKILL after ``grace`` seconds."""
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@contextmanager
def background_server(book: Path, log: Path, *options: str, timeout: float = 60.0) -> Iterator[str]:
    """:func:`serve_in_background`, yielding only the base URL."""
    with serve_in_background(book, log, *options, timeout=timeout) as server:
        yield server.url


def wait_until_serving(
    url: str, process: subprocess.Popen[bytes], log: Path, timeout: float, name: str = "Voilà"
) -> None:
    """Until ``url`` answers (HEAD: no kernel started); ``name``'s log tail if it exits."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{name} exited early:\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(urllib.request.Request(url, method="HEAD"), timeout=5):
                return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.2)
    raise RuntimeError(f"{name} did not answer at {url} within {timeout} s")


def wait_for_pools(url: str, timeout: float = 600.0, poll: float = 1.0) -> dict[str, Any]:
    """Wait until the server at ``url`` (its base URL) says its pools are full.

    Returns the last ``/akvo/ready`` answer; raises ``TimeoutError`` after ``timeout`` s.
    Benchmarks call it before timing a pre-heated page.
    """
    deadline = time.monotonic() + timeout
    state: dict[str, Any] = {}
    while True:
        try:
            with urllib.request.urlopen(f"{url}/{READY_ROUTE}", timeout=10) as answer:
                state = json.loads(answer.read())
        except urllib.error.HTTPError as answer:  # 503: still filling
            state = json.loads(answer.read() or b"{}")
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            state = {}
        if state.get("ready"):
            return state
        if time.monotonic() > deadline:
            raise TimeoutError(f"pools not full after {timeout:.0f} s: {state}")
        time.sleep(poll)


def main(argv: list[str] | None = None) -> None:
    """Run the book server with the ``akvo`` template, or the one a ``--template=NAME``
    option names (the operator's choice; visitors cannot change it)."""
    _add_template_root()
    args = sys.argv[1:] if argv is None else argv
    chosen = any(a.startswith(("--template=", "--VoilaConfiguration.template=")) for a in args)
    BookServer.launch_instance(argv=args if chosen else [f"--template={TEMPLATE}", *args])


if __name__ == "__main__":
    main()
