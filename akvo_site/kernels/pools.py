"""Pre-heated pools that follow the readers, within a memory budget (issue 20.3).

Voilà keeps a fixed number of pre-heated kernels per page (``kernel_pools_config``): a page
with one pooled kernel serves its first reader at once and makes the next ones of a burst
wait for new kernels (15 s at the median for twenty readers on one chapter). Here each
page's pool grows by one kernel per reader who opens it, up to :attr:`PoolPlan.most`, and
shrinks back towards its configured size once nobody has opened the page for
:attr:`PoolPlan.idle_s` seconds; all pools together never hold more than the budget
(``BookPools.memory_mb`` over ``BookPools.kernel_mb``, in ``voila.json``): a
page that needs room takes it from the pool read longest ago. A reader who finds the pool
empty still starts a kernel of their own (Voilà's path), so the first burst on a cold page
waits as before, and the next one is served from the grown pool.

:class:`PoolPlan` decides (pure, tested without a server); :class:`DemandPools` applies its
decisions to Voilà's kernel manager: it rewrites that page's ``pool_size`` in
``kernel_pools_config``, which Voilà's own refill reads, starts the missing kernels, and
shuts down the pooled kernels a shrunk pool no longer wants.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from traitlets import Float, Int
from traitlets.config import Configurable

from akvo.errors import AkvoError


class BookPools(Configurable):  # type: ignore[misc]
    """The settings of the pools that follow the readers (``BookPools`` in ``voila.json``).

    ``kernel_mb`` turns the budget into kernels: a pooled kernel holds about 65 MB (PSS,
    benchmarks/results/load-spread.md).
    """

    memory_mb = Int(0, help="MB all pools may hold; 0: fixed pools").tag(config=True)
    kernel_mb = Int(45, help="MB (PSS) of one pooled kernel").tag(config=True)
    most = Int(20, help="most kernels a page's pool grows to").tag(config=True)
    idle_s = Float(300.0, help="seconds unread before a grown pool halves").tag(config=True)
    spares = Int(0, help="spare kernels, the book's imports run, for readers of an empty pool").tag(
        config=True
    )
    check_s = Float(20.0, help="seconds between two looks for idle pools").tag(config=True)

    def split_budget(self) -> tuple[int, int]:
        """(kernels the pools may hold, spare kernels): both within ``memory_mb``."""
        budget = self.memory_mb // max(1, self.kernel_mb)
        if not 0 <= self.spares <= budget:
            raise PoolBudgetError(
                f"BookPools.spares must be between 0 and the budget of {budget} kernels "
                f"(memory_mb / kernel_mb), not {self.spares}"
            )
        return budget - self.spares, self.spares


class PoolBudgetError(AkvoError, ValueError):
    """The configured pools do not fit the memory budget, or a setting is not a size."""


@dataclass
class PoolPlan:
    """How many pre-heated kernels each page's pool should hold.

    ``base`` is the configured size of each page's pool (never shrunk below); ``budget``
    the most pooled kernels in all; ``most`` the size a pool may grow to (a page whose
    configured pool is larger keeps it); ``idle_s`` how long a page goes unread before its
    pool halves back towards ``base``.
    """

    base: Mapping[str, int]
    budget: int
    most: int
    idle_s: float
    size: dict[str, int] = field(init=False)
    last_read: dict[str, float] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        for name, value in (("budget", self.budget), ("most", self.most)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise PoolBudgetError(f"{name} must be a whole number ≥ 0, not {value!r}")
        if not self.idle_s > 0:
            raise PoolBudgetError(
                f"idle_s must be a positive number of seconds, not {self.idle_s!r}"
            )
        configured = sum(self.base.values())
        if configured > self.budget:
            raise PoolBudgetError(
                f"the configured pools hold {configured} kernels, over the budget of "
                f"{self.budget}: raise BookPools.memory_mb or shrink kernel_pools_config"
            )
        self.size = dict(self.base)

    def total(self) -> int:
        return sum(self.size.values())

    def read(self, page: str, now: float) -> dict[str, int]:
        """A reader opened ``page``: its pool grows by one, taking the room from the pool
        read longest ago when the budget is spent. The sizes that changed."""
        self.last_read[page] = now
        size = self.size.setdefault(page, self.base.get(page, 0))
        if size >= max(self.most, self.base.get(page, 0)):
            return {}
        changed: dict[str, int] = {}
        if self.total() >= self.budget:
            donor = self._longest_unread(besides=page)
            if donor is None:
                return {}
            self.size[donor] -= 1
            changed[donor] = self.size[donor]
        self.size[page] = changed[page] = size + 1
        return changed

    def shrink_idle(self, now: float) -> dict[str, int]:
        """Every pool above its configured size whose page went unread ``idle_s`` seconds
        halves towards that size. The sizes that changed."""
        changed = {}
        for page, size in self.size.items():
            base = self.base.get(page, 0)
            if size > base and now - self.last_read.get(page, -math.inf) >= self.idle_s:
                self.size[page] = changed[page] = max(base, size // 2)
        return changed

    def _longest_unread(self, besides: str) -> str | None:
        grown = [p for p, s in self.size.items() if p != besides and s > self.base.get(p, 0)]
        return min(grown, key=lambda p: self.last_read.get(p, -math.inf), default=None)


class DemandPools:
    """Applies a :class:`PoolPlan` to Voilà's pre-heating kernel manager.

    Voilà's page handler asks ``get_pool_size(page)`` once per page view: that call is the
    reader's arrival (served from the pool or not). The wrapper keeps Voilà's answer and
    then resizes the pools; Voilà's own refill after a pooled kernel is handed out reads the
    new ``pool_size``. A timer shrinks the pools of pages gone unread.
    """

    def __init__(
        self,
        manager: Any,
        budget: int,
        most: int,
        idle_s: float,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.manager = manager
        self.clock = clock
        pools: Mapping[str, list[Any]] = manager._pools
        self.plan = PoolPlan({page: self._configured(page) for page in pools}, budget, most, idle_s)
        self._pool_size = manager.get_pool_size
        manager.get_pool_size = self.get_pool_size
        self._stopping: set[asyncio.Future[None]] = set()  # shutdowns under way

    def spare_ready(self) -> bool:
        spares = getattr(self.manager, "spare_kernels", None)
        return spares is not None and bool(spares.ready)

    def _configured(self, page: str) -> int:
        config: Mapping[str, Mapping[str, Any]] = self.manager.kernel_pools_config
        default = config.get("default", {}).get("pool_size", 1)
        return int(config.get(page, {}).get("pool_size", default))

    def get_pool_size(self, page: str) -> int:
        """Voilà's answer (what this reader gets), then the pools resized for the next.

        Voilà counts the kernels still starting too, and a reader handed one waits for its
        start. When a spare kernel is ready (``spare_ready``), only the kernels done
        starting count, put first in the pool (Voilà hands out the first): a reader who
        would wait takes the spare instead.

        Only the book's pages grow a pool: Voilà asks before it checks that the notebook
        exists, and a client asking for made-up pages must not spend the budget (nor take
        it from the book's pools) on kernels for notebooks that are not there."""
        available = int(self._pool_size(page))
        if available and self.spare_ready():
            pool: list[Any] = self.manager._pools.get(page, [])
            pool.sort(key=lambda item: not item.done())  # stable: oldest first
            available = sum(1 for item in pool if item.done())
        if page in self.plan.base:
            self.apply(self.plan.read(page, self.clock()))
        return available

    def shrink_idle(self) -> None:
        self.apply(self.plan.shrink_idle(self.clock()))

    def apply(self, sizes: Mapping[str, int]) -> None:
        """Write the new sizes where Voilà reads them, start what a grown pool lacks and
        drop what a shrunk pool holds too many of: the kernels still starting first (each
        stopped once started), the warm ones last. Dropping a warm kernel while a refill
        was still starting left the page's next reader of a burst with nothing warm (3 of
        50 readers spread over the book waited 3–5 s on a spare)."""
        if not sizes:
            return
        config: dict[str, dict[str, Any]] = dict(self.manager.kernel_pools_config)
        default = config.get("default", {})
        for page, size in sizes.items():
            config[page] = {**config.get(page, default), "pool_size": size}
        self.manager.kernel_pools_config = config
        for page, size in sizes.items():
            pool: list[Any] = self.manager._pools.setdefault(page, [])
            if len(pool) < size:
                self.manager.fill_if_needed(delay=None, notebook_name=page)
            newest_first = list(reversed(pool))
            newest_first.sort(key=lambda item: item.done())  # stable: starting ones first
            for item in newest_first[: max(0, len(pool) - size)]:
                pool.remove(item)
                if item.done():
                    self._stop(item)
                else:
                    item.add_done_callback(self._stop)

    def _stop(self, item: asyncio.Future[Any]) -> None:
        if item.cancelled() or item.exception() is not None:
            return
        kernel_id = item.result().get("kernel_id")
        if kernel_id is not None and kernel_id in self.manager:
            stopping = asyncio.ensure_future(self.manager.shutdown_kernel(kernel_id))
            self._stopping.add(stopping)
            stopping.add_done_callback(self._stopping.discard)
