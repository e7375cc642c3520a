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
