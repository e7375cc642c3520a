"""The live board without a browser: drive it from Python and through the messages its
browser module sends, and compare what it shows with the engine's exact values."""

from __future__ import annotations

import random
import re
from fractions import Fraction
from html import unescape

import pytest

from akvo.errors import AkvoError
from akvo.match import new_match, scenario
from akvo.match.board import CHAR_NAMES
from akvo.match.phases import Phase
from akvo.match.preview import target_values, unit_preview
from akvo.match.state import MatchState
from akvo.shots import Side, shot_on_chest, shot_on_mage
from akvo_widgets import Board
from akvo_widgets.board.svg import odds_text
from akvo_widgets.board.widget import BoardError, clickable_sides
from akvo_widgets.text.formatting import decimal, percent

TARGET = re.compile(r'<g class="akvo-board-target" data-action="([^"]+)"[^>]*data-odds="([^"]+)"')
LISTED = re.compile(r'<li data-action="([^"]+)" data-odds="([^"]+)"')


def shown_odds(board: Board) -> dict[str, str]:
    """Every shot the selection lists under the board: its action → the odds it shows. The
    board's badges show one shot per target cell (the plain one where there is one), each
    with the same odds as the list."""
    listed = {action: unescape(odds) for action, odds in LISTED.findall(board.details)}
    badges = {action: unescape(odds) for action, odds in TARGET.findall(board.overlay)}
    assert badges.items() <= listed.items()
    plain = {a.removesuffix(" souffle") for a in listed if not a.endswith(" souffle")}
    expected = {
        a for a in listed if not a.endswith(" souffle") or a[: -len(" souffle")] not in plain
    }
    assert set(badges) == expected
    for action, odds in badges.items():  # the visible label says the same
        label = ("S " if action.endswith(" souffle") else "") + odds
        assert f">{label}</text>" in unescape(board.overlay), action
    return listed


def refuses(board: Board, option: str, value: object) -> None:
    """Setting ``option`` to a bad ``value`` raises the board's error and changes nothing."""
    before = getattr(board, option)
    with pytest.raises(BoardError, match=f"{option} must be"):
        setattr(board, option, value)
    assert getattr(board, option) == before


def click(board: Board, **content: str) -> None:
    """What board.js sends when a button is clicked or activated with Enter."""
    board._handle_custom_msg(content, [])


def position() -> MatchState:
    return scenario(
        turn=3,
        rows={"A": {"surfeur": 5, "navire": 4}, "B": {"plongeur": 5}},
        resilience={"B": {"surfeur": 1}},
    )


def play_until(state: MatchState, phase: Phase, seed: int = 3) -> MatchState:
    """Play seeded random actions until ``phase`` is reached (a real engine state)."""
    rng = random.Random(seed)
    while state.phase != phase:
        assert not state.is_terminal(), f"no {phase.label} node reached"
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            legal = state.legal_actions()
            # Tirer orders everywhere, so that shots (and target decisions) come soon.
            orders = [a for a in legal if a.startswith("orders TTTT")]
            state.apply_action(rng.choice(orders or list(legal)))
    return state


# --- Drawing -------------------------------------------------------------------------------


def test_a_new_board_draws_a_new_match_with_every_unit() -> None:
    board = Board()
    assert board.state.turn == 1
    assert board.svg.count('class="akvo-board-unit') == 12
    assert board.svg.count('class="akvo-board-chest"') == 12
    assert board.svg.count('class="akvo-board-ship"') == 2
    assert "akvo-board" in board._dom_classes
    assert "Tour 1" in board.status and "palier I " in board.status
    assert board.selected is None and board.preview is None and board.overlay == ""


def test_units_sit_on_their_rows_with_their_resilience_and_used_ultimes() -> None:
    state = scenario(
        turn=7,
        rows={"A": {"surfeur": 5}},
        resilience={"B": {"plongeur": 2}},
        ultimes_used={"A": ["plongeur"]},
        spent={"B": "RM"},
        scores=[3, 1],
    )
    board = Board(state, interactive=False)
    unit = re.search(r'data-side="A" data-character="surfeur" data-row="(\d)"', board.svg)
    assert unit is not None and unit.group(1) == "5"
    assert "Plongeur de B, ligne 6, Résilience 2" in board.svg
    assert "Ultime Trident utilisé" in board.svg
    assert "runes dépensées\u00a0: M, R" in board.status
    assert "Ultimes utilisés\u00a0: Trident" in board.status
    assert "A <b>3</b> – <b>1</b> B" in board.status
    assert "phare au niveau 7 · palier IV" in board.status
    assert 'data-level="7" data-tier="4"' in board.svg
    assert "data-hit" not in board.svg  # not interactive: no buttons


def test_status_names_whose_decision_it_is() -> None:
    state = play_until(new_match(), Phase.ORDERS)
    board = Board(state)
    assert "À A de décider" in board.status
    assert "A programme ses ordres en secret." in board.status
    assert "Au hasard" in Board(new_match()).status


def test_orders_are_shown_only_to_whom_may_see_them() -> None:
    state = play_until(new_match(), Phase.ORDERS)
    state.apply_action("orders AATT AT-B")  # A has programmed, B has not
    assert 'class="akvo-board-order"' not in Board(state).svg
    assert 'class="akvo-board-order"' not in Board(state, viewer="B").svg
    own = Board(state, viewer="A").svg
    assert own.count('class="akvo-board-order"') == 6  # every mage carries its own letter
    # The ship's Avancer / Tirer token, the Barreur shooting: T on the Barreur, A on the
    # Lanceur (the token's orientation, R9).
    for name, letter in (("surfeur", "T"), ("barreur", "T"), ("lanceur", "A")):
        mage = re.search(rf'data-character="{name}".*?</g>', own)
        assert mage is not None and f">{letter}</text>" in mage.group(0), name
    assert "ordre Avancer" in own and "double-jeton du navire AT-B" in own


def test_the_favoured_side_is_marked_once_the_weather_is_drawn() -> None:
    state = scenario(turn=2)
    assert "akvo-board-favoured" not in Board(state).svg
    state.apply_action("weather B")
    board = Board(state)
    assert '<g class="akvo-board-favoured" data-side="B">' in board.svg
    assert board.svg.count("akvo-board-favoured") == 1
    assert "météo\u00a0: B avantagé" in board.status


def test_setting_the_state_redraws() -> None:
    board = Board(position())
    before = board.svg
    board.state = scenario(turn=5, rows={"B": {"surfeur": 4}})
    assert board.svg != before
    assert "Tour 5" in board.status
    assert 'data-character="surfeur" data-row="4"' in board.svg


# --- Selection and odds ---------------------------------------------------------------------


def test_selecting_a_shooter_shows_every_target_with_the_engines_odds() -> None:
    state = position()
    board = Board(state)
    board.select("A", "surfeur")
    assert board.selected == (0, 4)
    preview = unit_preview(state, 0, 4)
    assert board.preview == preview
    shown = shown_odds(board)
    assert shown == {t.action: odds_text(t) for t in preview.targets}
    # The engine's exact numbers, independently: B's Surfeur (Résilience 1) one mile away,
    # and the chest of lane 5, four miles away, its interceptor (B's Surfeur) one mile away.
    on_surfeur = shot_on_mage(2, 1, Side(), Side(resilience=1))
    assert shown["shoot surfeur"] == percent(on_surfeur.p_push)
    on_chest = shot_on_chest(2, 4, 1, Side(), Side(resilience=1))
    assert shown["shoot chest"] == f"{decimal(on_chest.expected_points, 2)}\u00a0pt"
    assert "shoot chest souffle" in shown
    assert "Surfeur de A" in board.details and "ne peut pas avancer" in board.details


def test_the_precomputed_choices_are_exactly_what_a_selection_shows() -> None:
    """The browser shows ``choices[key]`` at once on a click; Python's answer must agree."""
    for state in (position(), play_until(new_match(), Phase.ACTIVATE)):
        board = Board(state)
        sides = clickable_sides(state)
        assert len(board.choices) == 1 + 6 * len(sides)
        for key, choice in board.choices.items():
            if key:
                _, side, name = key.split("-")
                click(board, kind="unit", side=side, character=name)
            else:
                click(board, kind="escape")
            assert (board.overlay, board.details) == (choice["overlay"], choice["details"])
            assert board.selected_key == key


def test_advance_cells_follow_the_preview() -> None:
    board = Board(position())
    board.select(0, "plongeur")
    assert board.preview is not None and board.preview.advance_rows == (4,)
    assert 'class="akvo-board-advance" data-row="4" data-lane="6"' in board.overlay
    assert "peut avancer jusqu’à la ligne 4" in board.details


def test_bad_selections_raise_a_clear_error_and_change_nothing() -> None:
    board = Board(position())
    board.select(0, 4)
    for side, character in ((2, 0), ("C", "surfeur"), (True, 0), (0, "capitaine"), (0, 6)):
        with pytest.raises(BoardError) as error:
            board.select(side, character)  # type: ignore[arg-type]
        assert isinstance(error.value, AkvoError)
        assert board.selected == (0, 4)
    with pytest.raises(BoardError, match="MatchState"):
        board.state = "perrockiss"  # type: ignore[assignment]
    with pytest.raises(BoardError, match="side"):
        Board(viewer="C")  # type: ignore[arg-type]


def test_a_click_selects_only_a_unit_of_a_side_that_may_play() -> None:
    state = play_until(new_match(), Phase.ORDERS)
    assert clickable_sides(state) == (0,)
    board = Board(state)
    assert 'data-side="A" data-character="surfeur" data-row="3" data-hit="unit"' in board.svg
    assert 'data-side="B" data-character="surfeur" data-row="6" data-hit' not in board.svg
    click(board, kind="unit", side="B", character="surfeur")
    assert board.selected is None
    click(board, kind="unit", side="A", character="surfeur")
    assert board.selected == (0, 4)
    click(board, kind="escape")
    assert board.selected is None
    click(board, kind="unit", side="A", character="nobody")  # ignored, never raised
    click(board, kind="???")
    assert board.selected is None


# --- Actions --------------------------------------------------------------------------------


def test_a_unit_click_at_an_activation_plays_activate() -> None:
    state = play_until(new_match(), Phase.ACTIVATE)
    side = state.current_player
    board = Board(state)
    played: list[str] = []
    board.on_action(played.append)
    other = "B" if side == 0 else "A"
    click(board, kind="unit", side=other, character="barreur")  # not the side to play
    click(board, kind="unit", side="AB"[side], character="lanceur")
    assert played == ["activate navire"]
    assert all(action in state.legal_actions() for action in played)
    assert board.state is state and state.phase == Phase.ACTIVATE  # never applied


def test_target_clicks_play_only_legal_shots_with_the_engines_values() -> None:
    state = play_until(new_match(), Phase.TARGET)
    board = Board(state)
    shot = state.shot
    assert shot is not None and board.selected == (shot.side, shot.shooter)
    values = target_values(state)
    legal_shown = re.findall(r'<li data-action="([^"]+)"[^>]* data-hit="target"', board.details)
    assert set(board.actions()) == set(values) == set(legal_shown)
    for action, value in values.items():
        target = next(t for t in board.preview.targets if t.action == action)  # type: ignore[union-attr]
        assert target.value == value
    played: list[str] = []
    board.on_action(played.append)
    first = next(iter(values))
    click(board, kind="target", key=first)
    click(board, kind="target", key="shoot nobody")  # not a button: ignored
    click(board, kind="advance", key="advance-9")
    assert played == [first]
    board.on_action(played.append, remove=True)
    click(board, kind="target", key=first)
    assert played == [first]


def test_a_new_state_moves_the_selection_to_the_shooter_and_redraws_the_targets() -> None:
    state = play_until(new_match(), Phase.TARGET)
    board = Board(new_match())
    board.state = state
    assert state.shot is not None
    assert board.selected == (state.shot.side, state.shot.shooter)
    assert board.details.count("<li data-action=") == len(board.preview.targets)  # type: ignore[union-attr]
    assert shown_odds(board) == {t.action: odds_text(t) for t in board.preview.targets}  # type: ignore[union-attr]


def test_a_finished_match_has_no_buttons() -> None:
    from akvo.match import play_match

    board = Board(play_match(seed=7))
    assert board.state.is_terminal()
    assert "data-hit" not in board.svg
    assert "Match terminé" in board.status


def test_values_are_exact_fractions_from_the_engine() -> None:
    board = Board(position())
    board.select(0, 4)
    assert board.preview is not None
    assert all(isinstance(t.value, Fraction) for t in board.preview.targets)
    assert {t.target for t in board.preview.targets} <= {*CHAR_NAMES, "chest"}


# --- Orientation: the board seen from B's seat ------------------------------------------------


def cells(svg: str) -> dict[tuple[int, int], tuple[int, int]]:
    """Each drawn cell's (lane, row) → its (x, y) on screen."""
    found = re.findall(
        r'x="(\d+)" y="(\d+)" width="56" height="60" data-row="(\d)" data-lane="(\d)"', svg
    )
    return {(int(lane), int(row)): (int(x), int(y)) for x, y, row, lane in found}


def unit_order(svg: str) -> list[str]:
    """The mages in document order: the order Tab visits them in."""
    return [
        f"{side}-{name}"
        for side, name in re.findall(
            r'<g class="akvo-board-unit[^"]*" data-side="(\w)" data-character="(\w+)"', svg
        )
    ]


def test_a_board_for_viewer_b_is_turned_half_a_turn() -> None:
    state = position()
    upright, flipped = Board(state), Board(state, viewer="B")
    assert (upright.flipped, flipped.flipped) == (False, True)
    assert 'data-bottom="A"' in upright.svg and 'data-bottom="B"' in flipped.svg
    up, down = cells(upright.svg), cells(flipped.svg)
    assert len(up) == len(down) == 12  # the beaches; the water is one block either way up
    water = re.compile(r'<\w+ class="akvo-board-water"[^>]*>')
    assert len(water.findall(upright.svg)) == 2
    assert water.findall(upright.svg) == water.findall(flipped.svg)
    # Upright: A's beach (row 0) at the bottom, lane 1 on the left.
    assert up[1, 0][1] > up[1, 9][1] and up[1, 0][0] < up[6, 0][0]
    # Flipped: B's beach at the bottom and lane 1 on the right: every cell is where the
    # upright board puts the cell symmetric to it through the centre (a rotation, no mirror).
    assert down[1, 9][1] > down[1, 0][1] and down[1, 0][0] > down[6, 0][0]
    for (lane, row), where in down.items():
        assert where == up[7 - lane, 9 - row]
    # Numbers and letters stay upright and keep their meaning: lane 1 is labelled 1.
    lane_labels = re.findall(
        r'data-lane="(\d)" x="\d+" y="\d+" text-anchor="middle">(\d)<', flipped.svg
    )
    assert lane_labels == [(str(n), str(n)) for n in (6, 5, 4, 3, 2, 1)]
    assert "rotate" not in flipped.svg and "scale(" not in flipped.svg


def test_the_flipped_board_lists_the_bottom_side_first_left_to_right() -> None:
    state = position()
    assert unit_order(Board(state).svg)[:6] == [f"A-{name}" for name in CHAR_NAMES]
    order = unit_order(Board(state, viewer=1).svg)
    assert order == [f"B-{n}" for n in reversed(CHAR_NAMES)] + [
        f"A-{n}" for n in reversed(CHAR_NAMES)
    ]


def test_flipped_is_a_separate_option_that_can_follow_the_viewer() -> None:
    state = position()
    board = Board(state, viewer="A", flipped=True)
    assert board.flipped and 'data-bottom="B"' in board.svg
    board.flipped = None  # follows the viewer again
    assert not board.flipped and 'data-bottom="A"' in board.svg
    board.viewer = "B"
    assert board.flipped
    hot_seat = Board(state)  # no viewer: a spectator's board, flipped on demand
    hot_seat.flipped = True
    assert 'data-bottom="B"' in hot_seat.svg
    refuses(hot_seat, "flipped", "B")
    assert hot_seat.flipped


def test_a_flipped_board_offers_the_same_actions_with_arrows_pointing_forward() -> None:
    for state in (
        position(),
        play_until(new_match(), Phase.TARGET),
        play_until(new_match(), Phase.ADVANCE, 5),
    ):
        upright, flipped = Board(state), Board(state, flipped=True)
        if upright.selected is None:
            upright.select("A", "surfeur")
            flipped.select("A", "surfeur")
        assert upright.choices.keys() == flipped.choices.keys()
        assert upright.selected == flipped.selected
        assert upright.actions() == flipped.actions()
        assert upright.details == flipped.details
        assert shown_odds(upright) == shown_odds(flipped)
        if upright.preview is not None and upright.preview.advance_rows:
            side = upright.preview.side
            assert ("↑" if side == 0 else "↓") in upright.overlay
            assert ("↓" if side == 0 else "↑") in flipped.overlay
        played: list[str] = []
        flipped.on_action(played.append)
        for key in flipped.actions():
            kind = "advance" if key.startswith("advance") else "target"
            click(flipped, kind=kind, key=key)
        assert played == list(upright.actions().values())


# --- What a redraw sends ---------------------------------------------------------------------


def test_a_redraw_sends_choices_only_for_the_mages_the_reader_plays() -> None:
    """``players``: a bot's mages get no precomputed selection; a click still shows them."""
    state = position()  # the weather draw: both sides' mages may be clicked
    board = Board(state, players=["A"])
    assert set(board.choices) == {""} | {f"unit-A-{name}" for name in CHAR_NAMES}
    # A's Surfeur: its selection comes with the position, with the engine's exact odds.
    choice = board.choices["unit-A-surfeur"]
    shown = {action: unescape(odds) for action, odds in TARGET.findall(choice["overlay"])}
    on_surfeur = shot_on_mage(2, 1, Side(), Side(resilience=1))
    assert shown["shoot surfeur"] == percent(on_surfeur.p_push)
    assert "Tirer sur le Surfeur de B" in choice["details"]
    click(board, kind="unit", side="A", character="surfeur")
    assert (board.overlay, board.details) == (choice["overlay"], choice["details"])
    # B's Plongeur: nothing precomputed, but Python answers the click with its targets.
    click(board, kind="unit", side="B", character="plongeur")
    assert board.selected == (1, CHAR_NAMES.index("plongeur"))
    assert board.preview == unit_preview(state, 1, CHAR_NAMES.index("plongeur"))
    assert "Plongeur de B" in board.details and "akvo-board-selected" in board.overlay
    assert board.preview.targets and "Tirer sur" in board.details


def test_at_a_bots_turn_a_redraw_sends_no_choice_but_the_hint() -> None:
    state = play_until(new_match(), Phase.ACTIVATE)
    assert state.current_player == 0
    board = Board(state, players=("B",))
    assert list(board.choices) == [""] and "Choisissez un mage de A" in board.choices[""]["details"]
    board.players = None  # any side: A's mages come with the position again
    assert len(board.choices) == 1 + 6
    with pytest.raises(BoardError, match="players"):
        board.players = "A"  # type: ignore[assignment]
    assert board.players is None and len(board.choices) == 7


def test_a_match_against_a_bot_sends_only_the_readers_choices() -> None:
    from akvo_widgets.play.game import MatchGame

    game = MatchGame(seed=5, opponent="greedy")
    for _ in range(6):
        assert game.board.players == (game.human,)
        side = "AB"[game.human]
        assert {key.split("-")[1] for key in game.board.choices if key} == {side}
        if game.state.phase == Phase.ORDERS:
            game.composer.confirm.click()
        else:
            game.action_buttons.pool[0].click()


# --- Reading the board: legend, letters, badges, status ---------------------------------------


def rich_board() -> Board:
    """A board that draws every symbol: orders, pips, a used Ultime, an activated unit, the
    favoured side, a selection with advance cells and targets (a chest, a Souffle shot)."""
    state = play_until(new_match(), Phase.ACTIVATE)
    state.apply_action(next(a for a in state.legal_actions() if a.startswith("activate")))
    board = Board(state, viewer="A")
    return board


def classes(html: str) -> set[str]:
    return {c for found in re.findall(r'class="([^"]+)"', html) for c in found.split()}


def test_every_board_carries_a_legend_naming_every_symbol_it_draws() -> None:
    from akvo_widgets.board.legend import legend_html

    board = Board(
        scenario(
            turn=3,
            rows={"A": {"surfeur": 5, "navire": 4}, "B": {"plongeur": 5}},
            resilience={"B": {"surfeur": 2}},
            ultimes_used={"A": ["plongeur"]},
        )
    )
    board.select("A", "surfeur")
    assert board.legend == legend_html() and "Légende" not in board.legend  # the toggle's own
    drawn = classes(rich_board().svg) | classes(board.svg) | classes(board.overlay)
    structure = {
        "akvo-board-svg",
        "akvo-board-overlay",
        "akvo-board-focus",
        "akvo-board-level",
        "akvo-board-lit",
        "akvo-board-lighthouse",
        "akvo-board-axis",
    }
    assert drawn - structure <= classes(board.legend), drawn - structure - classes(board.legend)
    text = unescape(board.legend)
    for words in (
        "Pédalair",
        "Plongeur",
        "Résilience",
        "Ultime",
        "Avancer",
        "Tirer",
        "AA",
        "TT",
        "AT",
        "activée",
        "avantagé",
        "Souffle portant",
        "mile",
        "coffre",
        "Mouvement",
        "phare",
    ):
        assert words in text, words


def test_the_letters_are_the_first_two_of_each_characters_name() -> None:
    from akvo.match.board import CHAR_LABELS
    from akvo_widgets.board.svg import LETTERS

    assert LETTERS == ("Pé", "Ki", "Ba", "La", "Su", "Pl")
    assert all(
        label.startswith(letters) for label, letters in zip(CHAR_LABELS, LETTERS, strict=True)
    )
    svg = Board().svg
    for letters in LETTERS:
        assert svg.count(f'text-anchor="middle">{letters}</text>') == 2  # A's and B's


def boxes(svg: str, pattern: str) -> list[tuple[float, float, float, float]]:
    return [tuple(map(float, m)) for m in re.findall(pattern, svg)]  # type: ignore[misc]


def overlaps(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def test_badges_sit_under_the_mage_they_describe_never_over_a_letter() -> None:
    for state in (position(), play_until(new_match(), Phase.TARGET), new_match()):
        board = Board(state)
        for side in (0, 1):
            for character in range(6):
                board.select(side, character)
                chips = boxes(
                    board.overlay,
                    r'class="akvo-board-chip" x="([\d.]+)" y="([\d.]+)" '
                    r'width="([\d.]+)" height="([\d.]+)"',
                )
                # Each letter's box (bold 16-unit text, centred): 24 wide, 13 tall.
                letters = [
                    (float(x) - 12, float(y) - 13, 24.0, 16.0)
                    for x, y in re.findall(
                        r'class="akvo-board-initial" x="([\d.]+)" y="([\d.]+)"', board.svg
                    )
                ]
                assert len(letters) == 12
                cells = boxes(
                    board.overlay,
                    r'class="akvo-board-target-cell" x="([\d.]+)" y="([\d.]+)" '
                    r'width="([\d.]+)" height="([\d.]+)"',
                )
                assert len(chips) == len(cells)
                for chip, cell in zip(chips, cells, strict=True):
                    assert not any(overlaps(chip, letter) for letter in letters)
                    assert cell[0] - 1 <= chip[0] and chip[0] + chip[2] <= cell[0] + cell[2] + 1


def test_badges_go_once_the_target_is_chosen_and_the_selection_once_the_shot_is_over() -> None:
    state = play_until(new_match(), Phase.TARGET)
    board = Board(state)
    shooter = board.selected
    assert shooter is not None and "akvo-board-chip" in board.overlay
    target = next(iter(target_values(state)))
    state.apply_action(target)
    board.state = state
    chosen = re.findall(r'<g class="akvo-board-target" data-action="([^"]+)"', board.overlay)
    assert chosen == [target] and "akvo-board-chip" not in board.overlay  # no stale number
    assert "%" not in board.details
    rng = random.Random(1)
    while state.shot is not None and not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            state.apply_action(state.legal_actions()[0])
        board.state = state
    assert state.shot is None and state.phase != Phase.ADVANCE  # the shot is resolved
    assert board.selected is None and board.overlay == ""  # its badges are gone


def test_the_status_and_the_weather_describe_the_position_shown() -> None:
    from akvo.match import play_match

    over = Board(play_match(seed=7))
    assert "météo" not in over.status and "pas encore" not in over.status
    assert "akvo-board-favoured" not in over.svg and "Match terminé" in over.status
    state = new_match()
    rng = random.Random(2)
    while state.turn < 2 or state.phase != Phase.WEATHER:
        state.apply_action(
            state.sample_chance(rng) if state.is_chance_node() else state.legal_actions()[0]
        )
    assert state.favoured in (0, 1)  # the engine still holds turn 1's side here…
    board = Board(state)
    assert "Tour 2" in board.status and "météo\u00a0: jeton à tirer" in board.status
    assert "akvo-board-favoured" not in board.svg  # …the board does not show it
    state.apply_action("weather A")
    board.state = state
    assert "météo\u00a0: A avantagé" in board.status and "akvo-board-favoured" in board.svg


def test_the_quiz_mode_shows_no_value_anywhere_and_still_plays_clicks() -> None:
    state = play_until(new_match(), Phase.TARGET)
    board = Board(state, values=False)
    board.select(0, "surfeur")
    board.state = state
    synced = [board.overlay, board.details, board.status, board.svg, str(board.choices)]
    for text in synced:
        assert "%" not in text and "\u00a0pt" not in text and "data-odds" not in text
        assert "point en moyenne" not in text and "recul " not in text
    played: list[str] = []
    board.on_action(played.append)
    action = next(iter(target_values(state)))
    assert f'data-action="{action}"' in board.overlay
    click(board, kind="target", key=action)
    assert played == [action]
    board.values = True
    assert "data-odds" in board.overlay
    refuses(board, "values", "no")


def test_the_compact_option_is_a_class_the_page_styles() -> None:
    board = Board(compact=True)
    assert board.compact and "akvo-board-compact" in board._dom_classes
    board.compact = False
    assert not board.compact and "akvo-board-compact" not in board._dom_classes
    refuses(board, "compact", None)
    with pytest.raises(BoardError, match="compact must be"):
        Board(compact=1)  # type: ignore[arg-type]


def test_every_shot_is_listed_and_each_legal_one_is_a_button_souffle_included() -> None:
    state = play_until(new_match(), Phase.TARGET)
    board = Board(state)
    values = target_values(state)
    buttons = re.findall(r'<li data-action="([^"]+)"[^>]* data-hit="target"', board.details)
    assert set(buttons) == set(values)
    played: list[str] = []
    board.on_action(played.append)
    for action in values:
        click(board, kind="target", key=action)
    assert played == list(values)


def _traits(board: Board) -> tuple[str, ...]:
    return (board.svg, board.status, board.overlay, board.details, repr(board.choices))


def test_a_position_drawn_lately_is_shown_again_identical_without_drawing_it_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from akvo_widgets.board import widget as board_module

    first = scenario(turn=10, rows={"A": {"navire": 5}, "B": {"navire": 6}}, scores=[2, 2])
    second = scenario(turn=10, rows={"A": {"navire": 5}, "B": {"navire": 6}}, scores=[3, 2])
    board = Board(first)
    shown_first = _traits(board)
    board.state = second
    shown_second = _traits(board)
    assert shown_second != shown_first  # the score is in the status
    drawn: list[int] = []
    real = Board._drawing
    monkeypatch.setattr(Board, "_drawing", lambda self: drawn.append(1) or real(self))
    board.state = first.copy()  # another object, the same position: taken again
    assert _traits(board) == shown_first and drawn == []
    board.viewer = "B"  # another way to draw it: drawn
    assert drawn == [1]
    # A fresh board draws the same position the same way: nothing stale was kept.
    fresh = Board(first, viewer="B")
    assert _traits(fresh) == _traits(board)
    # At most DRAWINGS_KEPT drawings: the oldest goes first.
    for score in range(board_module.DRAWINGS_KEPT + 1):
        board.state = scenario(turn=10, scores=[score, 0])
    assert len(board._drawings) == board_module.DRAWINGS_KEPT
    drawn.clear()
    board.state = scenario(turn=10, scores=[0, 0])
    assert drawn == [1]
