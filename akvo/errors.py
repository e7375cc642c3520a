"""The engine's own error types: every bad input raises a subclass of :class:`AkvoError`."""

from typing import TypeVar

T = TypeVar("T")


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
        raise error(f"{name} must be an integer, got {excerpt(value)}")
    return value


def require_instance(name: str, value: object, kind: type[T], error: type[AkvoError]) -> T:
    """``value`` if it is a ``kind``, else ``error`` naming ``name``."""
    if not isinstance(value, kind):
        raise error(f"{name} must be a {kind.__name__}, got {excerpt(value)}")
    return value


class RecordError(AkvoError):
    """A saved state or match record that does not follow the format (names the field)."""


EXCERPT_LENGTH = 40


def excerpt(value: object, limit: int = EXCERPT_LENGTH) -> str:
    """A short, safe rendering of bad input for error messages (never the whole input)."""
    try:
        text = repr(value)
    except Exception:  # a hostile __repr__ must not hide the real error
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 1] + "…"


class MatchError(AkvoError):
    """A bad argument to the match engine: a side, unit, character, letter, team or rules."""
