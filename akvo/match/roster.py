"""Which runes each character may play (R19–R21), precomputed once per team and grimoire.

The engine's form of a rune category is a small int: the category's position in
:class:`akvo.rules.RuneCategory` (:data:`CATEGORY_OF`), so that a set of categories is a bit
mask; the shots' form is its name (:data:`akvo.shots.ROLL_RUNES`). Letters map to holders
0–5 (characters) or 6 (the team's bonus runes).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Final

from akvo.config import RulesConfig
from akvo.rules import CHARACTERS, RuneCategory
from akvo.teams import Team

CATEGORY_OF: Final = {category: index for index, category in enumerate(RuneCategory)}
ATTAQUE: Final = CATEGORY_OF[RuneCategory.ATTAQUE]
DEFENSE: Final = CATEGORY_OF[RuneCategory.DEFENSE]
CONFUSION: Final = CATEGORY_OF[RuneCategory.CONFUSION]
RELANCE: Final = CATEGORY_OF[RuneCategory.RELANCE]
MOUVEMENT: Final = CATEGORY_OF[RuneCategory.MOUVEMENT]
ULTIME: Final = CATEGORY_OF[RuneCategory.ULTIME]
CATEGORY_LABELS: Final = tuple(category.label for category in RuneCategory)
BONUS: Final = 6
MEMO_LIMIT: Final = 100_000
RUNE_U: Final = "U"


def grimoire_readings_part(category: int) -> bool:
    """R19's switch comes into play: a rune played whose symbol is @ or # (Confusion or
    Relance, whichever way the grimoire is read)."""
    return category in (CONFUSION, RELANCE)


def letter_bit(letter: str) -> int:
    """A rune letter's bit in a ``spent`` mask (A = bit 0)."""
    return 1 << (ord(letter) - 65)


@dataclass(frozen=True, slots=True)
class Roster:
    """One side's runes: ``runes[holder]`` lists ``(letter, bit, category)``."""

    runes: tuple[tuple[tuple[str, int, int], ...], ...]
    holder_of: dict[str, int]
    category_of: dict[str, int]
    #: Memo of :meth:`choices`: the same spent runes give the same legal actions.
    memo: dict[tuple[object, ...], tuple[str, ...]] = field(
        default_factory=dict, compare=False, repr=False
    )
    #: Bit mask of the runes of some holders in some categories (spent or not).
    candidates: dict[tuple[tuple[int, ...], int], int] = field(
        default_factory=dict, compare=False, repr=False
    )

    def __reduce__(self) -> tuple[type[Roster], tuple[object, ...]]:
        """Pickled (and copied) as its defining fields, the memos empty: compiled by mypyc, a
        frozen dataclass cannot be restored field by field."""
        return (Roster, (self.runes, self.holder_of, self.category_of))

    def choices(
        self,
        spent: int,
        holders: tuple[int, ...],
        categories: int,
        first: str,
        actions: dict[str, str],
    ) -> tuple[str, ...]:
        """``(first, *actions[letter] for each playable letter)``, memoised (hot path) on the
        unspent runes among the candidates of these holders and categories."""
        wanted = self.candidates.get((holders, categories))
        if wanted is None:
            wanted = self.candidates[(holders, categories)] = sum(
                bit
                for holder in holders
                for _letter, bit, category in self.runes[holder]
                if categories >> category & 1
            )
        key = (wanted & ~spent, holders, categories, first)
        found = self.memo.get(key)
        if found is None:
            if len(self.memo) > MEMO_LIMIT:
                self.memo.clear()
            letters = self.playable(spent, holders, categories)
            found = self.memo[key] = (first, *(actions[x] for x in letters))
        return found

    def playable(self, spent: int, holders: tuple[int, ...], categories: int) -> list[str]:
        """Unspent letters of these holders (and the bonus) whose category bit is in the mask."""
        out: list[str] = []
        for holder in holders:
            for letter, bit, category in self.runes[holder]:
                if not spent & bit and categories >> category & 1:
                    out.append(letter)
        return out


@lru_cache(maxsize=64)
def _roster(groups: tuple[str, ...], bonus: str, reading: str) -> Roster:
    rules = RulesConfig(grimoire=reading)  # type: ignore[arg-type]
    team = Team(groups=groups, bonus=bonus)
    runes: list[tuple[tuple[str, int, int], ...]] = []
    holder_of: dict[str, int] = {}
    category_of: dict[str, int] = {}
    for character in CHARACTERS:
        entries = tuple(
            (r.letter, letter_bit(r.letter), CATEGORY_OF[r.category])
            for r in team.runes_of(character, rules)
        )
        runes.append(entries)
    runes.append(
        tuple(
            (r.letter, letter_bit(r.letter), CATEGORY_OF[r.category])
            for r in team.bonus_runes(rules)
        )
    )
    for holder, entries in enumerate(runes):
        for letter, _bit, category in entries:
            holder_of[letter] = holder
            category_of[letter] = category
    return Roster(tuple(runes), holder_of, category_of)


def roster(team: Team, rules: RulesConfig) -> Roster:
    return _roster(team.groups, team.bonus, rules.grimoire)
