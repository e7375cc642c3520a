"""akvo — the rules engine of Akvolition: rules data, exact odds, match state.

Importing ``akvo`` is cheap on purpose: submodules (``akvo.rules``, ``akvo.dice``,
``akvo.shots``, ``akvo.match`` …) are imported by name where needed.
"""

from akvo.errors import AkvoError

__all__ = ["AkvoError", "__version__"]
__version__ = "0.1.0"
