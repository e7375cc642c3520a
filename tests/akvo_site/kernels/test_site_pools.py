"""Pools that follow the readers (akvo_site/kernels/pools.py) and kernel starts readers first
(akvo_site/kernels/manager.py), without a server: the plan's exact sizes, what is applied to a
stand-in for Voilà's kernel manager, and the order in which queued starts get their turn."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from akvo_site.kernels.manager import POOL, READER, StartSlots
from akvo_site.kernels.pools import DemandPools, PoolBudgetError, PoolPlan

BASE = {"index.ipynb": 3, "des.ipynb": 1, "equipes.ipynb": 0}


def plan(budget: int = 10, most: int = 5) -> PoolPlan:
    return PoolPlan(BASE, budget=budget, most=most, idle_s=60.0)


def test_a_page_pool_grows_by_one_per_reader_up_to_its_most() -> None:
    p = plan()
    assert [p.read("des.ipynb", t) for t in range(5)] == [
        {"des.ipynb": 2},
        {"des.ipynb": 3},
        {"des.ipynb": 4},
        {"des.ipynb": 5},
        {},  # most = 5
    ]
    assert p.size == {"index.ipynb": 3, "des.ipynb": 5, "equipes.ipynb": 0}


def test_a_configured_pool_larger_than_most_keeps_its_size_and_does_not_grow() -> None:
    p = plan(most=2)
    assert p.read("index.ipynb", 0.0) == {} and p.size["index.ipynb"] == 3


def test_past_the_budget_a_page_takes_room_from_the_pool_read_longest_ago() -> None:
    p = plan(budget=7)  # 4 configured: 3 kernels of room
    p.read("des.ipynb", 0.0)  # des 2
    p.read("equipes.ipynb", 1.0)  # equipes 1
    p.read("equipes.ipynb", 2.0)  # equipes 2: the budget is spent (7)
    assert p.total() == 7
    assert p.read("equipes.ipynb", 3.0) == {"des.ipynb": 1, "equipes.ipynb": 3}
    # nothing grown is left to take from (des is back at its configured size)
    assert p.read("equipes.ipynb", 4.0) == {} and p.total() == 7


def test_idle_pools_halve_back_to_their_configured_size_and_no_further() -> None:
    p = plan()
    for t in range(4):
        p.read("des.ipynb", float(t))  # des 5, last read at 3
    assert p.shrink_idle(62.0) == {}  # 59 s unread: not yet
    assert p.shrink_idle(63.0) == {"des.ipynb": 2}
    assert p.shrink_idle(200.0) == {"des.ipynb": 1}
    assert p.shrink_idle(400.0) == {} and p.size["des.ipynb"] == 1


def test_a_page_not_configured_starts_from_an_empty_pool() -> None:
    p = plan()
    assert p.read("fin-du-match.ipynb", 0.0) == {"fin-du-match.ipynb": 1}


@pytest.mark.parametrize(
    ("budget", "most", "idle_s", "words"),
    [
        (3, 5, 60.0, "over the budget of 3"),
        (-1, 5, 60.0, "budget must be a whole number"),
        (10, True, 60.0, "most must be a whole number"),
        (10, 2.5, 60.0, "most must be a whole number"),
        (10, 5, 0.0, "idle_s must be a positive number"),
        (10, 5, float("nan"), "idle_s must be a positive number"),
    ],
)
def test_a_bad_setting_is_refused_by_name(budget: Any, most: Any, idle_s: Any, words: str) -> None:
    with pytest.raises(PoolBudgetError, match=words):
        PoolPlan(BASE, budget=budget, most=most, idle_s=idle_s)


class FakeManager:
    """What DemandPools uses of Voilà's kernel manager."""

    def __init__(self) -> None:
        self.kernel_pools_config: dict[str, dict[str, Any]] = {
            "default": {"pool_size": 1},
            "index.ipynb": {"pool_size": 2},
            "equipes.ipynb": {"pool_size": 0},
        }
        self._pools: dict[str, list[asyncio.Future[Any]]] = {
            page: [] for page in ("index.ipynb", "des.ipynb", "equipes.ipynb")
        }
        self.kernels: set[str] = set()
        self.stopped: list[str] = []
        self.started = 0
        for page in self._pools:
            self.fill_if_needed(notebook_name=page)

    def __contains__(self, kernel_id: str) -> bool:
        return kernel_id in self.kernels

    def get_pool_size(self, page: str) -> int:
        return len(self._pools.get(page, []))

    def fill_if_needed(self, delay: float | None = None, notebook_name: str = "") -> None:
        config = self.kernel_pools_config
        want = config.get(notebook_name, config["default"])["pool_size"]
        pool = self._pools.setdefault(notebook_name, [])
        while len(pool) < want:
            self.started += 1
            kernel = f"k{self.started}"
            self.kernels.add(kernel)
            done: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
            done.set_result({"kernel_id": kernel})
            pool.append(done)

    async def shutdown_kernel(self, kernel_id: str) -> None:
        self.kernels.discard(kernel_id)
        self.stopped.append(kernel_id)


def test_readers_grow_the_pool_voila_refills_and_an_idle_pool_stops_its_extra_kernels() -> None:
    async def scenario() -> None:
        now = [0.0]
        manager = FakeManager()
        pools = DemandPools(manager, budget=6, most=4, idle_s=60.0, clock=lambda: now[0])
        assert pools.plan.base == {"index.ipynb": 2, "des.ipynb": 1, "equipes.ipynb": 0}
        # the reader gets Voilà's answer (1 kernel ready); the pool then wants 2
        assert manager.get_pool_size("des.ipynb") == 1
        assert manager.kernel_pools_config["des.ipynb"] == {"pool_size": 2}
        assert len(manager._pools["des.ipynb"]) == 2
        for _ in range(3):
            manager.get_pool_size("des.ipynb")
        assert manager.kernel_pools_config["des.ipynb"] == {"pool_size": 4}  # most
        assert len(manager._pools["des.ipynb"]) == 4 and manager.started == 6
        # budget 6: index (2) + des (4); a reader of another page takes room from des
        now[0] = 10.0
        manager.get_pool_size("equipes.ipynb")
        await asyncio.sleep(0)
        assert manager.kernel_pools_config["des.ipynb"] == {"pool_size": 3}
        assert manager.kernel_pools_config["equipes.ipynb"] == {"pool_size": 1}  # a book page
        assert len(manager._pools["des.ipynb"]) == 3 and manager.stopped == ["k6"]
        # des and equipes unread for 60 s: back to their configured sizes (1 and 0)
        now[0] = 70.0
        pools.shrink_idle()
        await asyncio.sleep(0)
        assert manager.kernel_pools_config["des.ipynb"] == {"pool_size": 1}
        assert manager.kernel_pools_config["equipes.ipynb"] == {"pool_size": 0}
        assert [f.result()["kernel_id"] for f in manager._pools["des.ipynb"]] == ["k3"]
        assert manager.stopped == ["k6", "k5", "k4", "k7"]
        assert manager.kernels == {"k1", "k2", "k3"}
        assert manager.kernel_pools_config["index.ipynb"] == {"pool_size": 2}  # untouched

    asyncio.run(scenario())


def test_a_page_that_is_not_in_the_book_grows_no_pool() -> None:
    async def scenario() -> None:
        manager = FakeManager()
        pools = DemandPools(manager, budget=3, most=4, idle_s=60.0, clock=lambda: 0.0)
        for _ in range(5):  # a hostile client's made-up pages
            assert manager.get_pool_size("../../etc/passwd.ipynb") == 0
            assert manager.get_pool_size("nulle-part.ipynb") == 0
        book = {"index.ipynb": 2, "des.ipynb": 1, "equipes.ipynb": 0}
        assert pools.plan.size == book and set(manager._pools) == set(book)
        assert manager.started == 3 and pools.plan.last_read == {}

    asyncio.run(scenario())


def test_a_shrunk_pool_drops_its_starting_kernels_first_and_keeps_the_warm_ones() -> None:
    async def scenario() -> None:
        manager = FakeManager()
        pools = DemandPools(manager, budget=6, most=4, idle_s=60.0, clock=lambda: 0.0)
        loop = asyncio.get_running_loop()
        starting: list[asyncio.Future[Any]] = [loop.create_future() for _ in range(2)]
        manager._pools["des.ipynb"] += starting  # two refills not done yet; k3 is warm
        warm = manager._pools["des.ipynb"][0]
        pools.apply({"des.ipynb": 1})
        await asyncio.sleep(0)
        assert manager._pools["des.ipynb"] == [warm] and manager.stopped == []
        manager.kernels |= {"k8", "k9"}
        starting[1].set_result({"kernel_id": "k9"})  # a dropped start ends: stopped then
        for _ in range(2):  # its done callback, then the shutdown it schedules
            await asyncio.sleep(0)
        assert manager.stopped == ["k9"]
        starting[0].cancel()  # one that fails or is cancelled has nothing to stop
        await asyncio.sleep(0)
        assert manager.stopped == ["k9"]
        pools.apply({"des.ipynb": 0})  # past the starting ones: the warm kernel goes too
        await asyncio.sleep(0)
        assert manager._pools["des.ipynb"] == [] and manager.stopped == ["k9", "k3"]

    asyncio.run(scenario())


def test_queued_starts_go_readers_first_then_in_arrival_order() -> None:
    async def scenario() -> list[str]:
        slots = StartSlots(1)
        order: list[str] = []
        gate = asyncio.Event()

        async def start(name: str, priority: int) -> None:
            async with slots.slot(priority):
                order.append(name)
                await gate.wait()

        first = asyncio.create_task(start("pool 1", POOL))
        await asyncio.sleep(0)  # holds the only slot
        waiting = [
            asyncio.create_task(start(name, priority))
            for name, priority in (("pool 2", POOL), ("reader 1", READER), ("reader 2", READER))
        ]
        await asyncio.sleep(0)
        cancelled = asyncio.create_task(start("reader gone", READER))
        await asyncio.sleep(0)
        cancelled.cancel()  # a reader who left while waiting gives up their turn
        gate.set()
        await asyncio.gather(first, *waiting, return_exceptions=True)
        assert slots.free == 1  # every slot came back
        return order

    assert asyncio.run(scenario()) == ["pool 1", "reader 1", "reader 2", "pool 2"]
