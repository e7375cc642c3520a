"""A kept match is never lost (issue 36.2): on return the kept match itself is shown, and
« Nouveau match » asks before discarding a match under way."""

from __future__ import annotations

import json

from akvo_widgets.play.game import MatchGame


def _played_once(seed: int = 9) -> MatchGame:
    game = MatchGame(seed=seed, estimates=False)
    game.composer.confirm.click()
    return game


def test_a_match_in_progress_is_kept_and_shown_again_on_return() -> None:
    game = MatchGame(seed=9, estimates=False)
    assert game.keeper.to_store == "" and not game.keeper.guard
    game.composer.confirm.click()
    kept = game.keeper.to_store
    assert game.keeper.guard and json.loads(kept)["actions"] == game.state.record()["actions"]
    fresh = MatchGame(seed=1, estimates=False)
    fresh.keeper.saved = kept  # what the browser hands back on a reload or Back
    assert fresh.state.to_json() == game.state.to_json()  # the kept match, not a fresh one
    assert fresh.in_progress and fresh.keeper.to_store == kept
    assert "repris" in fresh.message.value
    assert "Reprendre" not in str([w.description for w in fresh.setup.children[:3]])


def test_a_kept_match_never_replaces_the_one_being_played_here() -> None:
    kept = _played_once(9).keeper.to_store
    here = _played_once(1)
    before = here.state.to_json()
    here.keeper.saved = kept  # arriving late, after a move here
    assert here.state.to_json() == before


def test_a_tampered_kept_match_is_refused_and_forgotten() -> None:
    kept = _played_once(9).keeper.to_store
    other = MatchGame(seed=1, estimates=False)
    before = other.state.to_json()
    other.keeper.saved = kept.replace('"actions": [', '"actions": ["shoot chest", ', 1)
    assert other.state.to_json() == before and "ne peut pas être repris" in other.message.value
    assert other.keeper.to_store == ""


def test_nouveau_match_asks_before_discarding_a_match_under_way() -> None:
    game = _played_once(9)
    before, moves = game.state.to_json(), len(game.state.history)
    game.new_button.click()
    assert game.state.to_json() == before  # nothing discarded yet
    assert game.discard.layout.display is None
    assert "Abandonner le match en cours" in game.discard_question.value
    game.discard_no.click()
    assert game.state.to_json() == before and game.discard.layout.display == "none"
    assert game.keeper.to_store and game.keeper.guard
    game.new_button.click()
    game.discard_yes.click()
    assert len(game.state.history) < moves  # a fresh match (the bot's first moves at most)
    assert not game.in_progress and game.keeper.to_store == "" and not game.keeper.guard
    assert game.discard.layout.display == "none"


def test_nouveau_match_starts_at_once_when_nothing_is_under_way() -> None:
    game = MatchGame(seed=9, estimates=False)
    game.new_button.click()
    assert game.discard.layout.display == "none" and not game.in_progress
