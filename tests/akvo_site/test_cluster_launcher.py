"""The multi-server recipe as written (issue 37.6): the filled-in HAProxy configuration
passes ``haproxy -c`` with the README's relative paths (HAProxy 2.6 refuses a relative
admin socket), has a JSON error section for the API, drops the routing by table id when
the servers share PostgreSQL, and the launcher exits non-zero when a part cannot start."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from akvo_site.cluster import haproxy_config, haproxy_path

ROOT = Path(__file__).resolve().parents[2]


def _checked(text: str, folder: Path) -> subprocess.CompletedProcess[str]:
    haproxy = haproxy_path()
    if haproxy is None:
        pytest.skip("HAProxy is not installed: apt-get install haproxy")
    config = folder / "haproxy.cfg"
    config.write_text(text, encoding="utf-8")
    return subprocess.run(
        [haproxy, "-c", "-q", "-f", str(config)], capture_output=True, text=True, check=False
    )


@pytest.mark.parametrize("shared", [False, True])
def test_the_filled_in_configuration_passes_haproxy_check(tmp_path: Path, shared: bool) -> None:
    relative = Path("../.akvo-deploy/haproxy.sock")
    text = haproxy_config("127.0.0.1:8080", [8871, 8872], relative, shared_tables=shared)
    assert f"stats socket {relative.resolve()} " in text
    assert "http-errors json" in text and "use_backend api if { path_beg /akvo/api/ }" in text
    assert ("backend tables_n1" in text) is not shared
    checked = _checked(text, tmp_path)
    assert checked.returncode == 0, checked.stderr


def test_the_launcher_exits_non_zero_when_a_part_fails(tmp_path: Path) -> None:
    if haproxy_path() is None:
        pytest.skip("HAProxy is not installed: apt-get install haproxy")
    command = [
        sys.executable,
        "-m",
        "akvo_site.cluster",
        "--servers",
        "1",
        "--bind",
        "203.0.113.1:8080",  # not this machine's address: HAProxy cannot bind it
        "--first-port",
        "8961",
        "--config",
        str(tmp_path / "deploy" / "haproxy.cfg"),
        "--tables",
        str(tmp_path / "tables"),
        "--timeout",
        "120",
    ]
    done = subprocess.run(
        command, cwd=ROOT / "book", capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Serving the book" not in done.stdout
    assert "Not started: HAProxy exited early" in done.stderr
