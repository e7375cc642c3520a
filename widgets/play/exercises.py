"""« Exercices »: a random legal position from the engine, a question, an exact grade.

Positions come from seeded random matches (:func:`akvo.match.play_match`'s bots and dice),
stopped at a target decision. Two kinds of question, both graded with the exact values of
:func:`akvo.match.preview.target_values`: which mage to shoot for the best chance to push,
and how likely one shot is to push. The page keeps a running score.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from html import escape

import ipywidgets as widgets

from akvo.match import MatchState, RandomBot, new_match
from akvo.match.preview import target_values

from ..formatting import fraction, french, percent
from .game import STYLE
from .labels import action_label
from .view import make_board, status_html

MAX_ACTIONS = 2_000
KINDS = ("best target", "estimate")


@dataclass(frozen=True)
class Exercise:
    """One question on one position: options (action or value text) and their exact values."""

    number: int
    kind: str
    state: MatchState
    question: str
    options: dict[str, str]  # answer key → French label
    values: dict[str, Fraction]  # answer key → exact value (the best is the answer)
    correct: str

    def why(self) -> str:
        best = self.options[self.correct]
        if self.kind == "best target":
            return french(
                f"La meilleure réponse : « {best} », avec {percent(self.values[self.correct])} "
                f"de chances de repousser ({fraction(self.values[self.correct])}), la plus "
                "haute des cibles possibles."
            )
        return french(
            f"La chance exacte est {percent(Fraction(self.correct))} "
            f"({fraction(Fraction(self.correct))}) : la table des dés et la matrice du vent "
            "la donnent, Résilience et Ultimes compris."
        )


def _mage_values(state: MatchState) -> dict[str, Fraction]:
    return {a: v for a, v in target_values(state).items() if "chest" not in a}


def _positions(rng: random.Random) -> MatchState | None:
    """A random match, stopped at a random target decision with two or more mage targets."""
    state = new_match()
    bot = RandomBot(rng.randrange(1 << 30))
    stops = rng.randrange(1, 12)
    for _ in range(MAX_ACTIONS):
        if state.is_terminal():
            return None
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
            continue
        if state.phase_name() == "target":
            values = _mage_values(state)
            ranked = sorted(values.values(), reverse=True)
            if len(ranked) >= 2 and ranked[0] > ranked[1]:
                stops -= 1
                if stops == 0:
                    return state
        state.apply_action(bot(state))
    return None


def make_exercise(number: int) -> Exercise:
    """The exercise of a number (the number is its seed: the same number, the same question)."""
    rng = random.Random(number)
    state = None
    while state is None:
        state = _positions(rng)
    values = _mage_values(state)
    shooter = french(state.prompt().replace(" choisit sa cible.", ""))
    kind = KINDS[number % len(KINDS)]
    if kind == "best target":
        options = {a: action_label(state, a) for a in values}
        correct = max(values, key=lambda a: values[a])
        question = f"{shooter} tire. Quelle cible lui donne la meilleure chance de la repousser ?"
        return Exercise(number, kind, state, french(question), options, values, correct)
    action = rng.choice(sorted(values))
    true = values[action]
    choices = {true}
    for other in sorted(set(values.values()) | {true / 2, min(1 - true, true * 2), 1 - true}):
        if len(choices) >= 4:
            break
        if abs(other - true) >= Fraction(1, 50) and all(
            abs(other - c) >= Fraction(1, 50) for c in choices
        ):
            choices.add(other)
    ordered = sorted(choices)
    keys = {str(v): v for v in ordered}
    label = action_label(state, action)
    question = f"{shooter} : « {label} ». Quelle est sa chance de repousser la cible ?"
    return Exercise(
        number,
        kind,
        state,
        french(question),
        {k: percent(v) for k, v in keys.items()},
        {k: Fraction(1) if v == true else Fraction(0) for k, v in keys.items()},
        str(true),
    )


def score_text(right: int, asked: int) -> str:
    return f"Score : {right} sur {asked}"


class Exercises(widgets.VBox):  # type: ignore[misc]
    """Exercise after exercise; ``first`` fixes the first exercise's number (its seed)."""

    def __init__(self, first: int | None = None) -> None:
        self.rng = random.Random(first)
        self.right = 0
        self.asked = 0
        self.number_text = self._html("akvo-exercise-number")
        self.question = self._html("akvo-exercise-question")
        self.feedback = self._html("akvo-exercise-feedback")
        self.score = self._html("akvo-exercise-score")
        self.status = self._html("akvo-play-status")
        self.answers = widgets.VBox()
        self.answers.add_class("akvo-exercise-answers")
        self.next_button = widgets.Button(description="Exercice suivant")
        self.next_button.add_class("akvo-exercise-next")
        self.next_button.on_click(lambda _: self.new(self.rng.randrange(1, 100_000)))
        self.buttons: dict[str, widgets.Button] = {}
        self.exercise = make_exercise(
            first if first is not None else self.rng.randrange(1, 100_000)
        )
        self.board = make_board(self.exercise.state, None, self.answer, interactive=False)
        self.board.layout.flex = "1 1 22em"
        side = widgets.VBox(
            [
                self.number_text,
                self.score,
                self.status,
                self.question,
                self.answers,
                self.feedback,
                self.next_button,
            ]
        )
        side.layout.flex = "1 1 20em"
        main = widgets.HBox([self.board, side])
        main.layout.flex_flow = "row wrap"
        super().__init__([widgets.HTML(STYLE), main])
        self.add_class("akvo-play")
        self.add_class("akvo-widget")
        self.add_class("akvo-exercises")
        self.show()

    @staticmethod
    def _html(css: str) -> widgets.HTML:
        html = widgets.HTML()
        html.add_class(css)
        return html

    def new(self, number: int) -> None:
        self.exercise = make_exercise(number)
        self.show()

    def show(self) -> None:
        exercise = self.exercise
        self.board.state = exercise.state
        self.status.value = status_html(exercise.state)
        number = exercise.number
        self.number_text.value = (
            f'<p>Exercice n°\u00a0<span data-number="{number}">{number}</span></p>'
        )
        self.score.value = f"<p>{escape(french(score_text(self.right, self.asked)))}</p>"
        self.question.value = f"<p><b>{escape(exercise.question)}</b></p>"
        self.feedback.value = ""
        self.buttons = {}
        for key, label in exercise.options.items():
            button = widgets.Button(description=label, layout=widgets.Layout(width="auto"))
            button.add_class("akvo-exercise-answer")
            button.on_click(lambda _, chosen=key: self.answer(chosen))
            self.buttons[key] = button
        self.answers.children = list(self.buttons.values())

    def answer(self, key: str) -> None:
        """Grade one answer (once per exercise) and show the best one with the exact odds."""
        exercise = self.exercise
        if key not in exercise.options or any(b.disabled for b in self.buttons.values()):
            return
        for button in self.buttons.values():
            button.disabled = True
        good = exercise.values[key] == exercise.values[exercise.correct]
        self.asked += 1
        self.right += good
        verdict = "Bonne réponse !" if good else "Pas cette fois."
        rows = ""
        if exercise.kind == "best target":
            rows = "".join(
                f"<li>{escape(exercise.options[k])} : {percent(v)} ({fraction(v)})</li>"
                for k, v in sorted(exercise.values.items(), key=lambda kv: -kv[1])
            )
        self.feedback.value = (
            f'<p role="status"><b>{escape(french(verdict))}</b> {escape(exercise.why())}</p>'
            + (f"<ul>{french(rows)}</ul>" if rows else "")
        )
        self.score.value = f"<p>{escape(french(score_text(self.right, self.asked)))}</p>"
