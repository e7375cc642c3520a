"""The coach's error type (a :class:`~akvo.errors.AkvoError`, hence a ``ValueError``)."""

from akvo.errors import AkvoError


class CoachError(AkvoError):
    """A coach question that cannot be answered: not a decision node, a bad option, a bad
    rollout budget, a file that is not a match record."""
