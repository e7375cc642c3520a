"""akvo — the rules engine of Akvolition: rules data, exact odds, match state.

Importing ``akvo`` is cheap on purpose: submodules (``akvo.rules``, ``akvo.dice``,
``akvo.shots``, ``akvo.match`` …) are imported by name where needed. :mod:`akvo.compiled`
decides here whether the mypyc-compiled engine runs (``AKVO_PURE=1`` forces pure Python).
"""

from akvo import compiled
from akvo.errors import AkvoError

compiled.choose()  # the compiled engine if built and fresh, else the pure-Python sources

__all__ = ["AkvoError", "__version__"]
__version__ = "0.1.0"
