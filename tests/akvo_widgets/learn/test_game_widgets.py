"""The whole-game widgets without a browser: every text they show comes from the engine.

Each test drives a widget from Python, as a reader would in the browser, and compares what
it shows with what :mod:`akvo.match` itself says for the same position or line.
"""

from __future__ import annotations

import base64
import random
import re
from collections.abc import Callable
from fractions import Fraction

import pytest

from akvo.config import RulesConfig
from akvo.errors import TeamError
from akvo.match import MatchState, new_match, scenario
from akvo.match.phases import Phase
from akvo.match.preview import target_values
from akvo.rules import CHARACTERS, PRESET_TEAMS, Character
from akvo.teams import BONUS_PLACE, TeamListError, parse_team, preset_team
from akvo_widgets import (
    EndOfMatch,
    MovementLab,
    TeamBuilder,
    TeamSharing,
    TurnStepper,
    UltimeScenes,
)
from akvo_widgets.board.view import typeset
from akvo_widgets.board.widget import Board
from akvo_widgets.learn import examples_game as ex
from akvo_widgets.learn.playthrough import (
    LineError,
    play_line,
    play_quietly_to_the_end,
    quiet_action,
)
from akvo_widgets.learn.positions import orders_action, play_move, verdict
from akvo_widgets.learn.sharing import default_split, sharing_notes
from akvo_widgets.learn.stepper import DEMO_ORDERS, demo_action
from akvo_widgets.learn.team_builder import CUSTOM, default_mage_name, foreign_letters
from akvo_widgets.learn.ultimes import SCENES
from akvo_widgets.text.formatting import fraction, french, percent
from akvo_widgets.text.team_errors import FALLBACK, mistake_html, team_error_french

NBSP = "\u00a0"


def text(html: str) -> str:
    """The visible text of an HTML fragment, spaces normalised."""
    plain = re.sub(r"<[^>]+>", "", html).replace("&nbsp;", NBSP)
    return re.sub(r"[ \t\n]+", " ", plain).strip()


# --- Team-list errors in French (R27) ---------------------------------------------------

ERRORS = {
    "": "La liste est vide : tapez 26 lettres.",
    "AB3": "Le chiffre « 3 » (position 3) n’a pas sa place dans une liste : seulement des "
    "lettres de A à Z, des espaces, des « / » et un « + ».",
    "AB*": "Le caractère « * » (position 3) n’a pas sa place dans une liste : seulement des "
    "lettres de A à Z, des espaces, des « / » et un « + ».",
    "A+B+C": "Il y a plus d’un « + » : les deux runes bonus viennent une seule fois, à la fin.",
    "+AB": "Il n’y a aucun groupe de lettres avant le « + ».",
    "ABCD/EFGH": "La liste a 2 groupes de lettres : il en faut 6, un par couloir (R1).",
    "FLEX/CRO/MYTH/BIDZ/PUNK/JAWS+VG": "Le groupe 2 (Kitesurfeur), « CRO », a 3 lettres : "
    "chaque personnage a exactement 4 runes.",
    "FLEX/CROQ/MYTH/BIDZ/PUNK/JAWS+": "Rien après le « + » : il faut les 2 lettres des "
    "runes bonus.",
    "FLEX/CROQ/MYTH/BIDZ/PUNK/JAWS+VGA": "Les runes bonus « VGA » comptent 3 lettres : il en "
    "faut exactement 2.",
    "FLEX/CROQ/MYTH/BIDZ/PUNK/JAWF+VG": "La lettre F apparaît deux fois, dans le groupe 1 "
    "(Pédalair) et dans le groupe 6 (Plongeur) : chaque rune n’existe qu’une fois dans une "
    "équipe.",
    "FLEX/CROQ/MYTH/BIDZ/PUNK/JAWS+VF": "La lettre F apparaît deux fois, dans le groupe 1 "
    "(Pédalair) et dans les runes bonus : chaque rune n’existe qu’une fois dans une équipe.",
    "FLEE/CROQ/MYTH/BIDZ/PUNK/JAWS+VG": "La lettre E apparaît deux fois, dans le groupe 1 "
    "(Pédalair) : chaque rune n’existe qu’une fois dans une équipe.",
    "FLEX/CROQ/MYTH/BIDZ/PUNK/JAWS+VV": "La lettre V apparaît deux fois, dans les runes "
    "bonus : chaque rune n’existe qu’une fois dans une équipe.",
    "FLEX\nCROQ\nMY.TH": "Le caractère « . » (ligne 3, position 3) n’a pas sa place dans une "
    "liste : seulement des lettres de A à Z, des espaces, des « / » et un « + ».",
    "FLEX/CROQ/MYTH/BIDZ/PUNK/JAWS+V": "Les runes bonus « V » comptent 1 lettre : il en faut "
    "exactement 2.",
    "FLEX/CROQ/MYTH/BIDZ/PUNK/J+VG": "Le groupe 6 (Plongeur), « J », a 1 lettre : chaque "
    "personnage a exactement 4 runes.",
    "FLEXCROQ": "La liste a 1 groupe de lettres : il en faut 6, un par couloir (R1).",
}


@pytest.mark.parametrize("team_list", ERRORS, ids=repr)
def test_every_team_list_error_is_named_in_french(team_list: str) -> None:
    with pytest.raises(TeamError) as caught:
        parse_team(team_list)
    assert team_error_french(caught.value) == french(ERRORS[team_list])


def test_an_unknown_engine_message_still_gets_french() -> None:
    assert team_error_french(TeamError("something new")) == french(FALLBACK)
    assert mistake_html("ABC", TeamError("something new")) == ""


def test_the_french_comes_from_the_fields_not_the_english() -> None:
    """Same data, another English sentence: the French does not change."""
    with pytest.raises(TeamListError) as caught:
        parse_team("FLEX/CROQ/MYTH/BIDZ/PUNK/JAWF+VG")
    error = caught.value
    expected = team_error_french(error)
    error.args = ("a rewritten engine message",)
    assert team_error_french(error) == expected
    error.places = (2, BONUS_PLACE)
    assert "dans le groupe 2 (Kitesurfeur) et dans les runes bonus" in team_error_french(error)


@pytest.mark.parametrize(
    ("call", "sentence"),
    [
        (lambda: parse_team(7), "La liste d’équipe doit être un texte de 26 lettres."),  # type: ignore[arg-type]
        (
            lambda: preset_team("atlantis"),
            "Le livret n’a pas d’équipe « atlantis » : choisissez-en une dans la liste.",
        ),
        (
            lambda: preset_team("perrockiss").holder("9"),
            "« 9 » n’est pas une lettre de rune de cette équipe.",
        ),
    ],
)
def test_lookup_errors_in_french(call: Callable[[], object], sentence: str) -> None:
    with pytest.raises(TeamError) as caught:
        call()
    assert team_error_french(caught.value) == french(sentence)


@pytest.mark.parametrize(
    ("team_list", "marked"),
    [
        ("FLEX/CRO1/MYTH", "FLEX/CRO<mark>1</mark>/MYTH"),
        ("FLEX/CROQ/M Y T/BIDZ/PUNK/JAWS", "FLEX/CROQ/<mark>M Y T</mark>/BIDZ/PUNK/JAWS"),
        ("FLEX/CROQ/MYTH/BIDZ/PUNK/JAWS+VF", "FLEX/CROQ/MYTH/BIDZ/PUNK/JAWS+V<mark>F</mark>"),
        ("A<B", "A<mark>&lt;</mark>B"),
        ("ABCD/EFGH", ""),
    ],
)
def test_the_mistake_is_marked_in_the_typed_list(team_list: str, marked: str) -> None:
    with pytest.raises(TeamError) as caught:
        parse_team(team_list)
    assert mistake_html(team_list, caught.value) == marked


# --- Team builder and score sheet -----------------------------------------------------------


def test_team_builder_shows_each_characters_runes_with_categories() -> None:
    builder = TeamBuilder()
    editor = builder.editors[0]
    team = preset_team("perrockiss")
    assert editor.team is not None and str(editor.team) == str(team)
    shown = text(editor.runes.value)
    for character in CHARACTERS:
        for rune in team.runes_of(character):
            assert f"{rune.letter} {rune.name} ({rune.category.label})" in shown
    assert "Q Queue de poisson (Attaque)" in shown and "W Winch (Mouvement)" in shown
    names = [box.value for box in editor.mage_names.values()]
    assert names == ["Legs", "Vunf", "Jack", "Zbim", "Pyth", "Drox"]


def test_typing_a_wrong_list_names_the_mistake_and_switches_to_custom() -> None:
    editor = TeamBuilder().editors[0]
    editor.team_list.value = "LEGS/VUNF/JACK/ZBIM/PYTH/DROX+QQ"
    assert editor.preset.value == CUSTOM
    assert editor.team is None
    expected = french(
        "La lettre Q apparaît deux fois, dans les runes bonus : chaque rune n’existe qu’une "
        "fois dans une équipe."
    )
    assert editor.error == expected
    assert text(editor.message.value) == expected
    assert "LEGS/VUNF/JACK/ZBIM/PYTH/DROX+Q<mark>Q</mark>" in editor.mistake.value
    assert editor.runes.value == ""
    editor.team_list.value = "legs vunf jack zbim pyth drox"  # R27: the bonus is what is left
    assert editor.team is not None and editor.team.bonus == "QW"
    assert editor.mistake.value == ""


def test_the_three_identical_annex_lists_show_the_misprint_note() -> None:
    editor = TeamBuilder().editors[0]
    editor.preset.value = "iragwak"
    assert "akvo-team-misprint" in editor.message.value
    assert "R28" in editor.message.value
    editor.preset.value = "pink-star"
    assert "akvo-team-misprint" not in editor.message.value
    assert editor.team_name.value == PRESET_TEAMS["pink-star"].name


def test_mage_names_are_checked_against_their_letters() -> None:
    team = preset_team("perrockiss")
    assert default_mage_name(team, Character.PLONGEUR) == "Drox"
    assert foreign_letters(team, Character.PEDALAIR, "Gels") == ""
    assert foreign_letters(team, Character.PEDALAIR, "Swqe") == ""  # Q, W: bonus runes
    assert foreign_letters(team, Character.PEDALAIR, "Zorro") == "ORZ"
    editor = TeamBuilder().editors[0]
    editor.mage_names[Character.PEDALAIR].value = "Zorro"
    assert "utilise les lettres O, R, Z" in text(editor.names_note.value)


def test_score_sheet_is_a_printable_page_with_both_teams_and_all_names() -> None:
    builder = TeamBuilder("perrockiss", "fish-tank")
    builder.editors[0].team_name.value = "Les Glénans"
    builder.editors[1].mage_names[Character.PLONGEUR].value = "Guyd"
    link = re.search(r'href="data:text/html;charset=utf-8;base64,([^"]+)"', builder.download.value)
    assert link and 'download="feuille-de-score-akvolition.html"' in builder.download.value
    page = base64.b64decode(link.group(1)).decode()
    assert page == builder.sheet()
    assert "@media print" in page and "window.print()" in page
    for name in ("Les Glénans", "Fish Tank", "Legs", "Drox", "Guyd", "Aérologue", "Atlante"):
        assert name in page
    assert page.count("Score final") == 2


# --- Sharing the characters (annex « Jeu en équipes ») --------------------------------------


def test_sharing_splits_evenly_and_flags_a_shared_ship() -> None:
    assert set(default_split(3).values()) == {1, 2, 3}
    widget = TeamSharing(players=4)
    assert "choisissent ensemble son double-jeton" in widget.notes.value
    widget.players.value = 6
    assert "tient le navire entier" in widget.notes.value
    widget.players.value = 4
    widget.holders[Character.PEDALAIR].value = 2
    assert "Partage inégal" in widget.notes.value
    solo = sharing_notes(default_split(1), 1)
    assert solo == [french("Un seul joueur par camp : il joue ses 6 personnages, navire compris.")]


# --- Quiet turns and the end of the match (R25) ----------------------------------------------


def test_quiet_turn_changes_nothing_on_the_board() -> None:
    state = scenario(turn=5, rows={"A": {"surfeur": 5}, "B": {"surfeur": 6}})
    before = state.observation("A")
    while state.turn == 5:
        state.apply_action(quiet_action(state))
    after = state.observation("A")
    for key in ("rows", "resilience", "scores", "spent_runes", "ultimes_used"):
        assert after[key] == before[key]


def test_verdicts_come_from_the_engine() -> None:
    rows_a = {"surfeur": 5, "navire": 5}
    rows_b = {"pedalair": 4, "kitesurfeur": 4, "plongeur": 4}
    final, lines = verdict(rows_a, rows_b, (2, 2), 10)
    assert (final.result, final.reason) == ("draw", "draw")
    assert lines == [
        "Tour 10 — égalité 2 – 2 : mages dans la moitié adverse, A 3, B 3.",
        "Fin du match — match nul, 2 – 2.",
    ]
    final, lines = verdict(dict(rows_a, navire=4), rows_b, (2, 2), 8)
    assert (final.result, final.reason, final.turn) == ("B", "half", 10)
    assert lines[0] == "Tour 8 — égalité 2 – 2 : deux tours supplémentaires au palier IV."
    final, lines = verdict(rows_a, rows_b, (3, 2), 8)
    assert (final.result, final.reason) == ("A", "score")
    assert lines == ["Fin du match — A gagne, 3 – 2."]


def test_end_of_match_widget_changes_its_result_when_a_unit_moves() -> None:
    widget = EndOfMatch()
    assert widget.final is not None and widget.final.result == "draw"
    assert widget.last_line() == typeset("Fin du match — match nul, 2 – 2.")
    widget.row_a.value = 4  # A's ship leaves B's half: two mages fewer
    assert widget.final.result == "B"
    assert "A 1, B 3" in text(widget.result.value)
    assert widget.board.state.observation("A")["rows"]["A"]["navire"] == 4
    widget.unit.value = "pedalair"
    assert (widget.row_a.value, widget.row_b.value) == (3, 4)
    widget.row_b.value = 3  # cannot share or cross: the engine refuses, nothing changes
    assert "akvo-end-error" in widget.result.value
    widget.score_a.value = 5
    assert "akvo-end-error" in widget.result.value
    widget.row_b.value = 6
    assert widget.final.result == "A" and widget.final.reason == "score"


def test_play_quietly_to_the_end_finishes_a_match() -> None:
    state = new_match()
    lines = play_quietly_to_the_end(state)
    assert state.is_terminal() and state.result == "draw"
    assert lines[-1] == "Fin du match — match nul, 0 – 0."


# --- Movement (R10, R20) --------------------------------------------------------------------


def test_orders_give_the_chosen_unit_its_order() -> None:
    assert orders_action("surfeur", "shoot") == "orders AATA AA"
    assert orders_action("navire", "rune-shoot") == "orders AAAA TT"
    assert orders_action("pedalair", "advance-rune") == "orders AAAA AA"


def test_a_blocked_ship_advances_as_far_as_it_can() -> None:
    outcome = play_move({"navire": 3}, {"navire": 5}, "navire", "advance")
    assert outcome.lines == ("Tour 1 — le navire de A avance de 1 case sur 2 (ligne 4), bloqué.",)
    assert outcome.state.observation("A")["rows"]["A"]["navire"] == 4


def test_movement_lab_follows_the_engine() -> None:
    lab = MovementLab()
    assert "avance de 1 case sur 2 (ligne 4), bloqué" in lab.result.value
    lab.unit.value = "surfeur"
    lab.row_b.value = 8
    lab.order.value = "advance-rune"
    assert text(lab.result.value) == typeset(
        "Tour 1 — le Surfeur de A joue la rune Y (Mouvement) et avance de 2 cases (ligne 5)."
    )
    lab.row_a.value = 6  # one free cell only: the engine offers no Mouvement rune (R20)
    assert "avance de 1 case (ligne 7)" in lab.result.value
    assert "Pas de rune de Mouvement ici" in lab.result.value
    lab.row_a.value = 7
    lab.order.value = "advance"
    assert "est bloqué et reste ligne 7" in lab.result.value


def test_a_blocked_unit_can_still_shoot_with_the_engines_odds() -> None:
    lab = MovementLab("surfeur", 4, 5)
    lab.order.value = "shoot"
    assert lab.outcome is not None
    state = lab.outcome.state
    assert dict(lab.outcome.targets) == target_values(state)
    best = max(target_values(state).items(), key=lambda t: t[1])
    assert french(f"le Surfeur de B : chance de repousser {percent(best[1])}") in lab.result.value
    assert best[0] == "shoot surfeur"


def test_a_mouvement_rune_before_a_shot_moves_the_whole_ship() -> None:
    outcome = play_move({"navire": 3}, {"navire": 6}, "navire", "rune-shoot")
    assert outcome.lines[0].startswith("Tour 1 — le Barreur de A joue la rune W (Mouvement)")
    assert outcome.state.observation("A")["rows"]["A"]["navire"] == 4
    assert outcome.state.phase == Phase.TARGET


def test_movement_lab_refuses_crossing_in_french() -> None:
    lab = MovementLab()
    lab.row_a.value = 6
    assert "akvo-move-error" in lab.result.value
    assert "ne se croisent jamais" in lab.result.value


# --- The turn stepper (R7–R9) ---------------------------------------------------------------


def test_turn_stepper_plays_a_real_turn_one_log_line_at_a_time() -> None:
    stepper = TurnStepper(seed=4)
    lines: list[str] = []
    steps = 0
    while not stepper.finished():
        new = stepper.advance()
        assert new, "each step shows at least one new line"
        lines += new
        steps += 1
        assert typeset(new[0]) in stepper.step.value
    assert stepper.next.disabled
    assert stepper.state.turn == 2
    # The same line replayed through the engine gives the same log.
    again = new_match("perrockiss", "fish-tank")
    rng = random.Random(4)
    while again.turn == 1:
        again.apply_action(demo_action(again, rng))
    assert again.events[1:] == lines
    assert f"ordres révélés : A {DEMO_ORDERS[0][7:]} ; B {DEMO_ORDERS[1][7:]}." in " ".join(lines)
    stepper.reset()
    assert stepper.count == 0 and stepper.state.turn == 1 and not stepper.next.disabled


def test_turn_stepper_shows_the_exact_weather_odds() -> None:
    stepper = TurnStepper(seed=4)
    stepper.advance()
    odds = dict(new_match().chance_outcomes())
    assert odds == {"weather A": Fraction(1, 2), "weather B": Fraction(1, 2)}
    expected = french(f"chance de {fraction(Fraction(1, 2))} ({percent(Fraction(1, 2))})")
    assert expected in text(stepper.step.value)


def test_a_click_on_the_board_plays_the_readers_decision() -> None:
    stepper = TurnStepper(seed=4)
    for _ in range(3):
        stepper.advance()
    assert "activate plongeur" in stepper.state.legal_actions()
    stepper.board.select("A", "plongeur")  # what a click on A's Plongeur does
    assert stepper.state.history[-1] == "activate plongeur"
    assert "Choix joué" in stepper.step.value
    assert stepper.advance() == ["Tour 1 — le Plongeur de A avance de 1 case (ligne 4)."]
    assert isinstance(stepper.board, Board) and stepper.board.state is stepper.state


# --- Ultimes in play (R24) ------------------------------------------------------------------


@pytest.mark.parametrize("scene", SCENES, ids=lambda s: s.key)
def test_every_ultime_scene_plays_to_its_end(scene: object) -> None:
    widget = UltimeScenes(scene.key)  # type: ignore[attr-defined]
    lines = widget.play_all()
    assert widget.finished() and lines
    assert widget.board.state is widget.state
    word = scene.label.split(" (")[0]  # type: ignore[attr-defined]
    assert any(word in line for line in lines) or scene.key == "souffle"


def test_trident_is_three_shots_and_rouleau_takes_the_cell() -> None:
    widget = UltimeScenes("trident")
    lines = widget.play_all()
    assert sum("tire sur" in line for line in lines) == 3
    assert widget.state.observation("A")["ultimes_used"]["A"] == ["plongeur"]
    widget.choice.value = "rouleau"
    assert widget.count == 0
    widget.play_all()
    rows = widget.state.observation("A")["rows"]
    assert (rows["A"]["surfeur"], rows["B"]["surfeur"]) == (5, 6)
    widget.choice.value = "souffle"
    lines = widget.play_all()
    assert widget.state.observation("A")["scores"] == [2, 0]
    assert "Souffle portant : distance de tir 3" in lines[0]


def test_a_wrong_script_is_refused_with_its_action() -> None:
    state = scenario()
    with pytest.raises(LineError, match="'activate navire'"):
        play_line(state, ["weather A", "activate navire"])


# --- Worked examples ---------------------------------------------------------------------------


def test_weather_odds_are_the_engines_chance_outcomes() -> None:
    table = ex.weather_odds().data
    p = dict(scenario(turn=3, bag=[2, 4]).chance_outcomes())["weather A"]
    assert p == Fraction(1, 3)
    assert f"{percent(p)} ({fraction(p)})" in table
    coin = dict(scenario(rules=RulesConfig(weather="coin")).chance_outcomes())
    assert coin["weather A"] == Fraction(1, 2)


def test_reshuffled_bag_for_the_tie_break() -> None:
    assert f"{percent(Fraction(1, 2))} (1/2)" in ex.reshuffled_bag().data


def test_examples_draw_engine_positions_on_the_board() -> None:
    setup = ex.setup_position()
    board = setup.children[1]
    assert isinstance(board, Board)
    assert board.state.observation("A")["rows"] == new_match().observation("A")["rows"]
    assert "ligne 3" in setup.children[0].value and "ligne 6" in setup.children[0].value
    assert not board.flipped
    from_b = ex.setup_seen_from_b()
    turned = from_b.children[1]
    assert isinstance(turned, Board) and turned.flipped and 'data-bottom="B"' in turned.svg
    assert turned.state.observation("B")["rows"] == new_match().observation("B")["rows"]
    assert "ligne 6" in from_b.children[0].value
    tie = ex.tie_break()
    assert isinstance(tie.children[1].state, MatchState) and tie.children[1].state.result == "A"
    assert "Kitesurfeur" in ex.lanes_table().data and "Atlante" in ex.lanes_table().data
    assert "| 9 (départage) | 8 | IV |" in ex.lighthouse_table().data
    assert ex.misprint().data.count("FLEX/CROQ/MYTH/BIDZ/PUNK/JAWS+VG") == 3
