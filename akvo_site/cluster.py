"""Several book servers behind HAProxy on one machine (issue 20.4, issue 23.6).

The proxy's configuration is ``deploy/haproxy.cfg`` in the repository; this module fills in
its servers and starts everything::

    python -m akvo_site.cluster --servers 2 --port 8080 [-- VOILA OPTIONS...]

serves the book on ``127.0.0.1:8080`` through HAProxy, in front of two book servers on
the next free ports. Server ``i`` is node ``n<i>-``: its online tables get ids starting with
it (``OnlineTables.node``) and live in their own SQLite file
(``../.akvo-tables/tables-n<i>.sqlite`` from ``book/``), so the proxy routes every request
of a table to the server that holds it. A reader sticks to one server by a cookie (the
page and its kernel's websocket must meet the same kernel). Ctrl+C stops the proxy and the
servers. Tests and benchmarks use :func:`cluster_in_background`.
"""

from __future__ import annotations

import argparse
import shutil
import signal
import socket as sock
import subprocess
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

from .app import (
    HOME_PAGE,
    RunningServer,
    free_port,
    serve_in_background,
    server_command,
    stop_server,
    wait_until_serving,
)

DEPLOY = Path(__file__).resolve().parents[1] / "deploy"
TEMPLATE = DEPLOY / "haproxy.cfg"
#: The cookie naming a reader's server (``deploy/haproxy.cfg``).
COOKIE = "AKVO_SERVER"
#: The response header naming the server that answered (for tests and debugging).
SERVER_HEADER = "X-Akvo-Server"
#: Where the table service's routes start (``akvo_site.tables.api``).
TABLE_PATHS = ("/akvo/api/tables/", "/akvo/table/")


def node(index: int) -> str:
    """Server ``index``'s node: the prefix of its table ids and its name in the proxy.

    A letter, digits and a dash: ``n1-`` is never a prefix of ``n10-``'s ids, and no route
    of the table API (``options``) starts with it.
    """
    return f"n{index}-"


def server_name(index: int) -> str:
    return f"n{index}"


def server_options(index: int, tables_dir: str = "../.akvo-tables") -> list[str]:
    """Book-server options of server ``index``: its node, its own tables file, and client
    addresses taken from the proxy's ``X-Forwarded-For`` (for the tables' throttle)."""
    return [
        f"--OnlineTables.node={node(index)}",
        f"--OnlineTables.database={tables_dir}/tables-{server_name(index)}.sqlite",
        "--OnlineTables.trust_forwarded=True",
    ]


#: A log line per request for tests: which server answered, after how many connection retries
#: (``+`` marks a redispatch to another server) and how the session ended; the path without
#: its query (a seat token may be in it).
REQUEST_LOG = 'log-format "%ci %b/%s %ST %HM %HP retries=%rc end=%ts times=%Tw/%Tc/%Tr"'


def haproxy_config(
    bind: str,
    ports: Sequence[int],
    socket: Path,
    host: str = "127.0.0.1",
    log_requests: bool = False,
) -> str:
    """``deploy/haproxy.cfg`` for book servers on ``host:ports`` (server ``i`` on
    ``ports[i-1]``), readers reaching the proxy at ``bind`` (``address:port``), the admin
    socket at ``socket``; ``log_requests`` (tests) logs every request as :data:`REQUEST_LOG`."""
    readers, rules, backends = [], [], []
    for index, port in enumerate(ports, start=1):
        name = server_name(index)
        readers.append(f"    server {name} {host}:{port} cookie {name}")
        paths = " ".join(f"{path}{node(index)}" for path in TABLE_PATHS)
        rules.append(f"    use_backend tables_{name} if {{ path_beg {paths} }}")
        backends += [
            "",
            f"backend tables_{name}",
            f"    http-response set-header {SERVER_HEADER} %[srv_name]",
            f"    server {name} {host}:{port} track readers/{name}",
        ]
    fields = {
        "@BIND@": bind,
        "@SOCKET@": str(socket),
        "@ERRORS@": str(DEPLOY / "errors"),
        "@READERS@": "\n".join(readers),
        "@TABLE_RULES@": "\n".join(rules),
        "@TABLE_BACKENDS@": "\n".join(backends),
    }
    text = TEMPLATE.read_text(encoding="utf-8")
    for field, value in fields.items():
        text = text.replace(field, value)
    if log_requests:  # requests are logged at the level info
        text = text.replace("daemon notice\n", "daemon info\n")
        text = text.replace(
            "    option dontlognull\n", f"    option dontlognull\n    {REQUEST_LOG}\n"
        )
    return text


def haproxy_path() -> str | None:
    """Debian's ``haproxy`` (``apt-get install haproxy``), or None if it is not installed."""
    return shutil.which("haproxy") or next(
        (p for p in ("/usr/sbin/haproxy",) if Path(p).is_file()), None
    )


@dataclass(frozen=True)
class Cluster:
    """The proxy's URL and the book servers behind it (server ``i`` is ``servers[i-1]``)."""

    url: str
    servers: list[RunningServer]
    config: Path
    socket: Path

    def admin(self, command: str) -> str:
        """HAProxy's answer to ``command`` on its admin socket (e.g. ``show stat``)."""
        with sock.socket(sock.AF_UNIX, sock.SOCK_STREAM) as client:
            client.settimeout(5)
            client.connect(str(self.socket))
            client.sendall(command.encode("ascii") + b"\n")
            answer = b"".join(iter(lambda: client.recv(65536), b""))
        return answer.decode("utf-8", "replace")


@contextmanager
def proxy_in_background(config: Path, log: Path, url: str, timeout: float = 30.0) -> Iterator[str]:
    """Run HAProxy on ``config`` (checked first) until the block ends; yields ``url``."""
    haproxy = haproxy_path()
    if haproxy is None:
        raise RuntimeError("HAProxy is not installed: apt-get install haproxy")
    subprocess.run([haproxy, "-c", "-q", "-f", str(config)], check=True)
    with log.open("wb") as output:
        process = subprocess.Popen(
            [haproxy, "-db", "-f", str(config)], stdout=output, stderr=subprocess.STDOUT
        )
    try:
        wait_until_serving(f"{url}/voila/render/{HOME_PAGE}", process, log, timeout, "HAProxy")
        yield url
    finally:
        stop_server(process, grace=10.0)  # SIGTERM: HAProxy's hard stop


@contextmanager
def cluster_in_background(
    book: Path, logs: Path, count: int, *options: str, timeout: float = 120.0
) -> Iterator[Cluster]:
    """``count`` book servers (:func:`~akvo_site.app.serve_in_background`, each with
    :func:`server_options` and ``options``) behind HAProxy on a free loopback port, with
    their tables in ``logs``; logs in ``logs`` too. Stopped when the block ends."""
    logs.mkdir(parents=True, exist_ok=True)
    with ExitStack() as stack:
        servers = []
        for index in range(1, count + 1):
            log = logs / f"voila-{server_name(index)}.log"
            arguments = (*server_options(index, str(logs)), *options)
            servers.append(_start(stack, book, log, arguments, timeout))
        port = free_port()
        config = logs / "haproxy.cfg"
        ports = [int(server.url.rsplit(":", 1)[1]) for server in servers]
        socket = logs / "haproxy.sock"
        text = haproxy_config(f"127.0.0.1:{port}", ports, socket, log_requests=True)
        config.write_text(text, encoding="utf-8")
        url = f"http://127.0.0.1:{port}"
        stack.enter_context(proxy_in_background(config, logs / "haproxy.log", url))
        yield Cluster(url, servers, config, socket)


def _start(
    stack: ExitStack, book: Path, log: Path, options: tuple[str, ...], timeout: float
) -> RunningServer:
    """One more server on a free port: tried again if another process (a kernel of the
    servers already started binds random ports) took the port in the meantime."""
    for attempt in range(3):
        try:
            return stack.enter_context(serve_in_background(book, log, *options, timeout=timeout))
        except RuntimeError as error:
            if "port" not in str(error) or attempt == 2:
                raise
    raise AssertionError("unreachable")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m akvo_site.cluster",
        description="Serve the book from several servers behind HAProxy (run from book/).",
    )
    parser.add_argument("--servers", type=int, default=2, help="book servers (default 2)")
    parser.add_argument("--bind", default="127.0.0.1:8080", help="the proxy's address:port")
    parser.add_argument("--first-port", type=int, default=8871, help="server 1's port")
    parser.add_argument("--tables", default="../.akvo-tables", help="the tables' folder")
    parser.add_argument("--config", default="../.akvo-deploy/haproxy.cfg")
    parser.add_argument("--socket", default="../.akvo-deploy/haproxy.sock", help="admin socket")
    parser.add_argument("voila", nargs="*", help="more book-server options, after --")
    args = parser.parse_args(argv)
    if args.servers < 1:
        parser.error("--servers: at least 1")
    ports = [args.first_port + i for i in range(args.servers)]
    config = Path(args.config)
    config.parent.mkdir(parents=True, exist_ok=True)
    Path(args.tables).mkdir(parents=True, exist_ok=True)
    config.write_text(haproxy_config(args.bind, ports, Path(args.socket)), encoding="utf-8")
    print(f"HAProxy configuration: {config.resolve()}", flush=True)
    processes = []
    try:
        for index, port in enumerate(ports, start=1):
            command = server_command(port, *server_options(index, args.tables), *args.voila)
            processes.append(subprocess.Popen(command))
        haproxy = haproxy_path()
        if haproxy is None:
            parser.error("HAProxy is not installed: apt-get install haproxy")
        print(f"Serving the book on http://{args.bind}/ (Ctrl+C to stop)", flush=True)
        subprocess.run([haproxy, "-db", "-f", str(config)], check=False)
    except KeyboardInterrupt:
        pass
    finally:
        for process in processes:
            process.send_signal(signal.SIGTERM)
        for process in processes:
            process.wait()


if __name__ == "__main__":
    main()
