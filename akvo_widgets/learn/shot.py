"""ShotCalculator: one shot on a mage (R16) or a chest (R17), with each side's choices."""

from __future__ import annotations

from typing import Any, ClassVar

import bqplot as bq
import ipywidgets as w
import traitlets

from akvo.config import DEFAULT_RULES, RulesConfig
from akvo.errors import ShotError
from akvo.resolution import MAX_SOUFFLE_DISTANCE, SOUFFLE_REDUCTION
from akvo.rules import DISTANCES, miles, tier_for_turn
from akvo.shots import (
    CHEST_OUTCOMES,
    MAGE_OUTCOMES,
    RelancePolicy,
    RuneChoice,
    ShotKind,
    ShotOdds,
    Side,
    chest_shot_on_board,
    shot_on_chest,
    shot_on_mage,
)
from akvo_widgets.kit import controls as c
from akvo_widgets.kit.calculator import Calculator
from akvo_widgets.text.formatting import (
    decimal,
    fraction,
    french,
    how_often,
    percent,
    tier_numeral,
)

RuneOption = tuple[RuneChoice, RelancePolicy]

KIND_CHOICES: tuple[tuple[str, ShotKind], ...] = (
    ("Tir sur un mage", "mage"),
    ("Tir sur un coffre", "chest"),
)


def _rune_choices(
    own: tuple[str, RuneOption], confusion: str
) -> tuple[tuple[str, RuneOption], ...]:
    """A side's rune drop-down: none, its own bonus rune, Confusion, Relance's two aims."""
    return (
        ("Aucune", (None, "success")),
        own,
        (f"Confusion : −1 dé {confusion}", ("confusion", "success")),
        ("Relance : viser la réussite", ("relance", "success")),
        ("Relance : viser le critique", ("relance", "critical")),
    )


ATTACK_RUNE_CHOICES = _rune_choices(
    ("Attaque : +2 à l’attaque", ("attaque", "success")), "au défenseur"
)
DEFENCE_RUNE_CHOICES = _rune_choices(
    ("Défense : +2 à la défense", ("defense", "success")), "à l’attaquant"
)
#: A drop-down cannot show a ``None`` value: 0 stands for "no interceptor in range" (R17).
NO_INTERCEPTOR = 0
INTERCEPTION_CHOICES: tuple[tuple[str, int], ...] = (
    *((miles(d), d) for d in DISTANCES),
    ("Personne à portée", NO_INTERCEPTOR),
)
OUTCOME_LABELS = {
    "miss": "Tir manqué",
    "defended": "Défense réussie",
    "defence_critical": "Défense critique (le tireur recule)",
    "push_1": "La cible recule d’une case",
    "push_2": "La cible recule de deux cases",
    "intercepted": "Interception",
    "interception_critical": "Interception critique (le tireur recule)",
    "score_1": "Coffre capturé : 1 point",
    "score_2": "Coffre capturé : 2 points",
}
#: Under the chart's bars: short enough not to touch at 390 px (five bars in 300 px).
SHORT_LABELS = {
    "miss": "Manqué",
    "defended": "Défendu",
    "defence_critical": "Déf. crit.",
    "push_1": "Recul 1",
    "push_2": "Recul 2",
    "intercepted": "Intercepté",
    "interception_critical": "Int. crit.",
    "score_1": "1 point",
    "score_2": "2 points",
}
COLOURS = ("#a9b8bf", "#7aa6c2", "#c05a4a", "#2a7fb8", "#e8a33d")
DISTANCE_LIMIT = DISTANCES[-1]  # R4, R5: the longest shot without Souffle portant


class SituationCalculator(Calculator):
    """A calculator of one shot's situation: the shot and the rune duel take the same
    arguments (``kind``, ``turn``, ``distance``, ``rules``) and the same controls
    (``kind``, ``turn`` with ``tier_label``, ``distance`` from 1 to :attr:`LONGEST`,
    ``interception``), so both are built here once; a subclass names its CSS prefix and
    adds its own controls and results in :meth:`build`."""

    CSS: ClassVar[str]
    LONGEST: ClassVar[int]

    def __init__(
        self,
        kind: ShotKind = "mage",
        turn: int = 1,
        distance: int = 1,
        *,
        rules: RulesConfig = DEFAULT_RULES,
    ) -> None:
        self.rules = rules
        css = self.CSS
        self.kind = c.dropdown("Cible", KIND_CHOICES, kind, f"{css}-kind")
        self.turn = c.slider("Tour", 1, 10, turn, f"{css}-turn")
        self.tier_label = c.html(f"{css}-tier")
        self.distance = c.slider("Distance du tir", 1, self.LONGEST, distance, f"{css}-distance")
        self.interception = c.dropdown(
            "Intercepteur à", INTERCEPTION_CHOICES, 1, f"{css}-interception"
        )
        super().__init__()
        self.build()

    def build(self) -> None:
        """The subclass's own controls, results and layout, then :meth:`watch`."""
        raise NotImplementedError

    def situation_widgets(self) -> list[w.Widget]:
        """The situation's controls as both calculators lay them out, top to bottom (the
        interceptor's control apart: each shows it for a chest only)."""
        return [self.kind, w.HBox([self.turn, self.tier_label]), self.distance]


def show_situation(calculator: Calculator, interception: Any) -> bool:
    """Fit the situation's controls to what they say: ``interception`` (the interceptor's
    control, or its row) shown for a chest only, the distance named after the target, the
    turn's tier. Whether the target is the chest."""
    is_chest: bool = calculator.kind.value == "chest"
    interception.layout.display = "" if is_chest else "none"
    calculator.distance.description = "Distance du coffre" if is_chest else "Distance du tir"
    calculator.tier_label.value = f"palier {tier_numeral(tier_for_turn(calculator.turn.value))}"
    return is_chest


def _side(rune: Any, **controls: Any) -> Side:
    """The :class:`~akvo.shots.Side` that a rune drop-down (its values: rune and Relance
    policy) and the controls of the other fields (by field name) describe."""
    choice, policy = rune.value
    values = {name: control.value for name, control in controls.items()}
    return Side(rune=choice, policy=policy, **values)


class ShotCalculator(SituationCalculator):
    """Turn, distance and both sides' choices → the shot's outcomes, exactly.

    Controls are public attributes; ``odds`` is the engine's :class:`~akvo.shots.ShotOdds`
    for the current settings (``None`` when the combination cannot be played, R20);
    setting ``rules`` recomputes it, and ``odds`` can be observed.
    """

    odds = traitlets.Any(None, allow_none=True)
    CSS = "akvo-shot"
    # The range stays 1–6 (Souffle portant's reach): changing a slider's maximum in the
    # browser leaves its End key at the old one. Beyond 4 without Souffle: no shot.
    LONGEST = MAX_SOUFFLE_DISTANCE

    def build(self) -> None:
        self.attack_rune = c.dropdown(
            "Rune du tireur", ATTACK_RUNE_CHOICES, (None, "success"), "akvo-shot-attack-rune"
        )
        self.vigie = c.checkbox("Vigie (+1 à l’attaque)", "akvo-shot-vigie")
        self.souffle = c.checkbox("Souffle portant (−2 de distance)", "akvo-shot-souffle")
        self.attack_tourbillon = c.checkbox(
            "Tourbillon (le tireur est le Kitesurfeur)", "akvo-shot-attack-tourbillon"
        )
        self.defence_rune = c.dropdown(
            "Rune du défenseur", DEFENCE_RUNE_CHOICES, (None, "success"), "akvo-shot-defence-rune"
        )
        self.resilience = c.slider("Résilience", 0, 3, 0, "akvo-shot-resilience")
        self.egide = c.checkbox("Égide (+1 à la défense)", "akvo-shot-egide")
        self.defence_tourbillon = c.checkbox(
            "Tourbillon (la cible est le Kitesurfeur)", "akvo-shot-defence-tourbillon"
        )
        self.main = c.html("akvo-shot-main")
        self.sentence = c.html("akvo-sentence")
        self.sentence.add_class("akvo-shot-sentence")
        self.board_note = c.html("akvo-shot-board-note")
        self.table = c.html("akvo-odds")
        self.odds = None
        self._bars, self.figure = _outcome_figure()

        shared = w.VBox(self.situation_widgets())
        self._interception_row = w.VBox([self.interception])
        attacker = w.VBox(
            [
                w.HTML("<b>Le tireur</b>"),
                self.attack_rune,
                self.vigie,
                self.souffle,
                self.attack_tourbillon,
            ]
        )
        defender = w.VBox(
            [
                w.HTML("<b>Le défenseur</b>"),
                self.defence_rune,
                self.resilience,
                self.egide,
                self.defence_tourbillon,
            ]
        )
        self.children = [
            c.panel(
                [
                    shared,
                    self._interception_row,
                    w.HBox([attacker, defender]),
                    self.main,
                    self.sentence,
                    self.board_note,
                    w.HBox([self.table, self.figure]),
                ],
                "akvo-shot",
            )
        ]
        controls = (
            self.kind,
            self.turn,
            self.distance,
            self.interception,
            self.attack_rune,
            self.vigie,
            self.souffle,
            self.attack_tourbillon,
            self.defence_rune,
            self.resilience,
            self.egide,
            self.defence_tourbillon,
        )
        self.watch(controls)

    # --- What the controls say ------------------------------------------------------------

    def sides(self) -> tuple[Side, Side]:
        """The attacking and defending :class:`~akvo.shots.Side` the controls describe."""
        attack = _side(
            self.attack_rune,
            vigie=self.vigie,
            souffle=self.souffle,
            tourbillon=self.attack_tourbillon,
        )
        defence = _side(
            self.defence_rune,
            resilience=self.resilience,
            egide=self.egide,
            tourbillon=self.defence_tourbillon,
        )
        return attack, defence

    def compute(self) -> ShotOdds:
        """Ask the engine; raises :class:`~akvo.errors.ShotError` for an unplayable choice."""
        attack, defence = self.sides()
        tier = tier_for_turn(self.turn.value)
        if self.kind.value == "mage":
            return shot_on_mage(tier, self.distance.value, attack, defence, rules=self.rules)
        return shot_on_chest(
            tier,
            self.distance.value,
            interception_distance(self.interception),
            attack,
            defence,
            rules=self.rules,
        )

    # --- Display --------------------------------------------------------------------------

    def _update(self, _change: Any = None) -> None:
        is_chest = show_situation(self, self._interception_row)
        if not self.souffle.value and self.distance.value > DISTANCE_LIMIT:
            self._no_shot(out_of_range(self.distance.value, is_chest))
            return
        try:
            self.odds = self.compute()
        except ShotError:
            self._no_shot(
                "Personne ne peut intercepter : la rune choisie n’aurait rien à modifier, "
                "elle ne peut pas être jouée (R20)."
            )
            return
        # The number a reader waits for goes first (each widget's update is one message,
        # sent when its value is set); what did not change sends nothing.
        self.main.value = french(headline(self.odds))
        self.sentence.value = french(sentence(self.odds))
        self.table.value = outcome_table(self.odds)
        self.board_note.value = board_note(self) if is_chest else ""
        self.figure.layout.display = ""
        keys = MAGE_OUTCOMES if self.odds.kind == "mage" else CHEST_OUTCOMES
        _draw(
            self._bars,
            [SHORT_LABELS[k] for k in keys],
            [float(self.odds.outcomes[k]) * 100 for k in keys],
        )

    def _no_shot(self, why: str) -> None:
        """No odds to show: say why, and hide the chart rather than leave an empty frame."""
        self.odds = None
        self.main.value = ""
        self.sentence.value = french(why)
        self.table.value = ""
        self.board_note.value = ""
        _draw(self._bars, (), ())
        self.figure.layout.display = "none"


def out_of_range(distance: int, is_chest: bool) -> str:
    """Why a shot from beyond 4 miles needs Souffle portant (R4, R5, R24)."""
    what = "le coffre est" if is_chest else "la cible est"
    return (
        f"À {distance} miles, {what} hors de portée : un tir porte à {DISTANCE_LIMIT} miles "
        f"au plus (R4, R5). Le Souffle portant rapproche la cible de {SOUFFLE_REDUCTION} "
        "miles (R24) : cochez-le pour tirer de si loin."
    )


def interception_distance(control: Any) -> int | None:
    """The interception distance an interceptor drop-down means (``None``: nobody)."""
    value = control.value
    return None if value == NO_INTERCEPTOR else int(value)


def board_note(calculator: ShotCalculator) -> str:
    """A warning when the board cannot produce the chosen chest shot (R10, R11, R24)."""
    return chest_board_note(
        calculator.distance.value,
        interception_distance(calculator.interception),
        souffle=calculator.souffle.value,
    )


def chest_board_note(distance: int, interceptor: int | None, *, souffle: bool = False) -> str:
    """The warning for a chest shot the board cannot produce (empty when it can)."""
    if chest_shot_on_board(distance, interceptor, souffle=souffle):
        return ""
    return off_board_note("ce cas", interceptor)


def off_board_note(case: str, interceptor: int | None) -> str:
    """« Sur le plateau, {case} n’arrive pas », with the reason (R10, R11, R24)."""
    if interceptor is None:
        why = (
            "le défenseur du couloir est toujours à portée d’interception, sauf pour un tir "
            "avec le Souffle portant depuis 6 cases (R10, R11, R24)"
        )
    else:
        why = (
            "le défenseur du couloir se tient toujours entre le tireur et le coffre, donc plus "
            "près du tireur que le coffre, lui-même à 2 cases au moins (R10, R11)"
        )
    return french(
        f'<p class="akvo-note">Sur le plateau, {case} n’arrive pas : {why}. '
        "Les chances restent calculées, pour comparer.</p>"
    )


def headline(odds: ShotOdds) -> str:
    """The number that matters most, with its exact fraction."""
    where = f"X {odds.attack_threshold}" + (
        f", U {odds.defence_threshold}" if odds.defence_threshold is not None else ""
    )
    if odds.kind == "mage":
        value = (
            f'Chance de repousser la cible : <b class="akvo-shot-value">{percent(odds.p_push)}'
            f'</b> <span class="akvo-fraction">({fraction(odds.p_push)})</span>'
        )
    else:
        value = (
            f'Points marqués en moyenne : <b class="akvo-shot-value">'
            f"{decimal(odds.expected_points, 3)}</b>"
            f' <span class="akvo-fraction">({fraction(odds.expected_points)})</span>'
        )
    return f"{value} <span class='akvo-fraction'>— seuils {where}, distance {odds.distance}</span>"


def sentence(odds: ShotOdds) -> str:
    """The shot in one plain French sentence."""
    if odds.kind == "mage":
        hit = how_often("Vous", "repoussez", "la cible", odds.p_push)
    else:
        hit = how_often("Vous", "capturez", "le coffre", odds.p_score)
    return f"{hit} ; {how_often('votre tireur', 'recule', '', odds.p_shooter_pushed)}."


def outcome_table(odds: ShotOdds) -> str:
    """Every outcome with its percentage and exact fraction."""
    return c.table(
        ["Issue", "Chance", "Fraction exacte"],
        [
            [
                c.cell(OUTCOME_LABELS[key]),
                c.cell(percent(p), f"akvo-shot-{key}"),
                c.cell(fraction(p), "akvo-fraction"),
            ]
            for key, p in odds.outcomes.items()
        ],
    )


def _outcome_figure() -> tuple[bq.Bars, bq.Figure]:
    x = bq.OrdinalScale()
    y = bq.LinearScale(min=0.0, max=100.0)
    bars = bq.Bars(x=[], y=[], scales={"x": x, "y": y}, colors=list(COLOURS))
    figure = bq.Figure(
        marks=[bars],
        axes=[
            bq.Axis(scale=x, tick_style={"font-size": "10px"}),
            bq.Axis(scale=y, orientation="vertical", label="Chance (%)", tick_format=".0f"),
        ],
        fig_margin={"top": 10, "bottom": 30, "left": 50, "right": 10},
        display_toolbar=False,  # its icons come from a CDN font; zoom has no use here
        layout=w.Layout(width="100%", max_width="440px", height="240px"),
    )
    figure.add_class("akvo-shot-plot")
    return bars, figure


def _draw(bars: bq.Bars, labels: Any, values: Any) -> None:
    with bars.hold_sync():
        bars.x = list(labels)
        bars.y = list(values)
