"""The play pages without a browser: every decision kind is a button, dice and odds come
from the engine, hot seat hides the other side's orders, bad files change nothing."""

from __future__ import annotations

import base64
import json
import random

import pytest

from akvo.match import new_match, play_match, replay
from akvo.match.phases import Phase
from akvo.match.preview import target_values
from akvo_widgets.play.coach import small_points
from akvo_widgets.play.decisions import OrdersComposer, action_css
from akvo_widgets.play.game import HOT_SEAT, MatchGame, result_text
from akvo_widgets.play.records import MAX_BYTES, RecordError, load_record, record_json
from akvo_widgets.play.replay import ReplayViewer, counter_text
from akvo_widgets.text.formatting import decimal, exact_percent, percent
from akvo_widgets.text.labels import action_label, faces
from tests.hot_seat import hot_seat_games

#: Every decision kind the engine offers a side (its decision phases, Trident's next shot
#: aside).
DECISION_KINDS = {
    Phase.ORDERS,
    Phase.ACTIVATE,
    Phase.SHIP_ORDER,
    Phase.TRIDENT,
    Phase.ADVANCE,
    Phase.PRE_SHOT,
    Phase.TARGET,
    Phase.ATTACK_RUNE,
    Phase.DEFENCE_RUNE,
    Phase.RELANCE,
    Phase.PRODIGE,
    Phase.ROULEAU,
}


def _press(game: MatchGame, rng: random.Random) -> tuple[Phase, str]:
    """Press one of the offered buttons (orders: random toggles, then confirm)."""
    state = game.state
    phase = state.phase_enum
    if phase is Phase.ORDERS:
        if game.hot_seat and game.decisions.children == (game.curtain,):
            game.curtain.click()
        composer = game.composer
        for lane in composer.lanes:
            lane.value = rng.choice("AT")
        composer.ship.value = rng.choice(["AA", "TT", "AT-B", "AT-L"])
        action = composer.action
        composer.confirm.click()
        return phase, action
    action = rng.choice(list(game.buttons))
    game.buttons[action].click()
    return phase, action


def test_every_decision_kind_is_a_button_for_each_legal_action() -> None:
    """Hot seat, random button presses: the buttons are exactly the legal actions, with
    their French labels and the exact target odds, and pressing one plays it."""
    seen: set[Phase] = set()
    for game, rng in hot_seat_games(range(12)):
        while not game.state.is_terminal():
            state = game.state
            if state.phase != Phase.ORDERS:
                assert list(game.buttons) == list(state.legal_actions())
                values = target_values(state) if state.phase == Phase.TARGET else {}
                for action, button in game.buttons.items():
                    assert button.description.startswith(action_label(state, action))
                    assert action_css(action) in button._dom_classes
                    if action in values:
                        shown = (
                            small_points(values[action])
                            if "chest" in action
                            else exact_percent(values[action])
                        )
                        assert shown in button.description
            before = len(state.history)
            phase, action = _press(game, rng)
            seen.add(phase)
            assert game.state.history[before] == action
        if seen >= DECISION_KINDS:
            break
    assert seen >= DECISION_KINDS, DECISION_KINDS - seen


def test_a_whole_match_against_the_bot_by_first_buttons() -> None:
    game = MatchGame(seed=4, estimates=False)  # the rollouts: test_play_coach.py
    presses = 0
    while not game.state.is_terminal():
        assert game.is_human_turn() and game.state.current_player == game.human
        first = game.decisions.children[0]
        (first.confirm if isinstance(first, OrdersComposer) else first).click()
        presses += 1
    assert presses > 20
    assert game.result.value and result_text(game.state) in game.result.value
    assert game.decisions.children == (game.new_button,)
    assert replay(game.state.record()).to_json() == game.state.to_json()


def test_the_bot_can_play_side_a() -> None:
    game = MatchGame(human=1, seed=2)
    assert game.state.current_player == 1 and game.state.phase == Phase.ORDERS
    assert "A programme ses ordres en secret" in game.state.events[-1]


def test_dice_are_shown_as_faces_from_the_engine() -> None:
    game = MatchGame(seed=8)
    while not game.rolls:
        if game.state.phase == Phase.ORDERS:
            game.composer.confirm.click()
        else:
            next(iter(game.buttons.values())).click()
    _prompt, action = game.rolls[-1]
    assert action in game.state.history
    assert faces(action) in game.dice.value
    assert faces("roll 3516") == "⚂\u00a03 ⚄\u00a05 ⚀\u00a01 ⚅\u00a06"


def test_hot_seat_hides_a_orders_from_b() -> None:
    game = MatchGame(opponent=HOT_SEAT, seed=1)
    composer = game.composer
    composer.lanes[0].value = "T"
    composer.ship.value = "TT"
    composer.confirm.click()
    assert game.state.phase == Phase.ORDERS and game.state.current_player == 1
    assert game.decisions.children == (game.curtain,)
    assert "cachés" in game.prompt.value
    game.curtain.click()
    assert game.decisions.children[0] is composer
    assert composer.action == "orders AAAA AA"  # nothing of A's choice shows
    assert "TAAA" not in game.events.value and "Tirer" not in composer.summary.value


def test_a_refused_move_changes_nothing() -> None:
    game = MatchGame(seed=3)
    before = game.state.to_json()
    game.play("shoot chest")
    assert game.state.to_json() == before
    assert "n’est pas permis" in game.message.value


def test_the_save_link_is_built_on_demand_and_holds_the_record() -> None:
    game = MatchGame(seed=5)
    game.composer.confirm.click()
    assert game.save.value == ""  # not re-encoded on every click
    game.save_button.click()
    link = game.save.value
    assert 'download="match.json"' in link
    payload = link.split("base64,")[1].split('"')[0]
    record = json.loads(base64.b64decode(payload))
    assert record == game.state.record()
    game.play(game.state.legal_actions()[0])
    assert game.save.value == ""  # a link to an older position would save the wrong match
    game.start(play_match(seed=5))
    assert "base64," in game.save.value  # the end of a match offers it at once


def test_loading_a_record_continues_the_match() -> None:
    state = play_match(seed=11)
    partial = {**state.record(), "actions": state.record()["actions"][:40]}
    game = MatchGame(seed=1)
    game.load_bytes(json.dumps(partial).encode())
    assert game.state.history[:40] == partial["actions"]
    assert "chargé" in game.message.value


def test_the_file_button_hands_over_the_bytes_it_was_sent_and_nothing_else() -> None:
    """The browser sends the chosen file as one binary message; anything else a client
    sends is ignored, and a file longer than the limit arrives cut just past it (the
    loader then refuses it as too big)."""
    viewer = ReplayViewer()
    picker = viewer.upload
    assert (picker.description, picker.accept, picker.max_bytes) == (
        "Ouvrir un match",
        ".json",
        MAX_BYTES,
    )
    got: list[bytes] = []
    picker.on_file(got.append)
    data = record_json(play_match(seed=3)).encode()
    picker._received(picker, {"event": "file"}, [memoryview(data)])
    assert got == [data]
    assert viewer.steps == len(play_match(seed=3).history)
    for content, buffers in (({"event": "other"}, [data]), ("file", [data]), (None, [])):
        picker._received(picker, content, buffers)
    assert got == [data]
    picker._received(picker, {"event": "file"}, [b"x" * (MAX_BYTES + 50)])
    assert len(got[-1]) == MAX_BYTES + 1
    assert "trop gros" in viewer.message.value
    picker._received(picker, {"event": "file"}, [])  # a file message without its file
    assert got[-1] == b"" and "vide" in viewer.message.value


# --- the loader: at least ten kinds of bad files --------------------------------------


def _record() -> dict[str, object]:
    return play_match(seed=6).record()


def _with(**changes: object) -> bytes:
    return json.dumps({**_record(), **changes}).encode()


def _actions(edit: object) -> bytes:
    record = _record()
    actions = list(record["actions"])  # type: ignore[call-overload]
    return json.dumps({**record, "actions": edit(actions)}).encode()  # type: ignore[operator]


BAD_FILES = {
    "empty": (b"", "vide"),
    "not utf-8": ("é".encode("latin-1") * 10, "UTF-8"),
    "not json": (b"hello", "JSON valide"),
    "truncated": (record_json(play_match(seed=6)).encode()[:500], "JSON valide"),
    "a list": (b"[1, 2, 3]", "objet JSON"),
    "missing actions": (json.dumps({"rules": {}, "teams": []}).encode(), "actions"),
    "actions not a list": (_with(actions="roll 1111"), "liste de textes"),
    "action not a string": (_with(actions=[1, 2]), "liste de textes"),
    "illegal action": (_actions(lambda a: [*a[:5], "shoot chest", *a[5:]]), "règles"),
    "edited dice": (_actions(lambda a: [x.replace("roll 6", "roll 9") for x in a]), "règles"),
    "unknown team": (_with(teams=["XXXX", "YYYY"]), "match"),
    "teams not a list": (_with(teams=3), "match"),
    "bad rules": (_with(rules={"weather": "storm"}), "match"),
    "too big": (b" " * (MAX_BYTES + 1), "trop gros"),
    "deeply nested": (b"[" * 100_000 + b"]" * 100_000, "imbriqué"),
    "too many actions": (_with(actions=["keep"] * 30_000), "Trop de coups"),
    "extra move after the end": (_actions(lambda a: [*a, "roll 1111"]), "règles"),
}


@pytest.mark.parametrize("name", BAD_FILES)
def test_a_bad_file_gets_a_french_message_and_changes_nothing(name: str) -> None:
    data, words = BAD_FILES[name]
    with pytest.raises(RecordError, match=words):
        load_record(data)
    viewer = ReplayViewer(_record())
    viewer.go(10)
    shown = (viewer.step, viewer.steps, viewer.board.state.to_json(), viewer.detail.value)
    viewer.load_bytes(data)
    assert (viewer.step, viewer.steps, viewer.board.state.to_json(), viewer.detail.value) == shown
    assert words in viewer.message.value or "Le " in viewer.message.value
    game = MatchGame(seed=1)
    before = game.state.to_json()
    game.load_bytes(data)
    assert game.state.to_json() == before
    assert "Traceback" not in game.message.value and game.message.value


# --- the replay viewer ------------------------------------------------------------------


def test_replay_viewer_steps_through_the_match_to_the_engine_position() -> None:
    state = play_match(seed=9)
    viewer = ReplayViewer()
    viewer.load_bytes(record_json(state).encode())
    assert viewer.steps == len(state.history)
    assert viewer.board.state.to_json() == state.to_json()
    assert counter_text(viewer.steps, viewer.steps) in viewer.counter.value
    viewer.back.click()
    assert viewer.step == viewer.steps - 1 and viewer.slider.value == viewer.step
    viewer.first.click()
    assert viewer.board.state.to_json() == replay({**state.record(), "actions": []}).to_json()
    viewer.forward.click()
    assert viewer.step == 1


def test_replay_shows_every_open_target_with_its_exact_value() -> None:
    state = play_match(seed=9)
    viewer = ReplayViewer(state.record())
    shown = 0
    for step in range(1, viewer.steps + 1):
        before = viewer.states[step - 1]
        if before.phase != Phase.TARGET:
            continue
        viewer.go(step)
        for action, value in target_values(before).items():
            label = action_label(before, action)
            assert label in viewer.detail.value
            text = decimal(value, 2) if "chest" in action else percent(value)
            assert text in viewer.detail.value
        chosen = viewer.record["actions"][step - 1]  # type: ignore[index]
        assert f"✔ {action_label(before, chosen)}" in viewer.detail.value
        shown += 1
    assert shown > 5


def test_replay_gives_each_roll_its_exact_chance() -> None:
    from akvo.dice import roll

    state = play_match(seed=9)
    viewer = ReplayViewer(state.record())
    for step in range(1, viewer.steps + 1):
        before = viewer.states[step - 1]
        if before.phase == Phase.ROLL:
            viewer.go(step)
            modifier, threshold = before.roll_target()
            action = viewer.record["actions"][step - 1]  # type: ignore[index]
            dice = len(action) - 5
            assert percent(roll(threshold, dice=dice, modifier=modifier).success) in (
                viewer.detail.value
            )
            assert faces(action) in viewer.detail.value
            return
    pytest.fail("no roll in the match")


def test_result_text_says_why() -> None:
    state = new_match()
    assert state.result is None
    ended = play_match(seed=3)
    text = result_text(ended)
    assert str(max(ended.scores)) in text and f"Victoire de {ended.result}" in text
