"""The engine's own error types: every bad input raises a subclass of :class:`AkvoError`."""


class AkvoError(ValueError):
    """Base of every error the engine raises on bad input."""


class RulesError(AkvoError):
    """A rules-data lookup outside what the rulebook defines (tier, distance, turn…)."""


class TeamError(AkvoError):
    """A team list that does not follow R27."""


class DiceError(AkvoError):
    """Invalid arguments to a dice computation."""


class ShotError(AkvoError):
    """An impossible shot description (rune that cannot act, bad Résilience…)."""


class IllegalAction(AkvoError):
    """A game action that is not legal in the current state; the state is unchanged."""


def require_int(name: str, value: object, error: type[AkvoError]) -> int:
    """``value`` if it is a true integer (``bool`` is not), else ``error`` naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise error(f"{name} must be an integer, got {value!r}")
    return value
