"""How the lab's tests run a simulation: here, in the test's own process (``workers=0``, no Dask
cluster to start) and without a tqdm bar on pytest's stderr."""

from __future__ import annotations

from typing import Any, Final

FAST: Final[dict[str, Any]] = {"workers": 0, "progress": False}
