"""The board draws itself as text and as SVG (pure strings)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from akvo.match import play_match
from akvo.match.scenario import scenario

SVG = "{http://www.w3.org/2000/svg}"


def test_the_text_board_shows_units_resilience_and_score() -> None:
    state = scenario(
        turn=3, rows={"A": {"surfeur": 5}}, resilience={"B": {"plongeur": 2}}, scores=[1, 0]
    )
    lines = str(state).splitlines()
    assert lines[0].startswith("Tour 3 · phare 3 · palier II · météo - · score A 1 – 0 B")
    assert lines[2].startswith(" 9  [B]")
    assert lines[5].split() == ["6", "B1", "B2", "B3", "B4", "B5", "B6''"]
    assert lines[6].split() == ["5", ".", ".", ".", ".", "A5", "."]
    assert lines[8].split() == ["3", "A1", "A2", "A3", "A4", ".", "A6"]
    assert lines[12].startswith("A : Résilience P0 K0 B0 L0 S0 D0")


def test_the_svg_board_has_every_piece() -> None:
    state = play_match(12)
    svg = state._repr_svg_()
    root = ET.fromstring(svg)
    groups = root.findall(f"{SVG}g")
    assert len(groups) == 12  # six mages per side
    assert sum("side-A" in g.get("class", "") for g in groups) == 6
    classes = [e.get("class", "") for e in root.iter()]
    assert classes.count("chest") == 12
    assert classes.count("ship") == 2
    assert classes.count("resilience") == sum(state.res)
    assert sum(c.startswith("wind lit") for c in classes) == min(state.turn, 8)
    titles = [t.text for t in root.iter(f"{SVG}title")]
    assert "Plongeur de B" in titles


def test_prompts_say_what_is_decided_in_french() -> None:
    state = scenario(turn=3, rows={"A": {"surfeur": 4}, "B": {"surfeur": 6}})
    assert state.prompt() == "Bulletin météo : tirage du jeton."
    state.apply_action("weather A")
    assert state.prompt() == "A programme ses ordres en secret."
    for action in ("orders AATA AA", "orders AAAA AA", "activate surfeur", "no move"):
        state.apply_action(action)
    assert state.prompt() == "Le Surfeur de A choisit sa cible."
    for action in ("shoot surfeur", "rune P", "no rune"):
        state.apply_action(action)
    assert state.prompt() == "Jet d'attaque : le Surfeur de A lance 4 dés +2, seuil 12."
    assert repr(state) == "MatchState(turn=3, phase='roll', player=chance, scores=0-0)"
