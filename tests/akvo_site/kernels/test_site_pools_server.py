"""Pools that follow the readers on a real loopback server (akvo_site/kernels/pools.py).

Small pools (none for the chapters, one kernel for the home page), one spare kernel and a
budget of ten kernels: the first reader of « Les dés » finds no pooled kernel, gets the
spare (akvo_site/kernels/spares.py) and makes the pool grow; the second is served from the pool
and makes it grow to two (``BookPools.most``), which Voilà fills.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from akvo_site.app import SMALL_POOLS, RunningServer, serve_in_background, wait_for_pools
from tests.akvo_site.test_site_security import ARTIFACTS, ROOT, fetch

pytestmark = pytest.mark.server

LOG = ARTIFACTS / "voila-pools.log"
PAGE = "des.ipynb"


@pytest.fixture(scope="module")
def server() -> Iterator[RunningServer]:
    ARTIFACTS.mkdir(exist_ok=True)
    options = (
        *(option for option in SMALL_POOLS if "BookPools.memory_mb" not in option),
        "--BookPools.memory_mb=450",
        "--BookPools.kernel_mb=45",
        "--BookPools.most=2",
        "--BookPools.spares=1",
    )
    with serve_in_background(ROOT / "book", LOG, *options, timeout=120) as running:
        yield running


def uses(kind: str) -> int:
    """How many readers of the page got a pre-heated kernel, or a spare (any page)."""
    if kind == "spare":
        return len(re.findall(r"Using spare kernel: \S+", LOG.read_text()))
    return len(re.findall(rf"Using pre-heated kernel: \S+ for {re.escape(PAGE)}", LOG.read_text()))


def test_a_read_page_pool_grows_and_serves_the_next_readers(server: RunningServer) -> None:
    def read() -> None:
        status, body = fetch(f"{server.url}/voila/render/{PAGE}")
        assert status == 200 and "Les dés" in body

    assert wait_for_pools(server.url, 180)["wanted"] == 2  # the home page's kernel, a spare
    read()  # the pool is empty: this reader gets the spare (its cells ran in it)...
    assert (uses("pooled"), uses("spare")) == (0, 1)
    assert wait_for_pools(server.url, 180)["wanted"] == 3  # the spare replaced, des 1
    read()  # ...and the pool grown for the next one serves this one
    assert (uses("pooled"), uses("spare")) == (1, 1)
    assert wait_for_pools(server.url, 180)["wanted"] == 4  # home 1 + des 2 (most) + spare
    read()
    assert (uses("pooled"), uses("spare")) == (2, 1)
