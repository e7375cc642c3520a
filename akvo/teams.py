"""Team lists (R27–R28): which runes each character holds, and the two bonus runes."""

from __future__ import annotations

import itertools
import re
import string
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from akvo.config import DEFAULT_RULES, RulesConfig
from akvo.errors import TeamError, excerpt, require_instance, require_text
from akvo.rules import CHARACTERS, LETTERS, PRESET_TEAMS, Character, Rune, grimoire

GROUP_SIZE = 4
GROUP_COUNT = 6
BONUS_SIZE = 2
#: The longest team list read (26 letters with generous separators) and team name.
MAX_LIST_LENGTH = 200
MAX_NAME_LENGTH = 80
_SEPARATORS = " \t\r\n/"
_ALLOWED = set(string.ascii_letters) | set(_SEPARATORS) | {"+"}


@dataclass(frozen=True, slots=True)
class Team:
    """A parsed team list: six groups of four letters in lane order, and two bonus letters."""

    groups: tuple[str, ...]
    bonus: str
    name: str = ""

    def __post_init__(self) -> None:
        """A Team built directly (not by :func:`parse_team`) must hold the 26 letters as
        six groups of four and two bonus letters, in capitals (R27)."""
        groups, bonus = self.groups, self.bonus
        shaped = (
            isinstance(groups, tuple)
            and len(groups) == GROUP_COUNT
            and all(isinstance(g, str) and len(g) == GROUP_SIZE for g in groups)
            and isinstance(bonus, str)
            and len(bonus) == BONUS_SIZE
        )
        if not shaped or sorted("".join(groups) + bonus) != sorted(LETTERS):
            raise TeamError(
                f"a Team holds the 26 letters A–Z as {GROUP_COUNT} groups of {GROUP_SIZE} and "
                f"{BONUS_SIZE} bonus letters (use parse_team), got {excerpt(groups)} + "
                f"{excerpt(bonus)}"
            )
        object.__setattr__(self, "groups", tuple(str.__str__(g) for g in groups))
        object.__setattr__(self, "bonus", str.__str__(bonus))
        object.__setattr__(
            self, "name", require_text("team name", self.name, TeamError, MAX_NAME_LENGTH)
        )

    def letters(self, character: Character) -> str:
        """The four letters a character holds, as spelled in the list (for naming mages)."""
        return self.groups[character.lane - 1]

    def runes_of(
        self, character: Character, rules: RulesConfig = DEFAULT_RULES
    ) -> tuple[Rune, ...]:
        """The character's own four runes (R21)."""
        book = grimoire(rules)
        character = require_instance("character", character, Character, TeamError)
        return tuple(book[letter] for letter in self.letters(character))

    def bonus_runes(self, rules: RulesConfig = DEFAULT_RULES) -> tuple[Rune, ...]:
        book = grimoire(rules)
        return tuple(book[letter] for letter in self.bonus)

    def holder(self, letter: str) -> Character | None:
        """The character holding a letter, or ``None`` for a bonus rune."""
        wanted = str.__str__(letter).upper() if isinstance(letter, str) else ""
        if len(wanted) == 1:
            for character in CHARACTERS:
                if wanted in self.letters(character):
                    return character
            if wanted in self.bonus:
                return None
        raise TeamListError(
            f"{excerpt(letter)} is not a rune letter of this team",
            TeamMistake.NOT_IN_TEAM,
            character=wanted[:1],
        )

    def __str__(self) -> str:
        return "/".join(self.groups) + "+" + self.bonus


class TeamMistake(StrEnum):
    """What is wrong with a team list (or a team lookup): the ``kind`` of a
    :class:`TeamListError`, for readers that say it in their own words."""

    NOT_A_STRING = "not_a_string"
    EMPTY = "empty"
    FORBIDDEN_CHARACTER = "forbidden_character"
    SEVERAL_PLUS = "several_plus"
    NO_GROUPS = "no_groups"
    GROUP_COUNT = "group_count"
    GROUP_SIZE = "group_size"
    EMPTY_BONUS = "empty_bonus"
    BONUS_SIZE = "bonus_size"
    REPEATED_LETTER = "repeated_letter"
    TOO_LONG = "too_long"
    UNKNOWN_PRESET = "unknown_preset"
    NOT_IN_TEAM = "not_in_team"


#: The place of a letter in :attr:`TeamListError.places` when it is in the bonus part.
BONUS_PLACE = 0


class TeamListError(TeamError):
    """A team-list mistake: the English message, and the same facts as data.

    ``kind`` says what is wrong; the other fields are set when they apply (else ``None``,
    ``""`` or ``()``): ``position`` is the 1-based offset of the offending character or
    group in the text, ``line`` and ``column`` the same place counted in lines (both
    1-based); ``token`` the group, bonus part, preset key or type name at fault;
    ``character`` the offending character or letter; ``count`` how many groups or letters
    were found; ``places`` where a letter stands, in order: a group 1–6 (its lane) or
    :data:`BONUS_PLACE`.
    """

    def __init__(
        self,
        message: str,
        kind: TeamMistake,
        *,
        text: str = "",
        position: int | None = None,
        token: str = "",
        character: str = "",
        count: int | None = None,
        places: tuple[int, ...] = (),
    ) -> None:
        super().__init__(message)
        self.kind = kind
        self.position = position
        self.line: int | None = None
        self.column: int | None = None
        if position is not None:
            before = text[: position - 1]
            self.line = before.count("\n") + 1
            self.column = position - (before.rfind("\n") + 1)
        self.token = token
        self.character = character
        self.count = count
        self.places = places


def _fail(message: str, kind: TeamMistake, **data: Any) -> TeamListError:
    return TeamListError(f"invalid team list: {message}", kind, **data)


#: A letter of the list with its 0-based offset in the text.
_Letter = tuple[str, int]


def _letters(text: str, start: int, end: int) -> list[_Letter]:
    return [(text[i], i) for i in range(start, end) if text[i] not in _SEPARATORS]


def _split_groups(main: str) -> list[list[_Letter]]:
    """Groups are separated by '/' or line breaks; failing those, by spaces between words."""
    if re.search(r"[/\n]", main):
        bounds = [-1, *(m.start() for m in re.finditer(r"[/\n]", main)), len(main)]
        parts = [_letters(main, a + 1, b) for a, b in itertools.pairwise(bounds)]
        return [part for part in parts if part]
    words = [_letters(main, m.start(), m.end()) for m in re.finditer(r"\S+", main)]
    if len(words) == 1 and len(words[0]) == GROUP_SIZE * GROUP_COUNT:
        word = words[0]
        return [word[i : i + GROUP_SIZE] for i in range(0, len(word), GROUP_SIZE)]
    if all(len(w) == 1 for w in words) and len(words) == GROUP_SIZE * GROUP_COUNT:
        letters = [word[0] for word in words]
        return [letters[i : i + GROUP_SIZE] for i in range(0, len(letters), GROUP_SIZE)]
    return words


def _spelled(letters: list[_Letter]) -> str:
    return "".join(letter for letter, _ in letters)


def _place_name(place: int) -> str:
    return "the bonus" if place == BONUS_PLACE else f"group {place}"


def parse_team(text: str, *, name: str = "") -> Team:
    """Parse a team list such as ``"FLEX/CROQ/MYTH/BIDZ/PUNK/JAWS+VG"`` (R27).

    Spaces and ``/`` separate; case is ignored; every letter A–Z must appear exactly once.
    Without a ``+`` part, 24 distinct letters leave the two bonus letters. Any other input
    raises :class:`TeamListError` (a :class:`~akvo.errors.TeamError`) naming the problem in
    its message and in its fields.
    """
    if not isinstance(text, str):
        kind = type(text).__name__
        raise _fail(f"expected a string, got {kind}", TeamMistake.NOT_A_STRING, token=kind)
    text = str.__str__(text)
    if len(text) > MAX_LIST_LENGTH:
        raise _fail(
            f"the list has {len(text)} characters; at most {MAX_LIST_LENGTH} are read",
            TeamMistake.TOO_LONG,
            count=len(text),
        )
    name = require_text("team name", name, TeamError, MAX_NAME_LENGTH)
    if not text.strip():
        raise _fail("the list is empty", TeamMistake.EMPTY)
    for position, char in enumerate(text, start=1):
        if char not in _ALLOWED:
            kind = "digit" if char.isdigit() else "character"
            raise _fail(
                f"unknown {kind} {char!r} at position {position}; only letters A–Z, "
                "spaces, '/' and one '+' are allowed",
                TeamMistake.FORBIDDEN_CHARACTER,
                text=text,
                position=position,
                character=char,
            )
    plus_at = [i + 1 for i, char in enumerate(text) if char == "+"]
    if len(plus_at) > 1:
        raise _fail(
            "more than one '+' (the bonus part comes once, at the end)",
            TeamMistake.SEVERAL_PLUS,
            text=text,
            position=plus_at[1],
            character="+",
            count=len(plus_at),
        )
    upper = text.upper()
    main_end = plus_at[0] - 1 if plus_at else len(upper)
    groups = _split_groups(upper[:main_end])
    if not groups:
        raise _fail(
            "no letter groups before '+'", TeamMistake.NO_GROUPS, text=text, position=plus_at[0]
        )
    if len(groups) != GROUP_COUNT:
        raise _fail(
            f"found {len(groups)} letter groups; a team has {GROUP_COUNT} (one per lane)",
            TeamMistake.GROUP_COUNT,
            count=len(groups),
        )
    for index, group in enumerate(groups, start=1):
        if len(group) != GROUP_SIZE:
            raise _fail(
                f"group {index} {_spelled(group)!r} has {len(group)} letters; each character "
                f"holds exactly {GROUP_SIZE} runes",
                TeamMistake.GROUP_SIZE,
                text=text,
                position=group[0][1] + 1,
                token=_spelled(group),
                count=len(group),
                places=(index,),
            )
    bonus_letters = _letters(upper, main_end + 1, len(upper)) if plus_at else []
    bonus = _spelled(bonus_letters)
    if plus_at and not bonus:
        raise _fail(
            "the bonus part after '+' is empty; it needs 2 letters",
            TeamMistake.EMPTY_BONUS,
            text=text,
            position=plus_at[0],
            count=0,
            places=(BONUS_PLACE,),
        )
    if plus_at and len(bonus) != BONUS_SIZE:
        raise _fail(
            f"the bonus part {bonus!r} has {len(bonus)} letters; it needs {BONUS_SIZE}",
            TeamMistake.BONUS_SIZE,
            text=text,
            position=bonus_letters[0][1] + 1,
            token=bonus,
            count=len(bonus),
            places=(BONUS_PLACE,),
        )
    seen: dict[str, int] = {}
    places = [*enumerate(groups, start=1), (BONUS_PLACE, bonus_letters)]
    for place, letters in places:
        for letter, offset in letters:
            if letter in seen:
                where = tuple(dict.fromkeys((seen[letter], place)))
                raise _fail(
                    f"letter {letter!r} appears twice "
                    f"({' and '.join(_place_name(p) for p in where)}); each rune exists once",
                    TeamMistake.REPEATED_LETTER,
                    text=text,
                    position=offset + 1,
                    character=letter,
                    places=where,
                )
            seen[letter] = place
    if not plus_at:
        missing = sorted(set(string.ascii_uppercase) - set(seen))
        bonus = "".join(missing)
    return Team(groups=tuple(_spelled(g) for g in groups), bonus=bonus, name=name)


def preset_team(key: str) -> Team:
    """A preset team of the annex by key (``"perrockiss"``, ``"fish-tank"``…)."""
    preset = PRESET_TEAMS.get(str.__str__(key)) if isinstance(key, str) else None
    if preset is None:
        raise TeamListError(
            f"unknown preset team {excerpt(key)}; choose one of {', '.join(PRESET_TEAMS)}",
            TeamMistake.UNKNOWN_PRESET,
            token=str.__str__(key)[:40] if isinstance(key, str) else type(key).__name__,
        )
    return parse_team(preset.team_list, name=preset.name)
