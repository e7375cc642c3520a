"""What each simulated match used: runes by category, Ultimes, and each rules switch's
moments in play — so that a comparison of two readings can say whether the rule came into
play.

The engine counts all of it where it decides, into the state's ``uses``
(:data:`akvo.match.schema.STATE_TALLIES`): runes as they are spent, Ultimes as they are used,
and each switch of :mod:`akvo.switches` where its two readings part
(``rule_played(s, "<field>")``; the switch's ``played`` label says when). This module only
names the columns and reads them at the end of a match (:func:`match_uses`): no trigger is
derived twice, and the play loop pays nothing per decision.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from akvo.config import CHOICES
from akvo.match.board import CHARS, ULTIME_KEYS
from akvo.match.schema import RUNE_KINDS as KINDS
from akvo.match.schema import USES_RUNES, USES_SWITCHES
from akvo.match.state import MatchState
from akvo.switches import SWITCHES

#: The rune categories counted per side (the rune U is the category Ultime of the grimoire).
RUNE_KINDS: Final = ("attaque", "defense", "confusion", "relance", "mouvement", "rune_u")
#: The Ultimes counted per side, in character order (Pédalair's Souffle portant first).
ULTIMES: Final = tuple(key.split()[0] for key in ULTIME_KEYS)
#: The switches whose moments in play the engine counts: every declared switch.
COUNTED: Final = tuple(SWITCHES)
#: Variants of :class:`~akvo.config.RulesConfig` without a count (none since every switch
#: is declared with the place the engine counts it; kept for results read back).
UNCOUNTED: Final = tuple(field for field in CHOICES if field not in COUNTED)

#: The per-match columns, in this order: runes by kind and Ultimes for A then B, then the
#: moments each switch came into play (``rule_<field>``).
USE_COLUMNS: Final = (
    *(f"{kind}_{side}" for side in "ab" for kind in RUNE_KINDS),
    *(f"ultime_{name}_{side}" for side in "ab" for name in ULTIMES),
    *(f"rule_{field}" for field in COUNTED),
)
_RULE: Final = {field: 2 * KINDS + 2 * CHARS + i for i, field in enumerate(COUNTED)}
_SWITCH_SLOTS: Final = tuple(USES_SWITCHES + list(CHOICES).index(field) for field in COUNTED)

assert len(RUNE_KINDS) == KINDS  # five categories and the Ultime (rune U)


_KIND_LABELS: Final = {
    "attaque": "runes Attaque",
    "defense": "runes Défense",
    "confusion": "runes Confusion",
    "relance": "runes Relance",
    "mouvement": "runes Mouvement",
    "rune_u": "rune U",
}
_ULTIME_LABELS: Final = dict(
    zip(
        ULTIMES,
        ("Souffle portant", "Tourbillon", "Égide", "Vigie", "Rouleau", "Trident"),
        strict=True,
    )
)


def use_label(column: str) -> str:
    """The French label of a column of :data:`USE_COLUMNS` (``runes Attaque (A)``…)."""
    if column.startswith("rule_"):
        return SWITCHES[column.removeprefix("rule_")].played
    name, side = column.rsplit("_", 1)
    if name.startswith("ultime_"):
        return f"{_ULTIME_LABELS[name.removeprefix('ultime_')]} ({side.upper()})"
    return f"{_KIND_LABELS[name]} ({side.upper()})"


@dataclass(frozen=True, slots=True)
class RuleUse:
    """How much a variant that differs between two simulations came into play.

    ``counted`` is False for a variant whose branch the lab does not count
    (:data:`UNCOUNTED`); else ``matches`` is the number of matches (of ``total``) in which
    either simulation took its branch, ``first`` and ``second`` how many times each did."""

    field: str
    counted: bool
    total: int
    matches: int = 0
    first: int = 0
    second: int = 0

    @property
    def played(self) -> bool:
        return self.counted and self.matches > 0


def rule_uses(
    first: Sequence[Any], second: Sequence[Any], fields: Sequence[str]
) -> tuple[RuleUse, ...]:
    """The :class:`RuleUse` of each variant in ``fields`` over two paired simulations' rows."""
    out = []
    for field in fields:
        if field not in _RULE:
            out.append(RuleUse(field, False, len(first)))
            continue
        at = _RULE[field]
        one = [row.uses[at] for row in first]
        two = [row.uses[at] for row in second]
        either = sum(a > 0 or b > 0 for a, b in zip(one, two, strict=True))
        out.append(RuleUse(field, True, len(first), either, sum(one), sum(two)))
    return tuple(out)


def match_uses(state: MatchState) -> tuple[int, ...]:
    """The :data:`USE_COLUMNS` of a finished match, read from what its engine counted."""
    uses = state.uses
    return (
        *uses[USES_RUNES : USES_RUNES + 2 * KINDS],
        *state.ult_uses,
        *(uses[slot] for slot in _SWITCH_SLOTS),
    )
