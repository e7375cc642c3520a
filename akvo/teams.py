"""Team lists (R27–R28): which runes each character holds, and the two bonus runes."""

from __future__ import annotations

import re
import string
from dataclasses import dataclass

from akvo.config import DEFAULT_RULES, RulesConfig
from akvo.errors import TeamError
from akvo.rules import CHARACTERS, PRESET_TEAMS, Character, Rune, grimoire

GROUP_SIZE = 4
GROUP_COUNT = 6
BONUS_SIZE = 2
_SEPARATORS = " \t\r\n/"
_ALLOWED = set(string.ascii_letters) | set(_SEPARATORS) | {"+"}


@dataclass(frozen=True, slots=True)
class Team:
    """A parsed team list: six groups of four letters in lane order, and two bonus letters."""

    groups: tuple[str, ...]
    bonus: str
    name: str = ""

    def letters(self, character: Character) -> str:
        """The four letters a character holds, as spelled in the list (for naming mages)."""
        return self.groups[character.lane - 1]

    def runes_of(
        self, character: Character, rules: RulesConfig = DEFAULT_RULES
    ) -> tuple[Rune, ...]:
        """The character's own four runes (R21)."""
        book = grimoire(rules)
        return tuple(book[letter] for letter in self.letters(character))

    def bonus_runes(self, rules: RulesConfig = DEFAULT_RULES) -> tuple[Rune, ...]:
        book = grimoire(rules)
        return tuple(book[letter] for letter in self.bonus)

    def holder(self, letter: str) -> Character | None:
        """The character holding a letter, or ``None`` for a bonus rune."""
        wanted = letter.upper()
        for character in CHARACTERS:
            if wanted in self.letters(character):
                return character
        if wanted in self.bonus:
            return None
        raise TeamError(f"{letter!r} is not a rune letter of this team")

    def __str__(self) -> str:
        return "/".join(self.groups) + "+" + self.bonus


def _fail(message: str) -> TeamError:
    return TeamError(f"invalid team list: {message}")


def _split_groups(main: str) -> list[str]:
    """Groups are separated by '/' or line breaks; failing those, by spaces between words."""
    if re.search(r"[/\n]", main):
        parts = re.split(r"[/\n]", main)
        return [re.sub(r"\s+", "", p) for p in parts if p.strip()]
    words = main.split()
    if len(words) == 1 and len(words[0]) == GROUP_SIZE * GROUP_COUNT:
        word = words[0]
        return [word[i : i + GROUP_SIZE] for i in range(0, len(word), GROUP_SIZE)]
    if all(len(w) == 1 for w in words) and len(words) == GROUP_SIZE * GROUP_COUNT:
        return ["".join(words[i : i + GROUP_SIZE]) for i in range(0, len(words), GROUP_SIZE)]
    return words


def parse_team(text: str, *, name: str = "") -> Team:
    """Parse a team list such as ``"FLEX/CROQ/MYTH/BIDZ/PUNK/JAWS+VG"`` (R27).

    Spaces and ``/`` separate; case is ignored; every letter A–Z must appear exactly once.
    Without a ``+`` part, 24 distinct letters leave the two bonus letters. Any other input
    raises :class:`~akvo.errors.TeamError` naming the problem.
    """
    if not isinstance(text, str):
        raise _fail(f"expected a string, got {type(text).__name__}")
    if not text.strip():
        raise _fail("the list is empty")
    for position, char in enumerate(text, start=1):
        if char not in _ALLOWED:
            kind = "digit" if char.isdigit() else "character"
            raise _fail(
                f"unknown {kind} {char!r} at position {position}; only letters A–Z, "
                "spaces, '/' and one '+' are allowed"
            )
    if text.count("+") > 1:
        raise _fail("more than one '+' (the bonus part comes once, at the end)")
    main, plus, bonus_text = text.upper().partition("+")
    groups = _split_groups(main)
    if not groups:
        raise _fail("no letter groups before '+'")
    if len(groups) != GROUP_COUNT:
        raise _fail(f"found {len(groups)} letter groups; a team has {GROUP_COUNT} (one per lane)")
    for index, group in enumerate(groups, start=1):
        if len(group) != GROUP_SIZE:
            raise _fail(
                f"group {index} {group!r} has {len(group)} letters; each character "
                f"holds exactly {GROUP_SIZE} runes"
            )
    bonus = re.sub(r"[\s/]+", "", bonus_text)
    if plus and not bonus:
        raise _fail("the bonus part after '+' is empty; it needs 2 letters")
    if plus and len(bonus) != BONUS_SIZE:
        raise _fail(f"the bonus part {bonus!r} has {len(bonus)} letters; it needs {BONUS_SIZE}")
    seen: dict[str, str] = {}
    places = [(f"group {i}", g) for i, g in enumerate(groups, start=1)] + [("the bonus", bonus)]
    for place, letters in places:
        for letter in letters:
            if letter in seen:
                where = place if seen[letter] == place else f"{seen[letter]} and {place}"
                raise _fail(f"letter {letter!r} appears twice ({where}); each rune exists once")
            seen[letter] = place
    if not plus:
        missing = sorted(set(string.ascii_uppercase) - set(seen))
        bonus = "".join(missing)
    return Team(groups=tuple(groups), bonus=bonus, name=name)


def preset_team(key: str) -> Team:
    """A preset team of the annex by key (``"perrockiss"``, ``"fish-tank"``…)."""
    try:
        preset = PRESET_TEAMS[key]
    except KeyError:
        raise TeamError(
            f"unknown preset team {key!r}; choose one of {', '.join(PRESET_TEAMS)}"
        ) from None
    return parse_team(preset.team_list, name=preset.name)
