"""Worked examples of the whole-game chapters: each call asks the engine and shows the
answer in French — a table, a few sentences, a position drawn on the board.

Text-only examples return :class:`IPython.display.Markdown`; examples with a position return
a small widget (caption + board, see :func:`akvo_widgets.board.view.make_board`).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from html import escape

import ipywidgets as w
from IPython.display import HTML, Markdown

from akvo.config import RulesConfig
from akvo.match import MatchState, new_match, scenario
from akvo.rules import (
    CHARACTERS,
    DUPLICATED_PRESETS,
    PRESET_TEAMS,
    TIE_BREAK_TURNS,
    TURNS,
    lighthouse_level,
    tier_for_turn,
)
from akvo.teams import preset_team
from akvo_widgets.board.legend import legend
from akvo_widgets.board.view import lines_html, make_board
from akvo_widgets.text.formatting import fraction, french, percent, tier_numeral

from .playthrough import play_line, quiet_action
from .positions import play_move, targets_html, verdict
from .team_builder import runes_table
from .ultimes import SCENE_BY_KEY


def _markdown(text: str) -> Markdown:
    return Markdown(french(text))


def _figure(caption_html: str, state: MatchState, css: str, *, flipped: bool = False) -> w.VBox:
    caption = w.HTML(caption_html)
    box = w.VBox([caption, make_board(state, flipped=flipped)])
    box.add_class("akvo-example")
    box.add_class(css)
    return box


# --- Le plateau et la mise en place --------------------------------------------------------


def lanes_table() -> Markdown:
    """R1: the six lanes, their character, its name on the score sheet and its Ultime."""
    rows = [
        f"| {ch.lane} | {ch.label}{' (navire)' if ch.is_central else ''} | {ch.role} "
        f"| {ch.ultime.name} |"
        for ch in CHARACTERS
    ]
    head = "| Couloir | Personnage | Sur la feuille de score | Ultime |\n|---|---|---|---|\n"
    return _markdown(head + "\n".join(rows))


def setup_position() -> w.VBox:
    """A new match as the engine sets it up, drawn, with the checklist's numbers."""
    state = new_match()
    seen = state.observation("A")
    rows = seen["rows"]
    bag = dict(state.chance_outcomes())
    caption = french(
        "<p>La mise en place, par le moteur : le phare au niveau "
        f"{seen['lighthouse']} (palier {tier_numeral(seen['tier'])}), les unités de A sur "
        f"la ligne {rows['A']['surfeur']}, celles de B sur la ligne {rows['B']['surfeur']} "
        f"(R2), toutes les Résiliences à {max(seen['resilience']['A'].values())}, aucun "
        f"Ultime utilisé, le score à {seen['scores'][0]} – {seen['scores'][1]}. Le premier "
        f"jeton météo avantagera A avec une chance de {fraction(bag['weather A'])} (R8).</p>"
    )
    return _figure(caption, state, "akvo-setup-position")


def board_legend() -> HTML:
    """Every symbol of the live board, drawn by the board's own pieces (its « Légende »)."""
    return legend()


def setup_seen_from_b() -> w.VBox:
    """The same setup from B's seat: the board turned half a turn (R1 keeps the lanes)."""
    state = new_match()
    rows = state.observation("B")["rows"]["B"]
    caption = french(
        "<p>La même table, vue depuis la place de B : le plateau a fait un demi-tour. La "
        f"plage de B est en bas, ses unités sur la ligne {rows['surfeur']}, et le couloir 1 "
        "est à droite : chaque personnage reste face à son homologue (R1), les numéros de "
        "couloirs et de lignes ne changent pas.</p>"
    )
    return _figure(caption, state, "akvo-setup-from-b", flipped=True)


# --- Les équipes -----------------------------------------------------------------------------


def team_runes(key: str = "perrockiss") -> w.HTML:
    """A preset team's runes, character by character, with their categories (R27)."""
    team = preset_team(key)
    preset = PRESET_TEAMS[key]
    head = french(f"<p><b>{escape(preset.name)}</b> ({preset.strategy}) : {team}</p>")
    area = w.HTML(head + runes_table(team))
    area.add_class("akvo-table")
    return area


def misprint() -> Markdown:
    """R28: three annex teams, three strategies, one list."""
    lines = [
        f"- {PRESET_TEAMS[key].name}, « {PRESET_TEAMS[key].strategy} » : `{preset_team(key)}`"
        for key in DUPLICATED_PRESETS
    ]
    same = len({str(preset_team(key)) for key in DUPLICATED_PRESETS}) == 1
    verdict_text = (
        "Les trois listes sont **identiques**, lettre pour lettre."
        if same
        else "Les trois listes diffèrent."
    )
    return _markdown("\n".join(lines) + "\n\n" + verdict_text)


# --- Le tour de jeu -----------------------------------------------------------------------


def lighthouse_table() -> Markdown:
    """R7: each turn's lighthouse level and wind tier, tie-break turns included."""
    rows = []
    for turn in TURNS + TIE_BREAK_TURNS:
        extra = " (départage)" if turn in TIE_BREAK_TURNS else ""
        rows.append(
            f"| {turn}{extra} | {lighthouse_level(turn)} | {tier_numeral(tier_for_turn(turn))} |"
        )
    head = "| Tour | Niveau du phare | Palier de vent |\n|---|---|---|\n"
    return _markdown(head + "\n".join(rows))


def _p_a(turn: int, bag: Sequence[int], rules: RulesConfig | None = None) -> Fraction:
    """P(the weather favours A) at ``turn``'s draw; a bag of one kind is drawn at once by
    the engine (a certain outcome), so the state is then already past the draw."""
    state = scenario(rules=rules or RulesConfig(), turn=turn, bag=list(bag))
    if state.is_chance_node():
        return dict(state.chance_outcomes()).get("weather A", Fraction(0))
    return Fraction(1 if state.observation("A")["favoured"] == "A" else 0)


def weather_odds() -> Markdown:
    """R8: the chance that the weather favours A, from the bag's content (the engine's
    chance outcomes), and with the coin variant."""
    cases = [
        ("Tour 1, sac plein", 1, (4, 4)),
        ("Tour 3, A a été avantagé deux fois", 3, (2, 4)),
        ("Tour 5, B a été avantagé quatre fois", 5, (4, 0)),
        ("Tour 8, il reste un jeton B", 8, (0, 1)),
    ]
    rows = []
    for label, turn, (a, b) in cases:
        p = _p_a(turn, (a, b))
        rows.append(f"| {label} | {a} A + {b} B | {percent(p)} ({fraction(p)}) |")
    coin = _p_a(1, (4, 4), RulesConfig(weather="coin"))
    head = "| Situation | Jetons dans le sac | A avantagé |\n|---|---|---|\n"
    return _markdown(
        head
        + "\n".join(rows)
        + f"\n\nAvec la variante de la pièce (R8), c’est {percent(coin)} à chaque tour."
    )


# --- Avancer et se bloquer ------------------------------------------------------------------


def blocked_ship() -> w.VBox:
    """R10: the ship's Avancer / Avancer stops after one cell when a unit stands in the way."""
    outcome = play_move({"navire": 3}, {"navire": 5}, "navire", "advance")
    caption = french(
        "<p>Le navire de A (ligne 3) a l’ordre Avancer / Avancer ; le navire de B est "
        "ligne 5. Le moteur joue le déplacement case par case :</p>"
    ) + lines_html(outcome.lines)
    return _figure(caption, outcome.state, "akvo-example-blocked")


def mouvement_before_shot() -> w.VBox:
    """R20: a Mouvement rune just before a shot moves the whole ship, then the shot."""
    outcome = play_move({"navire": 3}, {"navire": 6}, "navire", "rune-shoot")
    caption = (
        french(
            "<p>Tirer / Tirer pour le navire de A, ligne 3. Le Barreur joue d’abord une rune "
            "de Mouvement :</p>"
        )
        + lines_html(outcome.lines)
        + french(
            "<p>Le navire entier a avancé d’une case. Le tir se mesure depuis la nouvelle "
            "case ; voici les cibles que le moteur propose alors au Barreur :</p>"
        )
        + targets_html(outcome.targets)
    )
    return _figure(caption, outcome.state, "akvo-example-mouvement")


# --- Les Ultimes en jeu --------------------------------------------------------------------


def ultime_scene(key: str) -> w.VBox:
    """One scene of :mod:`akvo_widgets.learn.ultimes`, played to its end: its log and the board."""
    scene = SCENE_BY_KEY[key]
    state, choose, queue = scene.start()
    lines: list[str] = []
    while queue:
        lines += play_line(state, [choose(state)])
    caption = f"<p><b>{escape(scene.label)}</b> — {escape(french(scene.what))}</p>" + lines_html(
        lines
    )
    return _figure(caption, state, f"akvo-example-{key}")


# --- La fin du match -----------------------------------------------------------------------


def tie_break(scores: tuple[int, int] = (2, 2)) -> w.VBox:
    """R25 from turn 8: tied, two more turns at tier IV, then the mages in the enemy half."""
    rows_a = {"surfeur": 5, "navire": 5}
    rows_b = {"pedalair": 4}
    final, lines = verdict(rows_a, rows_b, scores, 8)
    caption = french(
        f"<p>Fin du tour 8, score : {scores[0]} – {scores[1]}. Le navire et le Surfeur de A sont "
        "dans la moitié de B, le Pédalair de B dans celle de A. Personne ne marque "
        "pendant les deux tours de départage ; le moteur conclut :</p>"
    ) + lines_html(lines)
    return _figure(caption, final, "akvo-example-tie-break")


def reshuffled_bag() -> Markdown:
    """R8 + R25: the bag is empty after turn 8, then full again for the tie-break."""
    last = _p_a(8, (1, 0))
    state = scenario(turn=8, bag=[1, 0], scores=[1, 1])
    while not (state.turn == TIE_BREAK_TURNS[0] and state.is_chance_node()):
        state.apply_action(quiet_action(state))  # a quiet, tied turn 8
    again = dict(state.chance_outcomes())["weather A"]
    return _markdown(
        f"Au tour 8, s’il ne reste qu’un jeton A dans le sac, A est avantagé à coup sûr "
        f"({percent(last)}). Pour le départage, les 8 jetons retournent dans le sac : au tour "
        f"9, A a de nouveau {percent(again)} ({fraction(again)}) de chance d’être avantagé."
    )
