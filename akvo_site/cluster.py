"""Several book servers behind HAProxy on one machine (issue 20.4, issue 23.6).

The proxy's configuration is ``deploy/haproxy.cfg`` in the repository; this module fills in
its servers and starts everything::

    python -m akvo_site.cluster --servers 2 --bind 127.0.0.1:8080 [-- VOILA OPTIONS...]

serves the book on ``127.0.0.1:8080`` through HAProxy, in front of two book servers on
ports 8871, 8872… Server ``i`` is node ``n<i>-``: its online tables get ids starting with
it (``OnlineTables.node``) and live in their own SQLite file
(``../.akvo-tables/tables-n<i>.sqlite`` from ``book/``), so the proxy routes every request
of a table to the server that holds it. With ``--database postgresql://…`` every server
keeps its tables in that one database and any server serves any table; ``--postgres DIR``
starts a private PostgreSQL in ``DIR`` (Debian's ``postgresql``) for them, on a Unix socket
only. A reader sticks to one server by a cookie (the page and its kernel's websocket must
meet the same kernel). Every path is made absolute (HAProxy 2.6 refuses a relative admin
socket); the command waits for every part and exits non-zero if one fails to start or
stops; Ctrl+C stops them all. Tests and benchmarks use :func:`cluster_in_background`.
"""

from __future__ import annotations

import argparse
import glob
import os
import shutil
import socket as sock
import subprocess
import sys
import time
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


def server_options(
    index: int, tables_dir: str = "../.akvo-tables", database: str | None = None
) -> list[str]:
    """Book-server options of server ``index``: its node, its own tables file (or the
    shared ``database``), and client addresses taken from the proxy's ``X-Forwarded-For``
    (for the tables' throttle)."""
    tables = database or f"{tables_dir}/tables-{server_name(index)}.sqlite"
    return [
        f"--OnlineTables.node={node(index)}",
        f"--OnlineTables.database={tables}",
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
    shared_tables: bool = False,
) -> str:
    """``deploy/haproxy.cfg`` for book servers on ``host:ports`` (server ``i`` on
    ``ports[i-1]``), readers reaching the proxy at ``bind`` (``address:port``), the admin
    socket at ``socket`` (made absolute); ``log_requests`` (tests) logs every request as
    :data:`REQUEST_LOG`; ``shared_tables``: one database for all, no routing by table id."""
    readers, rules, backends, api = [], [], [], []
    for index, port in enumerate(ports, start=1):
        name = server_name(index)
        readers.append(f"    server {name} {host}:{port} cookie {name}")
        api.append(f"    server {name} {host}:{port} cookie {name} track readers/{name}")
        if shared_tables:
            continue
        paths = " ".join(f"{path}{node(index)}" for path in TABLE_PATHS)
        rules.append(f"    use_backend tables_{name} if {{ path_beg {paths} }}")
        backends += [
            "",
            f"backend tables_{name}",
            "    errorfiles json",
            "    option http-no-delay",  # event streams: each push at once (haproxy.cfg, api)
            f"    http-response set-header {SERVER_HEADER} %[srv_name]",
            f"    server {name} {host}:{port} track readers/{name}",
        ]
    fields = {
        "@BIND@": bind,
        "@SOCKET@": str(Path(socket).resolve()),
        "@ERRORS@": str(DEPLOY / "errors"),
        "@READERS@": "\n".join(readers),
        "@API_SERVERS@": "\n".join(api),
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


def main(argv: list[str] | None = None) -> int:
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
    parser.add_argument(
        "--database", help="one PostgreSQL database for every server's tables (postgresql://…)"
    )
    parser.add_argument(
        "--postgres", metavar="DIR", help="start a private PostgreSQL in DIR for the tables"
    )
    parser.add_argument("--timeout", type=float, default=180.0, help="seconds to start a part")
    parser.add_argument("voila", nargs="*", help="more book-server options, after --")
    args = parser.parse_args(argv)
    if args.servers < 1:
        parser.error("--servers: at least 1")
    if args.database and args.postgres:
        parser.error("--database or --postgres, not both")
    haproxy = haproxy_path()
    if haproxy is None:
        parser.error("HAProxy is not installed: apt-get install haproxy")
    ports = [args.first_port + i for i in range(args.servers)]
    config = Path(args.config).resolve()
    deploy = config.parent
    deploy.mkdir(parents=True, exist_ok=True)
    tables = Path(args.tables).resolve()
    tables.mkdir(parents=True, exist_ok=True)
    with ExitStack() as stack:
        database = args.database
        if args.postgres:
            database = stack.enter_context(private_postgres(Path(args.postgres).resolve()))
        text = haproxy_config(
            args.bind, ports, Path(args.socket), shared_tables=database is not None
        )
        config.write_text(text, encoding="utf-8")
        print(f"HAProxy configuration: {config}", flush=True)
        checked = subprocess.run([haproxy, "-c", "-q", "-f", str(config)], check=False)
        if checked.returncode != 0:
            print(f"HAProxy refused {config}", file=sys.stderr)
            return 1
        parts: list[tuple[str, subprocess.Popen[bytes], Path]] = []
        stack.callback(_stop_all, parts)
        for index, port in enumerate(ports, start=1):
            options = server_options(index, str(tables), database)
            command = server_command(port, *options, *args.voila)
            log = deploy / f"voila-{server_name(index)}.log"
            with log.open("wb") as output:
                process = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT)
            parts.append((f"book server {server_name(index)} (log {log})", process, log))
        try:
            for (name, process, log), port in zip(parts, ports, strict=False):
                url = f"http://127.0.0.1:{port}/voila/render/{HOME_PAGE}"
                wait_until_serving(url, process, log, args.timeout, name)
            log = deploy / "haproxy.log"
            with log.open("wb") as output:
                proxy = subprocess.Popen(
                    [haproxy, "-db", "-f", str(config)], stdout=output, stderr=subprocess.STDOUT
                )
            parts.append((f"HAProxy (log {log})", proxy, log))
            wait_until_serving(
                f"http://{args.bind}/voila/render/{HOME_PAGE}", proxy, log, 30.0, "HAProxy"
            )
        except RuntimeError as error:
            print(f"Not started: {error}", file=sys.stderr)
            return 1
        print(f"Serving the book on http://{args.bind}/ (Ctrl+C to stop)", flush=True)
        try:
            while True:
                for name, process, _ in parts:
                    if process.poll() is not None:
                        print(f"{name} stopped (exit {process.returncode})", file=sys.stderr)
                        return 1
                time.sleep(1.0)
        except KeyboardInterrupt:
            return 0
    return 0


def _stop_all(parts: list[tuple[str, subprocess.Popen[bytes], Path]]) -> None:
    for _, process, _ in reversed(parts):
        if process.poll() is None:
            stop_server(process)


@contextmanager
def private_postgres(folder: Path) -> Iterator[str]:
    """A PostgreSQL cluster of Debian's ``postgresql`` in ``folder`` (created the first
    time, kept after), listening on a Unix socket there only; yields its address. As root,
    it runs as the ``postgres`` user. Stopped when the block ends."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not found:
        raise SystemExit("PostgreSQL is not installed: apt-get install postgresql")
    bin_dir = Path(found[-1]).parent
    user = "postgres" if os.geteuid() == 0 else None
    data = folder / "data"
    folder.mkdir(parents=True, exist_ok=True)
    if user is not None:
        shutil.chown(folder, user)
    folder.chmod(0o700)

    def run(*command: str) -> None:
        line = [*(["runuser", "-u", user, "--"] if user else []), *command]
        done = subprocess.run(line, capture_output=True, text=True, timeout=120, check=False)
        if done.returncode != 0:
            raise SystemExit(f"{command[0]} failed: {done.stderr.strip()}")

    if not (data / "PG_VERSION").exists():
        run(str(bin_dir / "initdb"), "-D", str(data), "--auth=trust", "-U", "postgres")
    options = f"-k {folder} -c listen_addresses=''"
    log = folder / "postgres.log"
    run(str(bin_dir / "pg_ctl"), "-D", str(data), "-l", str(log), "-o", options, "-w", "start")
    try:
        yield f"host={folder} dbname=postgres user=postgres"
    finally:
        run(str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "stop")


if __name__ == "__main__":
    sys.exit(main())
