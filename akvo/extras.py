"""The engine's optional dependencies, by pip extra: imported on first use only.

``pip install akvo`` installs the engine alone (numpy, scipy); the lab's Dask cluster and
progress bars come with ``akvo[lab]``, the online tables' API client with
``akvo[online]``, the book's front end with ``akvo[book]``. Every module of :mod:`akvo`
imports without them; the first use of a missing one raises :class:`MissingExtra`, which
names the extra to install.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Final

#: Each optional module the engine imports, and the extra that installs it.
EXTRA_OF: Final = {
    "dask": "lab",
    "distributed": "lab",
    "tqdm": "lab",
    "httpx": "online",
    "psycopg": "online",
}


class MissingExtra(ImportError):
    """An optional dependency is not installed; the message names the extra to install."""


def optional(module: str) -> ModuleType:
    """``module`` imported, or :class:`MissingExtra` naming its extra (:data:`EXTRA_OF`)."""
    extra = EXTRA_OF[module]
    try:
        return importlib.import_module(module)
    except ImportError as error:
        raise MissingExtra(
            f"{module} is not installed: it comes with akvo's extra [{extra}] "
            f"(pip install 'akvo[{extra}]')",
            name=module,
        ) from error
