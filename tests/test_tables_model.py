"""Online tables, the model: setup checks, seats and sharing, who may act, team orders."""

from __future__ import annotations

import json
import random

import pytest

from akvo.match.phases import ACTIVATE, ORDERS, SHIP_ORDER
from akvo.online import SPECTATOR, Table, TableRefusal, parse_request, seat_view, view_json
from akvo.online.roles import action_characters
from akvo.online.sharing import (
    SharingError,
    check_split,
    default_split,
    is_even,
    player_counts,
    ship_shared,
)
from akvo.rules import CHARACTERS, Character
from akvo_widgets.learn.sharing import sharing_notes
from tests.tables_play import PRESETS, new_table, play_bots, play_until, random_move


# --- sharing (annex « Jeu en équipes ») ------------------------------------------------------
def test_default_split_deals_in_lane_order() -> None:
    assert list(default_split(2).values()) == [1, 1, 1, 2, 2, 2]
    assert list(default_split(3).values()) == [1, 1, 2, 2, 3, 3]
    assert ship_shared(default_split(2)) and not ship_shared(default_split(3))
    assert player_counts(default_split(3), 3) == [2, 2, 2]


def test_check_split_names_the_problem() -> None:
    uneven = dict.fromkeys(CHARACTERS, 1) | {Character.PLONGEUR: 2}
    assert not is_even(uneven, 2)
    with pytest.raises(SharingError, match="not shared evenly"):
        check_split(uneven, 2)
    with pytest.raises(SharingError, match="player 2 has no character"):
        check_split(dict.fromkeys(CHARACTERS, 1), 2)
    with pytest.raises(SharingError, match="1 to 2"):
        check_split(dict.fromkeys(CHARACTERS, 3), 2)
    with pytest.raises(SharingError, match="1 to 2"):
        check_split(dict.fromkeys(CHARACTERS, True), 2)


def test_the_book_widget_reads_the_same_sharing() -> None:
    notes = " ".join(sharing_notes(default_split(2), 2))
    assert "Barreur (joueur 1)" in notes and "Lanceur (joueur 2)" in notes


# --- setup from untrusted JSON ---------------------------------------------------------------
@pytest.mark.parametrize(
    ("request_", "code"),
    [
        ([], "request"),
        ({"teams": PRESETS, "colour": 1}, "request"),
        ({"teams": ["perrockiss"]}, "teams"),
        ({"teams": ["perrockiss", 3]}, "teams"),
        ({"teams": ["perrockiss", "x" * 201]}, "teams"),
        ({"teams": ["perrockiss", "ABCD/EFGH"]}, "teams"),
        ({"teams": PRESETS, "players": 3}, "players"),
        ({"teams": PRESETS, "players": True}, "players"),
        ({"teams": PRESETS, "players": 4.0}, "players"),
        ({"teams": PRESETS, "seed": -1}, "seed"),
        ({"teams": PRESETS, "seed": 10**30}, "seed"),
        ({"teams": PRESETS, "seed": "7"}, "seed"),
        ({"teams": PRESETS, "rules": {"weather": "dice"}}, "rules"),
        ({"teams": PRESETS, "rules": []}, "rules"),
        ({"teams": PRESETS, "bots": {"C": "normal"}}, "bots"),
        ({"teams": PRESETS, "bots": {"B": "genius"}}, "bots"),
        ({"teams": PRESETS, "bots": {"A": "facile", "B": "fort"}}, "bots"),
        ({"teams": PRESETS, "bots": ["B"]}, "bots"),
        ({"teams": PRESETS, "players": 4, "sharing": {"A": {"pedalair": 1}}}, "sharing"),
        (
            {
                "teams": PRESETS,
                "players": 4,
                "sharing": {
                    "A": dict.fromkeys(
                        ("pedalair", "kitesurfeur", "barreur", "lanceur", "surfeur"), 1
                    )
                    | {"plongeur": 2}
                },
            },
            "sharing",
        ),
    ],
)
def test_bad_requests_are_refused_in_french(request_: object, code: str) -> None:
    with pytest.raises(TableRefusal) as refused:
        parse_request(request_)
    assert refused.value.code == code
    assert refused.value.message[0].isupper() and refused.value.message.endswith(".")


def test_a_bad_team_list_keeps_the_engines_error_for_the_front_end() -> None:
    with pytest.raises(TableRefusal) as refused:
        parse_request({"teams": ["perrockiss", "ABCD EFGH IJKL MNOP QRST UVWX + YZ Z"]})
    assert refused.value.cause is not None
    assert "équipe B" in refused.value.message


def test_a_request_reads_teams_rules_bots_and_a_custom_sharing() -> None:
    setup = parse_request(
        {
            "teams": ["Fish-Tank", "LEGS VUNF JACK ZBIM PYTH DROX + QW"],
            "rules": {"weather": "coin"},
            "players": 4,
            "seed": 12,
            "bots": {"B": "normal"},
            "sharing": {
                "A": {
                    "pedalair": 1,
                    "kitesurfeur": 2,
                    "barreur": 1,
                    "lanceur": 1,
                    "surfeur": 2,
                    "plongeur": 2,
                }
            },
        }
    )
    assert setup.rules.weather == "coin" and setup.seed == 12
    assert setup.bots == (None, "greedy")
    assert str(setup.teams[1]) == "LEGS/VUNF/JACK/ZBIM/PYTH/DROX+QW"
    seats = setup.seats()
    assert [s.name for s in seats] == ["A1", "A2", "B1", "B2"]
    assert seats[0].characters == (0, 2, 3) and seats[1].characters == (1, 4, 5)
    assert seats[2].bot == "greedy"
    assert type(setup).from_dict(json.loads(json.dumps(setup.to_dict()))) == setup


def test_a_seed_is_drawn_when_none_is_given() -> None:
    seeds = {parse_request({"teams": PRESETS}).seed for _ in range(5)}
    assert len(seeds) == 5


# --- who may act -------------------------------------------------------------------------------
def test_two_players_each_play_the_engines_actions_of_their_side() -> None:
    table = new_table(2)
    assert table.state.phase == ORDERS
    assert table.actions(0) == table.actions(1) == table.state.legal  # both program at once
    table.propose(1, "orders TTTT TT")  # B first: kept until A has programmed
    assert table.state.orders == [None, None] and table.orders_complete(1)
    assert table.actions(1) == ()
    table.propose(0, "orders AAAA AA")
    assert table.state.phase != ORDERS
    assert table.state.events[-1].endswith("ordres révélés : A AAAA AA ; B TTTT TT.")
    side = table.state.player
    assert table.actions(side) == table.state.legal and table.actions(1 - side) == ()


def _to_activation(table: Table, a: list[str], b: list[str]) -> None:
    """Program both sides at 4 players: each seat's part, then the ship's token."""
    for seat, part in enumerate(a + b):
        table.propose(seat, part)
    for side in (0, 1):
        first, second = 2 * side, 2 * side + 1
        table.propose(first, "propose AT-B")
        assert not any(a.startswith("accept") for a in table.actions(first))  # not one's own
        assert "accept AT-B" in table.actions(second)
        table.propose(second, "accept AT-B")


def test_four_players_assemble_their_sides_orders_from_parts() -> None:
    table = new_table(4)
    assert table.actions(0)[:2] == (
        "part pedalair=A kitesurfeur=A",
        "part pedalair=A kitesurfeur=T",
    )
    assert "part surfeur=T plongeur=A" in table.actions(1)
    table.propose(0, "part pedalair=A kitesurfeur=A")
    table.propose(0, "part pedalair=T kitesurfeur=A")  # changed before the side is complete
    table.propose(1, "part surfeur=A plongeur=T")
    assert not table.orders_complete(0)  # the ship's token is not agreed yet
    table.propose(1, "propose TT")
    table.propose(0, "propose AT-L")  # a counter-proposal
    assert "accept AT-L" in table.actions(1)
    table.propose(1, "accept AT-L")
    assert table.orders_complete(0) and table.state.orders[0] is not None
    assert table.own_orders(0) == "TAAT AT-L"
    assert table.actions(0) == table.actions(1) == ()


def test_at_six_players_the_ship_holder_gives_its_token_alone() -> None:
    table = new_table(6)
    assert table.actions(1)[:4] == (
        "part navire=AA",
        "part navire=TT",
        "part navire=AT-B",
        "part navire=AT-L",
    )
    assert not any(a.startswith("propose") for s in range(6) for a in table.actions(s))
    for seat, part in enumerate(
        ["part pedalair=A kitesurfeur=T", "part navire=TT", "part surfeur=A plongeur=A"] * 2
    ):
        table.propose(seat, part)
    assert table.state.phase != ORDERS
    assert table.state.events[-1].endswith("ordres révélés : A ATAA TT ; B ATAA TT.")


def _activating() -> tuple[Table, int, int]:
    """A 4-player table at its first activation; the activating side's two seats."""
    table = new_table(4, seed=3)
    parts = ["part pedalair=A kitesurfeur=A", "part surfeur=A plongeur=A"]
    _to_activation(table, parts, parts)
    assert table.state.phase == ACTIVATE
    side = table.state.player
    return table, 2 * side, 2 * side + 1


def test_each_player_activates_only_their_characters() -> None:
    table, first, second = _activating()
    state = table.state
    side = state.player
    mine, theirs = table.actions(first), table.actions(second)
    assert {"activate pedalair", "activate kitesurfeur", "activate navire"} <= set(mine)
    assert "activate surfeur" not in mine and "activate surfeur" in theirs
    assert "activate navire" in theirs  # the ship belongs to both central mages
    assert "ultime egide" in mine and "ultime vigie" in theirs and "ultime vigie" not in mine
    assert set(mine) | set(theirs) == set(state.legal)
    before = table.state.to_json()
    with pytest.raises(TableRefusal) as refused:
        table.propose(first, "activate surfeur")
    assert refused.value.code == "illegal"
    with pytest.raises(TableRefusal) as refused:
        table.propose(2 * (1 - side), "activate pedalair")
    assert refused.value.code == "not_your_turn"
    with pytest.raises(TableRefusal) as refused:
        table.propose(SPECTATOR, "activate pedalair")
    assert refused.value.code == "spectator"
    for bad in (None, 3, "", "x" * 500, ["activate pedalair"]):
        with pytest.raises(TableRefusal):
            table.propose(first, bad)
    assert table.state.to_json() == before and len(table.rows) == 8


def test_the_ships_resolution_order_is_proposed_and_accepted() -> None:
    table, first, second = _activating()
    side = table.state.player
    table.propose(second, "activate navire")
    assert table.state.phase == SHIP_ORDER
    assert (
        table.actions(first)
        == table.actions(second)
        == ("propose move first", "propose shot first")
    )
    table.propose(first, "propose shot first")
    view = seat_view(table, second)
    assert view["team"]["offer"] == {
        "seat": view["seats"][first]["name"],
        "choice": "shot first",
        "label": "shot first",
        "text": "A1 propose\u00a0: shot first",
    }
    assert seat_view(table, 2 * (1 - side))["team"]["offer"] is None  # the other side's own
    assert table.actions(first) == ("propose move first", "propose shot first")
    table.propose(second, "accept shot first")
    assert table.state.phase != SHIP_ORDER and "shot first" in table.state.history


def test_the_owner_of_each_decision_follows_the_roles() -> None:
    rng = random.Random(5)
    table = new_table(4, seed=5)
    seen: set[str] = set()
    for _ in range(400):
        if table.finished:
            break
        state = table.state
        if state.phase not in (ORDERS, SHIP_ORDER):
            phase = state.phase_name()
            for action in state.legal:
                owners = action_characters(state, action)
                takers = [
                    s for s in table.side_seats(state.player) if action in table.actions(s.index)
                ]
                assert takers and all(set(s.characters) & owners for s in takers), (phase, action)
            seen.add(phase)
        random_move(table, rng)
    assert {"activate", "target", "attack rune", "defence rune", "relance"} <= seen


@pytest.mark.parametrize("players", [2, 4, 6])
@pytest.mark.parametrize("seed", [0, 1])
def test_random_tables_finish_and_replay_from_their_rows(players: int, seed: int) -> None:
    bots = {"B": "normal"} if seed else {}
    table = new_table(players, seed=seed, bots=bots)
    rng = random.Random(seed)
    assert not play_until(table, lambda t: False, rng)
    assert table.finished and seat_view(table, 0)["status"] == "finished"
    again = Table("t", table.setup)
    for seat, action in table.rows:
        again.replay_row(seat, action)
    assert again.state.to_json() == table.state.to_json()
    assert view_json(seat_view(again, SPECTATOR)) == view_json(seat_view(table, SPECTATOR))


def test_a_bot_decides_from_what_its_side_sees() -> None:
    table = new_table(2, bots={"B": "normal"})
    table.propose(0, "orders TTTT TT")
    assert table.bot_side() == 1
    assert table.bot_state().orders[0] != table.state.orders[0]  # A's orders masked
    play_bots(table)
    assert table.state.phase != ORDERS
    with pytest.raises(TableRefusal):
        table.play_bot(0, "orders AAAA AA")


def test_views_show_ones_own_orders_and_labels() -> None:
    table = new_table(4)
    table.propose(0, "part pedalair=T kitesurfeur=A")
    mine, other, watcher = seat_view(table, 1), seat_view(table, 2), seat_view(table, SPECTATOR)
    assert mine["team"]["parts"] == {"A1": {"pedalair": "T", "kitesurfeur": "A"}}
    assert other["team"]["parts"] == {} and watcher["team"] is None
    assert mine["you"]["characters"] == ["lanceur", "surfeur", "plongeur"]
    assert [f["key"] for f in mine["fields"]] == ["surfeur", "plongeur"]
    assert mine["legal"][0] == {
        "action": "part surfeur=A plongeur=A",
        "label": "Surfeur\u00a0: A, Plongeur\u00a0: A",
        "choices": {"surfeur": "A", "plongeur": "A"},
    }
    assert mine["decision"] == {
        "sides": ["A", "B"],
        "seats": [0, 1, 2, 3],
        "yours": True,
        "sent": False,
        "waiting": "double-jeton du navire à convenir avec A1",
        "offered": [],
    }
    assert watcher["legal"] == [] and watcher["you"] == {"role": "spectator"}
    assert mine["board"].startswith("<svg") and mine["board"] == watcher["board"]
