"""« Vos erreurs » without a browser: an analysed match's « gaffe » becomes an exercise kept in
the browser's slot (JSON of akvo.coach.exercises), the « Exercices » page asks it, grades it
with the engine's better options, reschedules it 1 day later when right, the next day when
wrong, and a file round-trips while a hostile one changes nothing."""

from __future__ import annotations

import datetime as dt
import json
from html import escape

import pytest

from akvo.coach.exercises import Card, export_json, import_json, mistake_exercises
from akvo.coach.review import Review, review
from akvo.match import play_match
from akvo_widgets.play.analysis_panel import AnalysisPanel
from akvo_widgets.play.mistakes import MISTAKES_KEY, MistakesBox, read_kept
from akvo_widgets.play.valued import option_line

DAY = dt.date(2026, 12, 7)


@pytest.fixture(scope="module")
def reviewed() -> Review:
    """B's opening orders of match 11 are a « gaffe » at the page's budget (coup 3)."""
    record = play_match(11).record()
    return review({**record, "actions": record["actions"][:5]}, side="B", progress=False)


def _panel_with(done: Review) -> AnalysisPanel:
    panel = AnalysisPanel(lambda: done.record, lambda _coup: None)
    panel.show(done)
    return panel


def test_keeping_bs_mistakes_stores_the_engines_exercises(reviewed: Review) -> None:
    first = reviewed.decisions[0]
    assert (first.coup, first.verdict) == (3, "gaffe")
    panel = _panel_with(reviewed)
    assert panel.keeper.key == MISTAKES_KEY and panel.keep_row.layout.display is None
    panel.keep("B", today=DAY)
    exercises, cards = import_json(panel.keeper.to_store)
    assert exercises == mistake_exercises(reviewed, "B") and len(exercises) == 1
    assert [(c.due, c.right) for c in cards] == [(DAY, 0)]
    assert "1 erreur(s) de B" in panel.kept_message.value
    again = panel.keeper.to_store
    panel.keep("B", today=DAY)  # the same mistakes twice: kept once
    assert panel.keeper.to_store == again and "Aucune nouvelle" in panel.kept_message.value


def test_the_exercises_page_asks_grades_and_reschedules(reviewed: Review) -> None:
    exercise = mistake_exercises(reviewed, "B")[0]
    box = MistakesBox(today=lambda: DAY)
    box.keeper.saved = export_json((exercise,), (Card(exercise.id, DAY),))
    assert box.current == exercise and "Trouvez une meilleure option" in box.question.value
    assert box.options.children == (box.composer,)  # orders: composed, as in a match
    box.answer(exercise.chosen)  # the mistake again: wrong, back tomorrow
    _, cards = read_kept(box.keeper.to_store)
    assert cards[0].due == DAY + dt.timedelta(days=1) and cards[0].right == 0
    assert "Pas encore" in box.feedback.value and box.current is None
    # the options' win chances are the analysis's own for that decision
    row = reviewed.decision(exercise.coup)
    state = exercise.position()
    for worth in row.values:
        if worth.action in (exercise.chosen, row.best):
            assert escape(option_line(state, worth)) in box.feedback.value
    box.today = lambda: DAY + dt.timedelta(days=1)
    box.show_next()
    box.answer(exercise.better[0])
    _, cards = read_kept(box.keeper.to_store)
    assert cards[0].due == DAY + dt.timedelta(days=2) and cards[0].right == 1
    assert "Bien vu" in box.feedback.value
    assert box.due_ids() == ()


def test_an_exercises_file_round_trips_and_a_hostile_one_changes_nothing(
    reviewed: Review,
) -> None:
    exercise = mistake_exercises(reviewed, "B")[0]
    text = export_json((exercise,), (Card(exercise.id, DAY),))
    box = MistakesBox(today=lambda: DAY)
    box.import_bytes(text.encode())
    assert read_kept(box.keeper.to_store)[0] == (exercise,)
    assert "vos-erreurs.json" in box.download.value
    before = box.keeper.to_store
    hostile = json.loads(text)
    hostile["exercises"][0]["better"] = ["launch missiles"]
    box.import_bytes(json.dumps(hostile).encode())
    assert box.keeper.to_store == before and "rien n’a changé" in box.summary.value
    box.import_bytes(b"\xff\xfe")
    assert box.keeper.to_store == before


def test_play_the_other_option_hands_the_position_to_the_match_page(reviewed: Review) -> None:
    """« Jouer l'autre option d'ici »: the position before the flagged move goes to the
    match page's slot; the match page opened on that slot continues from it."""
    from akvo_widgets.play.analysis_panel import MATCH_PAGE
    from akvo_widgets.play.game import MatchGame

    jumped: list[int] = []
    panel = AnalysisPanel(lambda: reviewed.record, jumped.append)
    panel.show(reviewed)
    panel.show_move(3)
    assert jumped == [3] and panel.play_button.layout.display is None
    panel.play_from_shown()
    stored = json.loads(panel.match_keeper.to_store)
    assert stored["actions"] == reviewed.record["actions"][:2]
    assert f'href="{MATCH_PAGE}"' in panel.play_link.value
    game = MatchGame(seed=1, human=1, estimates=False)
    game.keeper.saved = panel.match_keeper.to_store  # what the browser hands back
    assert game.state.record()["actions"] == reviewed.position(3).record()["actions"]
