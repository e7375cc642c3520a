"""Team lists (R27–R28)."""

from __future__ import annotations

import pytest

from akvo.errors import AkvoError, TeamError
from akvo.rules import PRESET_TEAMS, Character, RuneCategory
from akvo.teams import TeamListError, TeamMistake, parse_team, preset_team


@pytest.mark.parametrize("key", list(PRESET_TEAMS))
def test_every_annex_team_parses(key: str) -> None:
    team = preset_team(key)
    letters = "".join(team.groups) + team.bonus
    assert sorted(letters) == [chr(c) for c in range(ord("A"), ord("Z") + 1)]
    assert team.name == PRESET_TEAMS[key].name


def test_perrockiss_in_detail() -> None:
    team = preset_team("perrockiss")
    assert team.groups == ("LEGS", "VUNF", "JACK", "ZBIM", "PYTH", "DROX")
    assert team.bonus == "QW"
    assert team.letters(Character.BARREUR) == "JACK"
    assert [r.category for r in team.runes_of(Character.PEDALAIR)] == [
        RuneCategory.RELANCE,
        RuneCategory.DEFENSE,
        RuneCategory.CONFUSION,
        RuneCategory.CONFUSION,
    ]
    assert [r.name for r in team.bonus_runes()] == ["Queue de poisson", "Winch"]
    assert team.holder("u") is Character.KITESURFEUR
    assert team.holder("Q") is None
    assert str(team) == "LEGS/VUNF/JACK/ZBIM/PYTH/DROX+QW"


def test_missing_bonus_is_the_two_letters_left_over() -> None:
    assert preset_team("fish-tank").bonus == "MR"
    assert preset_team("pink-star").bonus == "WX"


@pytest.mark.parametrize(
    "text",
    [
        "FLEX/CROQ/MYTH/BIDZ/PUNK/JAWS+VG",
        "flex croq myth bidz punk jaws + vg",
        "F L E X / C R O Q / M Y T H / B I D Z / P U N K / J A W S + V G",
        "FLEXCROQMYTHBIDZPUNKJAWS+VG",
        "FLEX\nCROQ\nMYTH\nBIDZ\nPUNK\nJAWS",
        "  Flex/Croq/Myth/Bidz/Punk/Jaws  ",
    ],
)
def test_accepted_spellings(text: str) -> None:
    team = parse_team(text)
    assert team.groups == ("FLEX", "CROQ", "MYTH", "BIDZ", "PUNK", "JAWS")
    assert sorted(team.bonus) == ["G", "V"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "the list is empty"),
        ("   \n ", "the list is empty"),
        ("FLEX/CROQ/MYTH/BIDZ/PUNK/JAWE+VG", "letter 'E' appears twice \\(group 1 and group 6\\)"),
        ("FLEXX/CROQ/MYTH/BIDZ/PUNK/JAWS+VG", "group 1 'FLEXX' has 5 letters"),
        ("FLE/CROQ/MYTH/BIDZ/PUNK/JAWS+VG", "group 1 'FLE' has 3 letters"),
        ("FLEX/CRO1/MYTH/BIDZ/PUNK/JAWS+VG", "unknown digit '1' at position 9"),
        ("FLEX/CROQ/MYTH/BIDZ/PUNK/JAWS/VG", "found 7 letter groups"),
        ("FLEX/CROQ/MYTH/BIDZ/PUNK+VG", "found 5 letter groups"),
        ("FLEX/CROQ/MYTH/BIDZ/PUNK/JAWS+V", "bonus part 'V' has 1 letters"),
        ("FLEX/CROQ/MYTH/BIDZ/PUNK/JAWS+VGU", "bonus part 'VGU' has 3 letters"),
        ("FLEX/CROQ/MYTH/BIDZ/PUNK/JAWS+", "bonus part after '\\+' is empty"),
        (
            "FLEX/CROQ/MYTH/BIDZ/PUNK/JAWS+VF",
            "letter 'F' appears twice \\(group 1 and the bonus\\)",
        ),
        ("FLEX/CROQ/MYTH/BIDZ/PUNK/JAWS+VV", "letter 'V' appears twice \\(the bonus\\)"),
        ("FLEX/CROQ/MYTH/BIDZ/PUNK/JAWF", "letter 'F' appears twice"),  # no bonus, duplicates
        ("FLEX/CROQ/MYTH/BIDZ/PUNK/JAWS+V+G", "more than one '\\+'"),
        ("FLEX;CROQ;MYTH;BIDZ;PUNK;JAWS+VG", "unknown character ';'"),
        ("FLÉX/CROQ/MYTH/BIDZ/PUNK/JAWS+VG", "unknown character 'É'"),
        ("+VG", "no letter groups before"),
    ],
)
def test_bad_team_lists_name_the_problem(text: str, message: str) -> None:
    with pytest.raises(TeamError, match=message) as info:
        parse_team(text)
    assert isinstance(info.value, AkvoError)
    assert str(info.value).startswith("invalid team list: ")


def test_non_string_and_unknown_preset() -> None:
    with pytest.raises(TeamError, match="expected a string, got int"):
        parse_team(42)  # type: ignore[arg-type]
    with pytest.raises(TeamError, match="unknown preset team 'atlantis'"):
        preset_team("atlantis")
    with pytest.raises(TeamError, match="not a rune letter of this team"):
        preset_team("perrockiss").holder("?")


# --- The same mistakes as data (TeamListError's fields) --------------------------------------

FIELDS = ("kind", "position", "line", "column", "token", "character", "count", "places")
K = TeamMistake


@pytest.mark.parametrize(
    ("text", "fields"),
    [
        ("", (K.EMPTY, None, None, None, "", "", None, ())),
        ("FLEX/CRO1/MYTH", (K.FORBIDDEN_CHARACTER, 9, 1, 9, "", "1", None, ())),
        ("FLEX\nCROQ\nMY;TH", (K.FORBIDDEN_CHARACTER, 13, 3, 3, "", ";", None, ())),
        ("AB+C+D", (K.SEVERAL_PLUS, 5, 1, 5, "", "+", 2, ())),
        ("  +VG", (K.NO_GROUPS, 3, 1, 3, "", "", None, ())),
        ("ABCD/EFGH", (K.GROUP_COUNT, None, None, None, "", "", 2, ())),
        ("FLEX/CROQ/MY TH X/BIDZ/PUNK/JAWS+VG", (K.GROUP_SIZE, 11, 1, 11, "MYTHX", "", 5, (3,))),
        ("FLEX\nCROQ\nMYTH\nBIDZ\nPUN\nJAWS", (K.GROUP_SIZE, 21, 5, 1, "PUN", "", 3, (5,))),
        ("FLEX/CROQ/MYTH/BIDZ/PUNK/JAWS + ", (K.EMPTY_BONUS, 31, 1, 31, "", "", 0, (0,))),
        ("FLEX/CROQ/MYTH/BIDZ/PUNK/JAWS+ v g a", (K.BONUS_SIZE, 32, 1, 32, "VGA", "", 3, (0,))),
        ("flex/croq/myth/bidz/punk/jawf+vg", (K.REPEATED_LETTER, 29, 1, 29, "", "F", None, (1, 6))),
        ("FLEX/CROQ/MYTH/BIDZ/PUNK/JAWS+VF", (K.REPEATED_LETTER, 32, 1, 32, "", "F", None, (1, 0))),
        ("FLEE/CROQ/MYTH/BIDZ/PUNK/JAWS+VG", (K.REPEATED_LETTER, 4, 1, 4, "", "E", None, (1,))),
        ("FLEX/CROQ/MYTH/BIDZ/PUNK/JAWS+VV", (K.REPEATED_LETTER, 32, 1, 32, "", "V", None, (0,))),
    ],
    ids=repr,
)
def test_each_mistake_carries_its_data(text: str, fields: tuple[object, ...]) -> None:
    with pytest.raises(TeamListError) as info:
        parse_team(text)
    error = info.value
    assert isinstance(error, TeamError)
    assert tuple(getattr(error, name) for name in FIELDS) == fields
    if error.position is not None:  # the position points at the culprit in the text
        culprit = error.character or error.token[:1] or "+"
        assert text[error.position - 1].upper() == culprit


def test_lookups_carry_their_data_too() -> None:
    with pytest.raises(TeamListError) as info:
        parse_team(42)  # type: ignore[arg-type]
    assert (info.value.kind, info.value.token) == (K.NOT_A_STRING, "int")
    with pytest.raises(TeamListError) as info:
        preset_team("atlantis")
    assert (info.value.kind, info.value.token) == (K.UNKNOWN_PRESET, "atlantis")
    with pytest.raises(TeamListError) as info:
        preset_team("perrockiss").holder("?")
    assert (info.value.kind, info.value.character) == (K.NOT_IN_TEAM, "?")
