"""Two book servers behind HAProxy on loopback (issue 20.4, issue 23.6): the deployment of
``deploy/haproxy.cfg`` as ``akvo_site.cluster`` fills it in.

Tables first (they need both servers): each table, created through the proxy on either
server, has every request (view, action, events, page, QR code) answered by the server
that holds it. Then readers in Chromium spread over both servers; one server stops: its
readers get the French connection-lost notice, the others keep their page, and a reload
lands on the server still running. HAProxy is required where CI requires the browser
(``AKVO_REQUIRE_BROWSER=1``, ``.ci/run`` installs both), skipped elsewhere if absent.
"""

from __future__ import annotations

import json
import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from akvo_site.app import SMALL_POOLS
from akvo_site.cluster import (
    COOKIE,
    SERVER_HEADER,
    Cluster,
    cluster_in_background,
    haproxy_path,
    node,
    server_name,
)
from tests.browser.conftest import ARTIFACTS, BOOK
from tests.browser.test_mobile import WAIT, expect_connection_lost, open_rendered
from tests.tables_play import PRESETS

pytestmark = pytest.mark.server

READERS = 4
TABLES = 6
API = "akvo/api/tables"


@pytest.fixture
def cluster() -> Iterator[Cluster]:
    """Two servers behind the proxy, for one test: the fail-over test stops server n1, and
    pytest does not keep this file's tests in order (the test with ``browser``, a
    parametrized fixture, is collected first in a whole run; one xdist worker then runs
    both with a module-scoped cluster, n1 already stopped)."""
    if haproxy_path() is None:
        message = "HAProxy not installed: apt-get install haproxy (.ci/run does, as root)"
        if os.environ.get("AKVO_REQUIRE_BROWSER") == "1":
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    logs = ARTIFACTS / "cluster"
    for old in logs.glob("tables-*.sqlite*"):
        old.unlink()
    with cluster_in_background(BOOK, logs, 2, *SMALL_POOLS, timeout=180) as running:
        yield running


def served_by(answer: httpx.Response) -> str:
    return answer.headers.get(SERVER_HEADER, "")


#: The columns of HAProxy's ``show stat`` that tell why a server was passed over.
STAT_COLUMNS = (
    "pxname",
    "svname",
    "status",
    "check_status",
    "check_duration",
    "last_chk",
    "chkfail",
    "econ",
    "eresp",
    "wretr",
    "wredis",
    "scur",
    "qcur",
)


def proxy_state(cluster: Cluster, answer: httpx.Response) -> str:
    """What to print when the proxy routed against a cookie: the answer, each server's state
    and counters, and the proxy's last log lines (one per request in tests)."""
    rows = [line.lstrip("# ").split(",") for line in cluster.admin("show stat").splitlines()]
    header, servers = (
        rows[0],
        [r for r in rows[1:] if len(r) > 2 and r[1] not in ("FRONTEND", "BACKEND")],
    )
    columns = [header.index(c) for c in STAT_COLUMNS]
    table = "\n".join(" ".join(row[i] for i in columns) for row in [header, *servers])
    log = (cluster.config.parent / "haproxy.log").read_text(errors="replace").splitlines()
    tail = "\n".join(log[-40:])
    return f"answer {answer.status_code} {answer.text[:200]!r}\n{table}\nhaproxy.log:\n{tail}"


def test_each_table_stays_on_its_server(cluster: Cluster) -> None:
    request = {"teams": PRESETS, "players": 2, "seed": 3}
    holders = {server_name(i): node(i) for i in (1, 2)}
    for name in holders:
        ready = httpx.get(f"{cluster.url}/akvo/ready", cookies={COOKIE: name}, timeout=30)
        assert served_by(ready) == name, f"{name} through its cookie: {proxy_state(cluster, ready)}"
    made = []
    for index in range(TABLES):
        # A reader's page creates its table with its sticky cookie: each server's in turn.
        sticky = {COOKIE: server_name(1 + index % 2)}
        answer = httpx.post(f"{cluster.url}/{API}", json=request, cookies=sticky, timeout=60)
        assert answer.status_code == 201, answer.text
        assert served_by(answer) == sticky[COOKIE], proxy_state(cluster, answer)
        made.append((answer.json(), served_by(answer)))
    with httpx.Client(timeout=30) as http:
        for table, creator in made:
            table_id, token = table["table"], table["seats"][0]["token"]
            assert table_id.startswith(holders[creator]), (table_id, creator)
            url = f"{cluster.url}/{API}/{table_id}"
            view = http.get(url, params={"token": token})
            assert view.status_code == 200 and served_by(view) == creator, view.text
            action = view.json()["legal"][0]["action"]
            acted = http.post(f"{url}/actions", json={"token": token, "action": action})
            assert acted.status_code == 200 and served_by(acted) == creator, acted.text
            page = http.get(f"{cluster.url}/akvo/table/{table_id}")
            assert page.status_code == 200 and served_by(page) == creator
            qr = http.get(f"{url}/qr", params={"token": token})
            assert qr.status_code == 200 and served_by(qr) == creator
            with http.stream("GET", f"{url}/events", params={"token": token}) as events:
                assert events.status_code == 200 and served_by(events) == creator
                first = next(line for line in events.iter_lines() if line.startswith("data: "))
            # The pushed view is the one after the action: the same server holds the table.
            assert json.loads(first[6:])["log"] == acted.json()["log"]


def reader_server(context: BrowserContext) -> str:
    return next(c["value"] for c in context.cookies() if c["name"] == COOKIE)


def stopped(pid: int) -> bool:
    """True once process ``pid`` has exited (gone or a zombie waiting to be reaped)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1].startswith("Z")
    except (FileNotFoundError, IndexError):
        return True


def test_readers_fail_over_to_the_other_server(cluster: Cluster, browser: Browser) -> None:
    readers: list[tuple[BrowserContext, Page]] = []
    try:
        for _ in range(READERS):
            context = browser.new_context(viewport={"width": 390, "height": 844})
            page = context.new_page()
            open_rendered(page, cluster.url, "index.ipynb")
            readers.append((context, page))
        on = {name: [p for c, p in readers if reader_server(c) == name] for name in ("n1", "n2")}
        assert on["n1"] and on["n2"], f"readers spread over both servers: {on}"

        first = cluster.servers[0]
        os.kill(first.pid, signal.SIGTERM)  # server n1 stops under its readers
        for page in on["n1"]:
            expect_connection_lost(page)
        deadline = time.monotonic() + 60
        while not stopped(first.pid):
            assert time.monotonic() < deadline, "server n1 did not stop"
            time.sleep(0.2)
        for page in on["n2"]:
            expect(page.locator(".akvo-connection-lost")).to_be_hidden()
        # A table of the stopped server: the proxy's own refusal, JSON like the API's.
        gone = httpx.get(f"{cluster.url}/{API}/{node(1)}x", params={"token": "t"}, timeout=60)
        assert gone.status_code == 503, gone.text
        assert gone.headers["Content-Type"].startswith("application/json")
        assert gone.json()["error"] == "proxy"

        page = on["n1"][0]
        with page.expect_response(lambda r: "/voila/render/" in r.url) as rendered:
            page.get_by_role("button", name="Recharger la page").click()
        assert rendered.value.headers.get(SERVER_HEADER.lower()) == "n2"
        expect(page.locator("#rendered_cells")).to_be_visible(timeout=WAIT)
        expect(page.locator("#loading")).to_have_count(0, timeout=WAIT)
        expect(page.locator(".akvo-connection-lost")).to_be_hidden()
        assert reader_server(page.context) == "n2"
    finally:
        for context, _ in readers:
            context.close()
