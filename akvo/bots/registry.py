"""The bots' registry: each bot declares itself once, where it is written.

A bot module ends with ``SPEC = BotSpec(...)``: its engine name, its French label, a factory,
the options it accepts (each with its own check), its speed class and its rank on the
ladder (``None``: outside the ladder, as the uniform random bot). :data:`BOT_MODULES` lists
the modules; :func:`load_registry` imports them and reads their ``SPEC`` (OpenSpiel's
``register_game`` style, with the list in one place instead of import side effects).
Everything else — :data:`akvo.bots.BOTS`, :func:`akvo.bots.make_bot`, the lab, the online
tables, the command line — derives from the registry. Adding a level is one module and one
line of :data:`BOT_MODULES`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from akvo.errors import AkvoError, require_int
from akvo.match.state import MatchState

Bot = Callable[[MatchState], str]

#: Speed classes: « instant » answers inline (well under 50 ms), « fast » within about
#: 0.1 s, « slow » up to about a second (online tables run fast and slow bots off the
#: event loop).
SPEEDS: Final = ("instant", "fast", "slow")

#: The modules that declare a bot (``SPEC``), in the order the bots are listed.
BOT_MODULES: Final = (
    "akvo.bots.uniform",
    "akvo.bots.beginner",
    "akvo.bots.easy",
    "akvo.bots.normal",
    "akvo.bots.strong",
    "akvo.bots.expert",
)


class BotError(AkvoError):
    """An unknown bot name or a bad bot option."""


@dataclass(frozen=True, slots=True)
class BotOption:
    """An option a bot accepts: ``check`` returns the value to pass on, or raises
    :class:`BotError` naming the problem."""

    name: str
    help: str
    check: Callable[[object], object]


@dataclass(frozen=True, slots=True)
class BotSpec:
    """One bot, declared once (see the module)."""

    name: str
    label: str
    #: What it does, in French, for a player (the glossary, the tables' menus).
    description: str
    #: ``factory(seed, **options)`` → a bot; options already checked.
    factory: Callable[..., Bot]
    options: tuple[BotOption, ...] = ()
    speed: str = "instant"
    #: Place on the ladder, weakest first (``None``: not a ladder level).
    rank: int | None = None
    #: Options the ladder plays this level with (e.g. a budget).
    ladder_options: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.speed not in SPEEDS:
            raise BotError(f"bot {self.name!r}: speed must be one of {SPEEDS}, not {self.speed!r}")

    @property
    def option_names(self) -> tuple[str, ...]:
        return tuple(option.name for option in self.options)

    def check_options(self, options: Mapping[str, object]) -> dict[str, object]:
        """The options checked by their own rules; an unknown one is refused."""
        known = {option.name: option for option in self.options}
        unknown = sorted(set(options) - set(known))
        if unknown:
            accepted = ", ".join(known) or "none"
            raise BotError(
                f"the {self.name} bot does not take {', '.join(unknown)} (options: {accepted})"
            )
        return {name: known[name].check(value) for name, value in options.items()}

    def make(self, seed: int | None, **options: object) -> Bot:
        return self.factory(seed, **self.check_options(options))


def load_registry() -> dict[str, BotSpec]:
    """Every bot of :data:`BOT_MODULES`, by engine name."""
    registry: dict[str, BotSpec] = {}
    for module in BOT_MODULES:
        spec = importlib.import_module(module).SPEC
        if not isinstance(spec, BotSpec) or spec.name in registry:
            raise BotError(f"{module}.SPEC must be a BotSpec with a new name")
        registry[spec.name] = spec
    return registry


# --- option checks shared by the bots --------------------------------------------------------
def positive_int(name: str, what: str) -> Callable[[object], object]:
    """A check that the value is an int ≥ 1 (``what``: its unit, for the message)."""

    def check(value: object) -> object:
        number = require_int(name, value, BotError)
        if number < 1:
            raise BotError(f"{name} must be a positive number of {what}, got {number}")
        return number

    return check


def int_at_least(name: str, least: int, none_ok: bool = False) -> Callable[[object], object]:
    """A check that the value is an int ≥ ``least`` (or None, if ``none_ok``)."""

    def check(value: object) -> object:
        if value is None and none_ok:
            return None
        number = require_int(name, value, BotError)
        if number < least:
            allowed = f"an int ≥ {least}" + (" or None" if none_ok else "")
            raise BotError(f"{name} must be {allowed}, got {number}")
        return number

    return check


def noisy_level(name: str, label: str, rank: int, temperature: float, description: str) -> BotSpec:
    """A ladder level that is the evaluation with softmax noise of this ``temperature``
    (:class:`akvo.bots.noisy.NoisyBot`, imported on first use: it brings the evaluation,
    which listing the bots need not load); tens of ms a decision, more at an activation."""

    def make(seed: int | None) -> Bot:
        from akvo.bots.noisy import NoisyBot

        return NoisyBot(seed, temperature)

    return BotSpec(name, label, description, make, speed="fast", rank=rank)


def positive_float(name: str) -> Callable[[object], object]:
    """A check that the value is a finite number > 0."""

    def check(value: object) -> object:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise BotError(f"{name} must be a number, got {type(value).__name__}")
        number = float(value)
        if not 0 < number < float("inf"):
            raise BotError(f"{name} must be a positive finite number, got {value!r}")
        return number

    return check
