"""Every board line describes the position shown (issue 36.3): walking a replay and the
end-of-match pages, the board's header, the page's status line and the side panel name the
same moment; a finished match has no weather to draw; nothing says dice roll when none do."""

from __future__ import annotations

import re

import pytest

from akvo.match import play_match
from akvo_widgets.board.view import roll_html, status_html
from akvo_widgets.learn.examples_game import tie_break
from akvo_widgets.learn.positions import EndOfMatch
from akvo_widgets.play.replay import ReplayViewer

STALE = ("jeton à tirer", "les dés roulent", "de décider")


def _moment(html: str) -> str:
    found = re.search(r"(après le coup \d+|position de départ)", html, re.IGNORECASE)
    assert found, html
    return found.group(1).lower()


@pytest.fixture(scope="module")
def viewer() -> ReplayViewer:
    return ReplayViewer(play_match(3).record())


def test_the_replay_header_status_and_panel_name_the_same_moment(viewer: ReplayViewer) -> None:
    for step in range(viewer.steps + 1):
        viewer.go(step)
        header, status, panel = viewer.board.status, viewer.status.value, viewer.detail.value
        expected = "position de départ" if step == 0 else f"après le coup {step}"
        assert _moment(header) == _moment(status) == expected, (step, header, status)
        if step:
            assert _moment(panel) == expected, (step, panel)
        assert f'data-moves="{step}"' in status
        decision = re.search(r'<p class="akvo-board-decision[^"]*">(.*?)</p>', header)
        assert decision and not any(word in decision.group(1) for word in STALE), header
    assert "match terminé" in viewer.board.status and "(le dernier)" in viewer.board.status


def test_each_step_is_drawn_once(viewer: ReplayViewer, monkeypatch: pytest.MonkeyPatch) -> None:
    """A button, the slider or a flagged move draws its step once (the slider's observer
    used to draw it a second time, doubling the wait for each step's valuation)."""
    from akvo_widgets.play import replay

    drawn: list[str] = []
    real = replay.step_html
    monkeypatch.setattr(
        replay, "step_html", lambda before, action: drawn.append(action) or real(before, action)
    )
    viewer.go(5)
    viewer.forward.click()
    viewer.slider.value = 9
    viewer.go(9)  # already shown: drawn again, once
    assert drawn == [viewer.record["actions"][n - 1] for n in (5, 6, 9, 9)]  # type: ignore[index]
    assert viewer.step == viewer.slider.value == 9


def test_the_end_of_match_pages_draw_the_finished_match() -> None:
    page = EndOfMatch()
    for turn in (8, 10):
        page.turn.value = turn
        for a, b in ((2, 2), (3, 1)):
            page.score_a.value, page.score_b.value = a, b
            state = page.board.state
            assert state.is_terminal() and state is page.final
            assert "Match terminé" in page.board.status and "météo" not in page.board.status
            assert page.last_line() in page.board.status.replace("'", "’")  # the same end
            assert f"{a} – {b}" in page.last_line() and f"{a} à {b}" not in page.result.value
    example = tie_break()
    boards = [w for w in example.children if hasattr(w, "status")]
    assert boards and all("météo" not in board.status for board in boards)


def test_the_status_line_never_says_dice_roll_when_none_do() -> None:
    state = play_match(3)
    assert "match terminé" in status_html(state)
    weather = ReplayViewer(state.record()).states[0]
    assert weather.is_chance_node() and "jeton météo à tirer" in status_html(weather)
    assert all(word not in status_html(weather) for word in STALE)


def test_the_dice_are_listed_in_the_order_rolled() -> None:
    rolls = [("Jet d’attaque : …", "roll 6655"), ("Jet de défense : …", "roll 3221")]
    html = roll_html(rolls)
    assert html.index("attaque") < html.index("défense")
