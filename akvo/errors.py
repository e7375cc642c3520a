"""The engine's own error types: every bad input raises a subclass of :class:`AkvoError`."""

from collections.abc import Iterable, Sequence
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


# Checks for the public entry points (``value`` comes from a caller who may be hostile).
# Each returns the value in a plain form, so that no subclass's methods run after the check:
# an ``int`` subclass becomes an ``int``, a ``str`` subclass (whose ``__eq__`` or ``__hash__``
# could lie) becomes a ``str``.
def require_int(name: str, value: object, error: type[AkvoError]) -> int:
    """``value`` if it is a true integer (``bool`` is not), else ``error`` naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise error(f"{name} must be an integer, got {excerpt(value)}")
    return int.__index__(value)


def require_seed(name: str, value: object, error: type[AkvoError]) -> int | None:
    """A seed: an integer, or ``None`` for a fresh random one."""
    return None if value is None else require_int(name, value, error)


def require_bool(name: str, value: object, error: type[AkvoError]) -> bool:
    """``value`` if it is ``True`` or ``False`` (not a truthy string, not 1)."""
    if not isinstance(value, bool):
        raise error(f"{name} must be True or False, got {excerpt(value)}")
    return value


def require_text(name: str, value: object, error: type[AkvoError], limit: int = 200) -> str:
    """``value`` as a plain ``str`` of at most ``limit`` characters, else ``error``."""
    if not isinstance(value, str):
        raise error(f"{name} must be a string, got {excerpt(value)}")
    if len(value) > limit:
        raise error(f"{name} must be at most {limit} characters, got {excerpt(value)}")
    return str.__str__(value)


def choice_index(value: object, allowed: Sequence[object]) -> int:
    """Where ``value`` stands in ``allowed`` (strings, or ``None``), compared as a plain
    value of the same type, so that an unhashable or lying value cannot match; -1 if not."""
    if value is None or type(value) is str:  # the usual case: one lookup in C
        try:
            return allowed.index(value)
        except ValueError:
            return -1
    plain: object = str.__str__(value) if isinstance(value, str) else value
    for index, choice in enumerate(allowed):
        if type(plain) is type(choice) and plain == choice:
            return index
    return -1


def require_choice(name: str, value: object, allowed: Iterable[T], error: type[AkvoError]) -> T:
    """``value`` if it is one of ``allowed`` (see :func:`choice_index`), else ``error``
    naming ``name`` and the choices."""
    choices = tuple(allowed)
    index = choice_index(value, choices)
    if index < 0:
        shown = ", ".join(repr(c) for c in choices)
        hint = did_you_mean(value, [c for c in choices if isinstance(c, str)])
        raise error(f"unknown {name} {excerpt(value)}{choose_among(hint, shown)}")
    return choices[index]


def choose_among(hint: str, shown: str) -> str:
    """The tail of an unknown name's message: the closest names first, then the choices."""
    return f"{hint} (choose one of {shown})" if hint else f"; choose one of {shown}"


def did_you_mean(value: object, known: Iterable[str]) -> str:
    """`` — did you mean X?`` (or ``X or Y``) naming the known names closest to ``value``
    (difflib, case ignored), or ``""`` when none is close: for a typo's error message."""
    if not isinstance(value, str) or len(value) > EXCERPT_LENGTH:
        return ""
    from difflib import get_close_matches

    plain = str.__str__(value)  # a str subclass's own methods never run here
    by_fold = {str.__str__(name).casefold(): name for name in known}
    close = get_close_matches(plain.strip().casefold(), list(by_fold), n=3, cutoff=0.75)
    if not close:
        return ""
    names = [by_fold[c] for c in close]
    shown = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
    return f" — did you mean {shown}?"


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
