"""« Votre premier tour »: a guided turn on the real engine, with scripted dice.

The lesson is a list of :class:`Step`: the reader's moves (``you``), the other side's moves
and the dice (``them``, ``dice``), each with one French sentence, through the whole first
turn. The reader sees every legal decision as a button (and on the board), each with the
coach's exact value (:func:`akvo.coach.decision_values`, « pour A »), behind a « Conseils »
switch. A move other than the lesson's is refused with its reason computed from the position
(its value against the lesson's), and nothing changes. The lesson plays the best move by
those values, except at a step marked ``demo``, where the page says so. The dice are the
engine's own chance actions (``roll 5546``), applied by the lesson, so the log and every
number come from the engine.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from fractions import Fraction
from html import escape
from pathlib import Path
from typing import Final

import ipywidgets as widgets

from akvo.coach import DecisionValues, OptionValue, decision_values
from akvo.errors import AkvoError
from akvo.match import MatchState, Phase, scenario
from akvo.match.board import SIDE_NAMES
from akvo.rules import CRITICAL_MARGIN
from akvo_widgets.board.height import BoardHeight
from akvo_widgets.board.view import log_html, make_board, status_html, typeset
from akvo_widgets.kit import controls as c
from akvo_widgets.text.formatting import NBSP, french
from akvo_widgets.text.labels import action_label, faces

from .advice import exact_points, value_phrase
from .decisions import ActionButtons, OrdersComposer
from .exercises import rune_threshold
from .game import STYLE, sheet
from .layout import board_beside
from .refusals import move_refusal

NEXT_PAGE = "jouer-un-match.ipynb"


@dataclass(frozen=True, slots=True)
class Step:
    """One move of the lesson: who makes it, the engine action, and what it teaches."""

    who: str  # "you" (the reader, side A), "them" (side B) or "dice"
    action: str
    text: str
    #: Why the lesson keeps this move although another is worth more now (it is then said
    #: to be for the demonstration, with both values from the engine).
    demo: str = ""


def lesson_position() -> MatchState:
    """Turn 1, both Surfeurs face to face, A's Plongeur in range of B's chest, B's
    Kitesurfeur in range of A's chest (R2 start rows otherwise)."""
    return scenario(turn=1, rows={"A": {"surfeur": 5, "plongeur": 5}, "B": {"kitesurfeur": 4}})


#: The lesson's script, kept as content in ``tutorial_lesson.toml`` (one ``[[step]]`` a move).
LESSON_FILE: Final = Path(__file__).resolve().parent / "tutorial_lesson.toml"


def _lesson() -> tuple[Step, ...]:
    steps = tomllib.loads(LESSON_FILE.read_text("utf-8"))["step"]
    return tuple(
        Step(**{**row, "text": row["text"].format(critical_margin=CRITICAL_MARGIN)})
        for row in steps
    )


LESSON: Final[tuple[Step, ...]] = _lesson()
END_TEXT = (
    "Bravo, vous avez joué votre premier tour entier : des ordres secrets, une poussée "
    "critique avec de la Résilience gagnée, une interception, des points marqués, puis "
    "chaque unité a avancé. "
)
TUTORIAL_STYLE = """<style>
.akvo-tutorial a.akvo-tutorial-next { color: #0b57a4; text-decoration: underline;
  font-weight: bold; }
.akvo-tutorial a.akvo-tutorial-next:focus-visible { outline: 2px solid #0b57a4; }
.akvo-tutorial .akvo-tutorial-assumption { font-size: 90%; color: #444; }
.akvo-tutorial .akvo-tutorial-refusal { display: none; }
/* A phone: the step's text is in the decision's sheet, stuck to the bottom of the screen
   with the buttons (game.STYLE); a refused move's reason shows there, atop the text. */
@media (max-width: 640px) {
  .akvo-tutorial .akvo-tutorial-step .widget-html-content { line-height: 1.3; }
  .akvo-tutorial .akvo-tutorial-step p { margin: 0.25em 0; }
  .akvo-tutorial .akvo-tutorial-step, .akvo-tutorial .akvo-tutorial-progress { font-size: 14px; }
  .akvo-tutorial .akvo-tutorial-step .akvo-tutorial-refusal { display: block;
    border-left: 3px solid #b3261e; padding-left: 0.4em; }
  .akvo-tutorial .akvo-tutorial-message { display: none; }
}
</style>"""


def _shooter_side(values: DecisionValues) -> int:
    """Whose the shot values are: at a defence rune, the other side's (the shooter's)."""
    return values.side if values.higher_is_better else 1 - values.side


def _quoted(state: MatchState, values: DecisionValues, option: OptionValue) -> str:
    phrase = value_phrase(option, _shooter_side(values))
    return f"« {action_label(state, option.action)} »" + (f" ({phrase})" if phrase else "")


def _per_shot(option: OptionValue) -> bool:
    return option.note.startswith("per shot")  # Trident: the same worth, up to three times


def _better(values: DecisionValues, one: OptionValue, other: OptionValue) -> bool:
    """Whether ``one`` is worth strictly more than ``other`` to the side deciding: by the
    bots' points (a push chance and a chest's points compare), else by the value."""
    if one.worth is not None and other.worth is not None:
        a, b = one.worth, other.worth
    elif one.value is not None and other.value is not None:
        a, b = one.value, other.value
    else:
        return False
    if a == b:
        return _per_shot(one) and not _per_shot(other)
    return (a > b) == values.higher_is_better  # a defence wants the shooter's values low


def _best(values: DecisionValues) -> OptionValue:
    """The option worth most (shots with Souffle portant left out, as the bots keep it)."""
    best = values[values.suggestion] if values.suggestion in values.values else values.options[0]
    for option in values:
        if "souffle" not in option.action.split() and _better(values, option, best):
            best = option
    return best


def refusal_reason(state: MatchState, action: str, step: Step) -> str:
    """Why the lesson refuses the legal move ``action`` here, from the position's values:
    the lesson's move is worth more, as much (the lesson follows its script), or less —
    then for a reason the page gives (a rune kept, the demonstration)."""
    values = decision_values(state)
    chosen, lesson = values[action], values[step.action]
    theirs, ours = _quoted(state, values, chosen), _quoted(state, values, lesson)
    side = SIDE_NAMES[values.side]
    if chosen.value is None or lesson.value is None:
        suggestion = action_label(state, values.suggestion)
        return (
            f"{theirs} est permis par les règles, mais la leçon a besoin de {ours} pour "
            f"montrer chaque étape du tour (le bot « normal » choisirait « {suggestion} »)."
        )
    if _better(values, lesson, chosen):
        top = not _better(values, _best(values), lesson)
        best = " : c’est le meilleur choix ici" if top else ""
        return f"{theirs} est permis, mais {ours} est meilleur pour {side}{best}."
    if not _better(values, chosen, lesson):
        return f"{theirs} vaut autant pour {side} que {ours} : la leçon suit ce dernier."
    if state.phase in (Phase.ATTACK_RUNE, Phase.DEFENCE_RUNE) and step.action == "no rune":
        gain = abs((chosen.worth or Fraction(0)) - (lesson.worth or Fraction(0)))
        threshold = rune_threshold(state.turn)
        return (
            f"{theirs} est meilleur pour {side} que {ours}, mais une rune ne sert qu’une fois "
            f"par match : le gain, {exact_points(gain)}{NBSP}point, reste sous le seuil du bot "
            f"« normal » au tour {state.turn} ({exact_points(threshold)}{NBSP}point)."
        )
    if "souffle" in action.split():  # the lesson, like the bots, keeps the Ultime (_best)
        bot = "souffle" not in values.suggestion.split()
        return (
            f"{theirs} est meilleur pour {side} que {ours}, mais Souffle portant est un "
            "Ultime, qui ne sert qu’une fois par match : la leçon le garde pour plus tard"
            + (", comme le bot « normal » ici." if bot else ".")
        )
    return f"{theirs} est meilleur pour {side} que {ours} ; pour la démonstration, {step.demo}."


def demo_note(state: MatchState, step: Step) -> str:
    """At a ``demo`` step: the better move and both values, said before the reader plays."""
    if not step.demo:
        return ""
    values = decision_values(state)
    best, lesson = _best(values), values[step.action]
    if not _better(values, best, lesson):
        return ""
    return (
        f"Pour la démonstration seulement : {_quoted(state, values, best)} est meilleur que "
        f"{_quoted(state, values, lesson)}, mais {step.demo}."
    )


class Tutorial(widgets.VBox):  # type: ignore[misc]
    """The guided first turn; :meth:`play` is what every button and board click calls."""

    def __init__(self) -> None:
        self.state = lesson_position()
        self.index = 0
        self.story: list[str] = []
        self._lead = ""  # the step's text (HTML)
        self._refused = ""  # why the reader's last move was refused, until the next step
        self.progress = c.html("akvo-tutorial-progress")
        self.step_text = c.html("akvo-tutorial-step")
        self.message = c.html("akvo-tutorial-message")
        self.told = c.html("akvo-tutorial-story")
        self.status = c.html("akvo-play-status")
        self.events = c.html("akvo-play-log")
        self.assumption = c.html("akvo-tutorial-assumption")
        self.advice = c.described(
            widgets.Checkbox,
            "Conseils : la valeur exacte de chaque choix",
            value=True,
            indent=False,
            layout=widgets.Layout(width="auto"),
        )
        self.advice.add_class("akvo-tutorial-advice")
        self.advice.observe(lambda _change: self.render(), "value")
        self.restart = c.button("Recommencer", "akvo-tutorial-restart", self.reset)
        self.decisions = widgets.VBox()
        self.decisions.add_class("akvo-play-decisions")
        self.composer = OrdersComposer(self.play)
        self.action_buttons = ActionButtons(self.play)
        self.buttons: dict[str, widgets.Button] = {}
        self.board = make_board(self.state, 0, self.play)
        self.board.compact = True
        self.board.players = [0]
        self.sheet = sheet(self.progress, self.status, self.step_text, self.decisions)
        column = [self.sheet, self.assumption, self.message, self.advice, self.told]
        main = board_beside(self.board, column)
        style = widgets.HTML(STYLE + TUTORIAL_STYLE)
        super().__init__([style, BoardHeight(), main, self.events])
        self.add_class("akvo-play")
        self.add_class("akvo-widget")
        self.add_class("akvo-tutorial")
        self._run_script()

    @property
    def finished(self) -> bool:
        return self.index >= len(LESSON)

    @property
    def expected(self) -> str | None:
        """The lesson's next move for the reader, or ``None`` at the end."""
        return None if self.finished else LESSON[self.index].action

    def reset(self) -> None:
        """« Recommencer »: the lesson from its first step."""
        self.state = lesson_position()
        self.index = 0
        self.story = []
        self._refused = ""
        self._run_script()

    def play(self, action: str) -> None:
        """The reader's move: applied if it is the lesson's, else refused with the reason."""
        expected = self.expected
        if expected is None:
            return
        if action != expected:
            self._refuse(action)
            return
        self.state.apply_action(action)
        self.story = []
        self._refused = ""
        self.index += 1
        self._run_script()
        first = self.decisions.children[0] if self.decisions.children else None
        if isinstance(first, OrdersComposer):
            first = first.confirm  # a toggle takes no focus from the kernel
        if first is not None:
            first.focus()  # the keyboard goes on at the next step's first option

    def _refuse(self, action: str) -> None:
        if action in self.state.legal_actions():
            why = refusal_reason(self.state, action, LESSON[self.index])
        else:
            why = move_refusal(self.state, action)
        self._refused = french("Pas tout à fait : " + why)
        self._show_step()

    def _show_step(self) -> None:
        """The step's text, and a refused move's reason under the buttons and, for a phone,
        atop the step's text in the sheet (the one under the buttons is off the screen there);
        the page's CSS shows one of the two only, so that a screen reader announces it once."""
        why = escape(self._refused)
        self.message.value = f'<p role="alert">{why}</p>' if why else ""
        phone = f'<p class="akvo-tutorial-refusal" role="alert">{why}</p>' if why else ""
        self.step_text.value = phone + self._lead

    def _run_script(self) -> None:
        """Apply B's moves and the dice of the lesson until the reader's next move."""
        while not self.finished and LESSON[self.index].who != "you":
            step = LESSON[self.index]
            prompt = self.state.prompt()
            try:
                self.state.apply_action(step.action)
            except AkvoError as error:  # the lesson is tested; this guards an engine change
                raise RuntimeError(f"lesson step {self.index} is illegal: {error}") from error
            dice = f" {faces(step.action)}" if step.action.startswith("roll") else ""
            line = f"{typeset(prompt)}{dice} — {french(step.text)}" if dice else french(step.text)
            self.story.append(line)
            self.index += 1
        self.render()

    def render(self) -> None:
        self._draw_step()
        # last: once the page says « Étape n », the step's buttons already carry its actions
        # (the buttons are reused, and a press plays what the kernel last gave the button)
        self.progress.value = f"<p>{progress_text(min(self.index, len(LESSON)))}</p>"

    def _draw_step(self) -> None:
        state = self.state
        self.board.state = state
        self.board.values = self.advice.value
        self.events.value = log_html(state.events)
        self.status.value = status_html(state)
        items = "".join(f"<li>{escape(line)}</li>" for line in self.story)
        self.told.value = f"<ul>{items}</ul>" if items else ""
        self.assumption.value = ""
        if self.finished:
            self._lead = (
                f"<p><b>{escape(french(END_TEXT))}</b> "
                f'<a class="akvo-tutorial-next" href="{NEXT_PAGE}" target="_self">'
                f"Jouez maintenant un match entier →</a></p>"
            )
            self._show_step()
            self.decisions.children = [self.restart]
            return
        step = LESSON[self.index]
        note = demo_note(state, step) if self.advice.value else ""
        self._lead = f"<p><b>{escape(french(step.text))}</b></p>" + (
            f'<p class="akvo-tutorial-demo">{escape(french(note))}</p>' if note else ""
        )
        self._show_step()
        if state.phase == Phase.ORDERS:
            self.composer.reset()
            self.decisions.children = [self.composer]
            if self.advice.value:  # no exact number for orders: the normal bot's programme
                suggestion = action_label(state, decision_values(state).suggestion)
                advice = f"Conseil : le bot « normal » programmerait « {suggestion} »."
                self.assumption.value = f"<p>{escape(french(advice))}</p>"
            return
        self.buttons = self.action_buttons.show(state)
        self.decisions.children = list(self.buttons.values())
        self._label(state)

    def _label(self, state: MatchState) -> None:
        """Each button's text with the coach's value (« Conseils » on), or without any."""
        values = decision_values(state)
        side = _shooter_side(values)
        for action, button in self.buttons.items():
            phrase = value_phrase(values[action], side) if self.advice.value else ""
            label = action_label(state, action)
            button.description = f"{label} — {french(phrase)}" if phrase else label
        if self.advice.value:
            whose = SIDE_NAMES[side]
            self.assumption.value = (
                f"<p>{escape(french(f'Valeurs exactes pour {whose} : {values.assumption_fr}.'))}"
                "</p>"
            )


def progress_text(done: int) -> str:
    return f"Étape {done} sur {len(LESSON)}"
