"""Worked examples for the book: one call computes a case with the engine and shows it in
French, so no number in the prose is typed by hand.

Each function returns an :class:`IPython.display.Markdown` object: a notebook cell that
ends with the call displays it, and Voilà renders it like the surrounding prose.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from IPython.display import Markdown

from akvo.dice import roll
from akvo.resolution import RelancePolicy
from akvo.rules import DISTANCES, TIERS, critical_threshold, miles, thresholds, tier_for_turn
from akvo.shots import Side, shot_on_chest, shot_on_mage
from akvo_widgets.text.formatting import (
    decimal,
    fraction,
    french,
    how_often,
    percent,
    signed,
    tier_numeral,
    turns_of_tier,
)


def _odds(probability: Fraction) -> str:
    """``**33,3 %** (1/3)``: the rounded percentage in bold, the exact fraction beside."""
    return f"**{percent(probability)}** ({fraction(probability)})"


_REROLL_AIMS: dict[RelancePolicy, str] = {"success": "la réussite", "critical": "le critique"}


def roll_example(
    threshold: int, *, dice: int = 4, modifier: int = 0, reroll: RelancePolicy | None = None
) -> Markdown:
    """The three odds of one roll, as a bulleted French paragraph."""
    odds = roll(threshold, dice=dice, modifier=modifier, reroll=reroll)
    parts = [f"{dice} dé{'s' if dice > 1 else ''}"]
    if modifier:
        parts.append(f"un modificateur de {signed(modifier)}")
    if reroll is not None:
        parts.append(f"une relance qui vise {_REROLL_AIMS[reroll]}")
    how = ", ".join(parts[:-1]) + " et " + parts[-1] if len(parts) > 1 else parts[0]
    return _markdown(
        f"Avec {how}, contre un seuil de {threshold} :\n\n"
        f"- réussite (total ≥ {threshold}) : {_odds(odds.success)} ;\n"
        f"- critique (total ≥ {critical_threshold(threshold)}) : {_odds(odds.critical)} ;\n"
        f"- prodige (quatre dés identiques) : {_odds(odds.prodige)}."
    )


def matrix_example(turn: int, distance: int) -> Markdown:
    """Where a turn and a distance land in the matrix, and what the thresholds mean."""
    tier = tier_for_turn(turn)
    x, u = thresholds(tier, distance)
    attack, defence = roll(x), roll(u)
    return _markdown(
        f"Au tour {turn}, le vent souffle au palier {tier_numeral(tier)}. À {miles(distance)}, "
        f"la matrice donne **X {x}** et **U {u}** : "
        f"l’attaque réussit avec une chance de {_odds(attack.success)}, et une défense "
        f"sans aide tient avec une chance de {_odds(defence.success)}."
    )


def mage_shot_example(tier: int, distance: int, resilience: int = 0) -> Markdown:
    """A shot on a mage, outcome by outcome, ending with the plain-French sentence."""
    shot = shot_on_mage(tier, distance, defence=Side(resilience=resilience))
    o = shot.outcomes
    target = (
        f"cible avec {resilience} point{'s' if resilience > 1 else ''} de Résilience"
        if resilience
        else "cible sans Résilience"
    )
    return _markdown(
        f"Palier {tier_numeral(tier)}, {miles(distance)}"
        f" (X {shot.attack_threshold}, U {shot.defence_threshold}), {target} :\n\n"
        f"- tir manqué : {_odds(o['miss'])} ;\n"
        f"- défense réussie : {_odds(o['defended'])} ;\n"
        f"- défense critique, le tireur recule : {_odds(o['defence_critical'])} ;\n"
        f"- la cible recule d’une case : {_odds(o['push_1'])} ;\n"
        f"- la cible recule de deux cases : {_odds(o['push_2'])}.\n\n"
        f"{how_often('Vous', 'repoussez', 'la cible', shot.p_push)}."
    )


def chest_shot_example(
    tier: int, chest_distance: int, interception: int | None, *, souffle: bool = False
) -> Markdown:
    """A shot on a chest with (or without) interception, and its expected points.

    ``interception`` is the interceptor's distance to the shooter; beyond 4 there is none.
    ``souffle`` uses Souffle portant on the shot (R24: chest distance − 2).
    """
    shot = shot_on_chest(tier, chest_distance, interception, Side(souffle=souffle))
    o = shot.outcomes
    intercepted = interception is not None and shot.defence is not None
    guard = (
        f"un intercepteur à {miles(interception or 0)} (U {shot.defence_threshold})"
        if intercepted
        else "personne pour intercepter"
        if interception is None
        else f"l’intercepteur à {miles(interception)}, hors de portée"
    )
    where = f"coffre à {miles(chest_distance)}"
    if souffle:
        where += f" ramené à {shot.distance} par le Souffle portant"
    caught = (
        f"- tir intercepté : {_odds(o['intercepted'] + o['interception_critical'])} ;\n"
        if intercepted
        else ""
    )
    return _markdown(
        f"Palier {tier_numeral(tier)}, {where} (X {shot.attack_threshold}), {guard} :\n\n"
        f"- tir manqué : {_odds(o['miss'])} ;\n"
        f"{caught}"
        f"- 1 point : {_odds(o['score_1'])} ;\n"
        f"- 2 points : {_odds(o['score_2'])}.\n\n"
        f"En moyenne, ce tir rapporte **{_points(shot.expected_points)}** point"
        f" ({fraction(shot.expected_points)})."
    )


def _points(value: Fraction) -> str:
    return decimal(value, 3)


def _markdown(text: str) -> Markdown:
    return Markdown(french(text))  # type: ignore[no-untyped-call]


def resilience_example(tier: int, distance: int) -> Markdown:
    """How each point of Résilience (R11) lowers the chance of pushing the target."""
    lines = []
    for points in range(4):
        shot = shot_on_mage(tier, distance, defence=Side(resilience=points))
        lines.append(f"- Résilience {points} : {_odds(shot.p_push)} ;")
    lines[-1] = lines[-1].rstrip(" ;") + "."
    x, u = thresholds(tier, distance)
    return _markdown(
        f"Chance de repousser la cible au palier {tier_numeral(tier)}, à {miles(distance)} "
        f"(X {x}, U {u}) :\n\n" + "\n".join(lines)
    )


def rune_effect_example(tier: int, distance: int) -> Markdown:
    """One shot on a mage, with each single rune either side may play (R20)."""
    base = shot_on_mage(tier, distance)
    cases = [
        ("sans rune", Side(), Side()),
        ("le tireur joue Attaque", Side(rune="attaque"), Side()),
        ("le tireur joue Confusion", Side(rune="confusion"), Side()),
        ("le tireur joue Relance", Side(rune="relance"), Side()),
        ("le défenseur joue Défense", Side(), Side(rune="defense")),
        ("le défenseur joue Confusion", Side(), Side(rune="confusion")),
    ]
    lines = [
        f"- {label} : {_odds(shot_on_mage(tier, distance, attack, defence).p_push)} ;"
        for label, attack, defence in cases
    ]
    lines[-1] = lines[-1].rstrip(" ;") + "."
    return _markdown(
        f"Chance de repousser la cible au palier {tier_numeral(tier)}, à {miles(distance)} "
        f"(X {base.attack_threshold}, "
        f"U {base.defence_threshold}) :\n\n" + "\n".join(lines)
    )


def duel_example(tier: int, distance: int) -> Markdown:
    """The rune duel of a shot on a mage, read in R18's order (attacker declares first)."""
    from akvo.duel import rune_duel

    duel = rune_duel("mage", tier, distance)
    names = {
        None: "aucune rune",
        "attaque": "Attaque",
        "defense": "Défense",
        "confusion": "Confusion",
        "relance": "Relance",
    }
    choice = duel.attacker_options[duel.sequential_attacker_choice]
    row = duel.payoff[duel.sequential_attacker_choice]
    answer = duel.defender_options[duel.defender_best_response[duel.sequential_attacker_choice]]
    return _markdown(
        f"Palier {tier_numeral(tier)}, {miles(distance)} : "
        f"le tireur a intérêt à annoncer **{names[choice]}**. Le défenseur répond au mieux "
        f"avec **{names[answer]}** ; le tireur garde alors une chance de {_odds(min(row))} "
        f"de repousser sa cible, contre {_odds(duel.payoff[0][0])} si personne ne joue "
        f"de rune."
    )


def grimoire_table() -> Markdown:
    """The 26 runes of the grimoire grouped by category (R19's reading)."""
    from akvo.rules import RuneCategory, runes_in

    lines = ["| Catégorie | Symbole | Runes |", "|---|---|---|"]
    for category in RuneCategory:
        runes = runes_in(category)
        names = ", ".join(f"{r.letter} {r.name}" for r in runes)
        lines.append(f"| {category.label} | {runes[0].symbol} | {names} |")
    return _markdown("\n".join(lines))


def threshold_matrix() -> Markdown:
    """The Attack / Defence matrix as a Markdown table, read from :mod:`akvo.rules`."""
    header = "| Vent | " + " | ".join(f"{miles(d)}" for d in DISTANCES)
    rows = [header + " |", "|---" * (len(DISTANCES) + 1) + "|"]
    for tier in TIERS:
        cells = (f"X {x} · U {u}" for x, u in (thresholds(tier, d) for d in DISTANCES))
        rows.append(
            f"| Palier {tier_numeral(tier)} ({turns_of_tier(tier)}) | " + " | ".join(cells) + " |"
        )
    return _markdown("\n".join(rows))


def highest_score_example() -> Markdown:
    """The highest score the rules allow (R26), as the engine plays it (akvo.match.showcase)."""
    from akvo.match.showcase import highest_score

    best, other = highest_score(), highest_score("perrockiss")
    last_turn = len(best.per_turn)
    return _markdown(
        f"Le moteur joue cette partie idéale avec une équipe dont la rune U appartient au "
        f"Pédalair ({best.team_list}) : **{best.total} points**, dont {best.per_turn[0]} "
        f"au tour 1 puis {best.per_turn[1]} à chacun des tours 2 à {last_turn} ; l’adversaire "
        f"finit à {best.opponent}. Avec l’{other.team.replace('Équipe', 'équipe')}, dont la "
        f"rune U est ailleurs, le même plan donne **{other.total} points** "
        f"({other.per_turn[0]} au tour 1)."
    )


def shooter_on_board() -> Any:
    """A turn-3 position on the live board with A's Surfeur selected: each target it could
    shoot shows its chance of pushing (the chest: its expected points), from the engine."""
    from akvo.match import scenario
    from akvo_widgets.board.widget import Board

    position = scenario(
        turn=3,
        rows={"A": {"surfeur": 5, "navire": 4}, "B": {"plongeur": 5}},
        resilience={"B": {"surfeur": 1}},
    )
    board = Board(position)
    board.select("A", "surfeur")
    return board
