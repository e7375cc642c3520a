"""What the tables' HTTP tests share: one in-process tables server per test module, its
rate limits out of the way (the tests of the limits start their own), and an httpx client
on it. A module that needs another server defines its own ``server`` fixture, which wins."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from tests.tables_play import InProcessServer

#: Rate limits far above what a test sends.
NO_LIMITS = {"rate": 1000.0, "burst": 1000, "create_rate": 1000.0, "create_burst": 1000}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[InProcessServer]:
    with InProcessServer(tmp_path_factory.mktemp("tables"), **NO_LIMITS) as running:
        yield running


@pytest.fixture(scope="module")
def http(server: InProcessServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.url, timeout=20) as client:
        yield client
