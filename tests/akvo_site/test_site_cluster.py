"""The multi-server deployment's HAProxy configuration (``deploy/haproxy.cfg`` filled in by
``akvo_site.cluster``), without starting anything; the deployment itself runs in
``tests/browser/test_deploy.py``."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from akvo_site.cluster import (
    DEPLOY,
    REQUEST_LOG,
    TABLE_PATHS,
    haproxy_config,
    haproxy_path,
    node,
)
from akvo_site.tables.api import _ID

SOCKET = Path("/run/akvo/haproxy.sock")
PORTS = [9101, 9102, 9103, 9104, 9105, 9106, 9107, 9108, 9109, 9110, 9111]


def test_every_server_is_a_sticky_checked_reader_backend_and_holds_its_tables() -> None:
    config = haproxy_config("127.0.0.1:9100", PORTS, SOCKET)
    assert "bind 127.0.0.1:9100" in config
    assert "@" not in re.sub(r"#.*", "", config), "every field filled in"
    for index, port in enumerate(PORTS, start=1):
        assert f"    server n{index} 127.0.0.1:{port} cookie n{index}\n" in config
        rule = f"use_backend tables_n{index} if {{ path_beg "
        paths = " ".join(f"{p}n{index}-" for p in TABLE_PATHS)
        assert f"{rule}{paths} }}" in config
        assert f"server n{index} 127.0.0.1:{port} track readers/n{index}" in config
    assert "http-check send meth GET uri /akvo/ready" in config
    assert "cookie AKVO_SERVER insert indirect nocache" in config
    assert "    stats socket /run/akvo/haproxy.sock mode 600 level admin\n" in config
    assert "log-format" not in config, "no request is logged unless asked (seat tokens)"


def test_no_node_prefixes_another_and_ids_stay_valid() -> None:
    nodes = [node(i) for i in range(1, 40)]
    assert all(not b.startswith(a) for a in nodes for b in nodes if a != b)
    assert all(re.fullmatch(_ID, f"{n}{'x' * 16}") for n in nodes)
    assert not any("options".startswith(n) for n in nodes)  # the API's one fixed route


def test_haproxy_accepts_the_configuration(tmp_path: object) -> None:
    haproxy = haproxy_path()
    if haproxy is None:
        if os.environ.get("AKVO_REQUIRE_BROWSER") == "1":
            pytest.fail("HAProxy not installed (.ci/run installs it)", pytrace=False)
        pytest.skip("HAProxy not installed: apt-get install haproxy")
    path = f"{tmp_path}/haproxy.cfg"
    config = haproxy_config(
        "127.0.0.1:9100", PORTS[:2], Path(f"{tmp_path}/haproxy.sock"), log_requests=True
    )
    # The tests' request log is spliced into the template: it must have found its places.
    assert f"    {REQUEST_LOG}\n" in config and "daemon info\n" in config
    with open(path, "w", encoding="utf-8") as file:
        file.write(config)
    checked = subprocess.run([haproxy, "-c", "-f", path], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "ALERT" not in checked.stdout + checked.stderr
    assert "WARNING" not in checked.stdout + checked.stderr


@pytest.mark.parametrize("code", ["502", "503", "504"])
def test_the_proxy_errors_are_whole_french_answers(code: str) -> None:
    raw = (DEPLOY / "errors" / f"{code}.http").read_bytes()
    head, body = raw.split(b"\r\n\r\n", 1)
    lines = head.decode("ascii").split("\r\n")
    assert lines[0].startswith(f"HTTP/1.1 {code} ")
    assert f"Content-Length: {len(body)}" in lines
    text = body.decode("utf-8")
    assert '<html lang="fr">' in text and "Réessayez" in text and 'href="/"' in text
