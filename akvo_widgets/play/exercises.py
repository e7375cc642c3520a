"""« Exercices »: a random legal position from the engine, a question, an exact grade.

Positions come from real play: one of the matches between the ladder's bots kept by
:mod:`.ladder_positions` (« débutant » to « expert », seeded), replayed to one of its decisions
of the question's kind, at the turn the question names, with the Ultimes and runes that match
had spent — never a random bot's (no first turn with seven runes spent). Four kinds of question,
all graded with exact values from the engine (:mod:`.odds`): which mage to shoot for the
best chance to push, how likely one shot is to push, whether the Attaque rune is worth
playing on a shot, and which unit to activate first. The page keeps a running score.

A quiz hides its answer: before the reader answers, the board is in quiz mode
(``values=False``: no odds badge, title or detail gives a value away) and no label shows a
value; after the answer, every option's exact value is listed with why. The number shown is
the exercise's seed: typed in the « Exercice n° » field, it brings the same question back.

The score, the exercise on screen and the answer given to it are kept in the reader's own
browser (:class:`.keeper.MatchKeeper`, checked on return by :mod:`.kept_score`): a reload,
the back button or a reopened tab brings them back, and « Remettre le score à zéro » starts
the count again. Under the quiz, « Vos erreurs » (:class:`.mistakes.MistakesBox`) brings back
the reader's own mistakes kept from an analysis in « Revoir un match ».
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from fractions import Fraction
from html import escape

import ipywidgets as widgets

from akvo.bots import REGISTRY
from akvo.bots.greedy import spend_min
from akvo.bots.values import PUSH_WEIGHT
from akvo.match import MatchState, Phase
from akvo.match.preview import target_values
from akvo_widgets.board.view import status_html
from akvo_widgets.board.widget import Board
from akvo_widgets.text.formatting import decimal, fraction, french, percent
from akvo_widgets.text.labels import action_label

from .game import STYLE
from .keeper import MatchKeeper
from .kept_score import REFUSAL as KEPT_REFUSAL
from .kept_score import KeptScore, KeptScoreError, load_score
from .ladder_positions import KeptMatch, decision_nodes, kept_matches
from .mistakes import MistakesBox
from .odds import NO_RUNE, answered_rune_values, attaque_letters, rune_name, unit_values

KINDS = ("best target", "estimate", "attack rune", "first unit")
#: The kinds whose answer is a click on the board (a target, a unit) as well as a button.
BOARD_KINDS = ("best target", "first unit")
#: Exercise numbers: any of these can be typed in to get its question again.
FIRST_NUMBER, LAST_NUMBER = 1, 99_999
#: The exercise the page opens on when no number is given: the same for every reader, so
#: that the page keeps its place before it is drawn (akvo-heights.css: a random first
#: exercise, two to twelve answers, changed the output's height by up to 112 px on a phone).
OPENING = 4
#: How many chances « Quelle chance ? » offers (the page's text says four).
ESTIMATE_CHOICES = 4
YES, NO = "yes", "no"
#: On a phone the question and its answers come under the compact board (the match page's
#: :data:`.game.STYLE` puts that board first, at ``order: 1``).
EXERCISE_STYLE = """<style>
@media (max-width: 640px) { .akvo-exercises .akvo-exercise-side { order: 2; } }
</style>"""


@dataclass(frozen=True)
class Exercise:
    """One question on one position: the answers, their exact values, the best one and why.

    ``values`` grades: an answer is right when its value equals the correct answer's.
    ``rows`` are the exact numbers shown after the answer (French label → French value).
    """

    number: int
    kind: str
    state: MatchState
    question: str
    options: dict[str, str]  # answer key → French label
    values: dict[str, Fraction]  # answer key → exact value (the best is the answer)
    correct: str
    explanation: str = ""
    rows: tuple[tuple[str, str], ...] = field(default=())
    #: The match the position comes from, in French (« fort » (A) contre « normal » (B)).
    source: str = ""

    def why(self) -> str:
        return french(self.explanation)


def _mage_values(state: MatchState) -> dict[str, Fraction]:
    return {a: v for a, v in target_values(state).items() if "chest" not in a}


def _has_best_target(state: MatchState) -> bool:
    if state.phase != Phase.TARGET:
        return False
    ranked = sorted(_mage_values(state).values(), reverse=True)
    return len(ranked) >= 2 and ranked[0] > ranked[1]


#: The chances « Quelle chance ? » asks about and offers: from one to 99 in a hundred, so
#: that no percentage shown rounds to 0,0 % or 100,0 %.
LEAST_CHANCE, MOST_CHANCE = Fraction(1, 100), Fraction(99, 100)


def estimate_choices(true: Fraction, others: list[Fraction], rng: random.Random) -> list[Fraction]:
    """:data:`ESTIMATE_CHOICES` chances, the true one among them, each at least two points
    from the others (so that their percentages differ) and between :data:`LEAST_CHANCE` and
    :data:`MOST_CHANCE`: the other targets' chances first, then multiples of the truth and steps
    of ten points around it, each moved by a seeded jitter (no pattern of decimals points
    at the truth)."""
    gap = Fraction(1, 50)
    ratios = [Fraction(n, d) for n, d in ((1, 3), (1, 2), (2, 3), (3, 2), (2, 1), (3, 1))]
    near = [true * r for r in ratios] + [true + Fraction(k, 10) for k in (-2, -1, 1, 2)]
    rng.shuffle(near)
    near = [n + Fraction(rng.randrange(-15, 16), 1000) for n in near]
    chosen = [true]
    for other in [*sorted(set(others)), *near]:
        if len(chosen) == ESTIMATE_CHOICES:
            break
        if LEAST_CHANCE <= other <= MOST_CHANCE and all(abs(other - c) >= gap for c in chosen):
            chosen.append(other)
    return sorted(chosen)


def _askable(values: dict[str, Fraction]) -> list[str]:
    """The shots « Quelle chance ? » may ask about (a chance from 1 to 99 %)."""
    return sorted(a for a, v in values.items() if LEAST_CHANCE <= v <= MOST_CHANCE)


def _has_estimate(state: MatchState) -> bool:
    return state.phase == Phase.TARGET and bool(_askable(_mage_values(state)))


def _has_attaque(state: MatchState) -> bool:
    return bool(attaque_letters(state))


def _has_first_unit(state: MatchState) -> bool:
    if state.phase != Phase.ACTIVATE:
        return False
    ranked = sorted(unit_values(state).values.values(), reverse=True)
    return len(ranked) >= 2 and ranked[0] > ranked[1] > 0


ACCEPT: dict[str, Callable[[MatchState], bool]] = {
    "best target": _has_best_target,
    "estimate": _has_estimate,
    "attack rune": _has_attaque,
    "first unit": _has_first_unit,
}


#: The phase of each kind's decisions (a cheap first sieve before ``ACCEPT``).
PHASES: dict[str, Phase] = {
    "best target": Phase.TARGET,
    "estimate": Phase.TARGET,
    "attack rune": Phase.ATTACK_RUNE,
    "first unit": Phase.ACTIVATE,
}


def _position(
    rng: random.Random, phase: Phase, accept: Callable[[MatchState], bool]
) -> tuple[MatchState | None, KeptMatch]:
    """A decision of ``phase`` that ``accept`` takes, drawn at random from one kept ladder
    match drawn at random (``None`` when that match has none), and that match."""
    match = rng.choice(kept_matches())
    nodes = [node.copy() for node in decision_nodes(match) if node.phase == phase]
    rng.shuffle(nodes)
    return next((node for node in nodes if accept(node)), None), match


def source_text(match: KeptMatch) -> str:
    """Who played the match, in French: « fort » (A) contre « normal » (B)."""
    a, b = (REGISTRY[name].label for name in match.bots)
    return f"« {a} » (A) contre « {b} » (B)"


def make_exercise(number: int) -> Exercise:
    """The exercise of a number (the number is its seed: the same number, the same question);
    its kind is ``KINDS[number % len(KINDS)]``."""
    rng = random.Random(number)
    kind = KINDS[number % len(KINDS)]
    accept = ACCEPT[kind]
    if kind == "attack rune":  # as many « oui » as « non »: draw the answer first
        want = rng.random() < 1 / 2
        accept = lambda s: _has_attaque(s) and attaque_gain(s)[3] == want  # noqa: E731
    state = None
    while state is None:
        state, match = _position(rng, PHASES[kind], accept)
    exercise = MAKERS[kind](number, state, rng)
    # the turn the position comes from, so that the Ultimes and runes spent read as a match's
    question = french(f"Tour {state.turn}. {exercise.question}")
    return replace(exercise, question=question, source=french(source_text(match)))


def _shooter(state: MatchState) -> str:
    return french(state.prompt().replace(" choisit sa cible.", ""))


def _best_target(number: int, state: MatchState, rng: random.Random) -> Exercise:
    values = _mage_values(state)
    options = {a: action_label(state, a) for a in values}
    correct = max(values, key=lambda a: values[a])
    question = (
        f"{_shooter(state)} tire. Quelle cible lui donne la meilleure chance de la repousser ?"
    )
    best = values[correct]
    why = (
        f"La meilleure réponse : « {options[correct]} », avec {percent(best)} de chances de "
        f"repousser ({fraction(best)}), la plus haute des cibles possibles."
    )
    rows = tuple(
        (options[a], f"{percent(v)} ({fraction(v)})")
        for a, v in sorted(values.items(), key=lambda kv: -kv[1])
    )
    return Exercise(
        number, "best target", state, french(question), options, values, correct, why, rows
    )


def _estimate(number: int, state: MatchState, rng: random.Random) -> Exercise:
    values = _mage_values(state)
    action = rng.choice(_askable(values))
    true = values[action]
    choices = estimate_choices(true, [v for a, v in values.items() if a != action], rng)
    keys = {str(v): v for v in choices}
    label = action_label(state, action)
    question = f"{_shooter(state)} : « {label} ». Quelle est sa chance de repousser la cible ?"
    why = (
        f"La chance exacte est {percent(true)} ({fraction(true)}) : la table des dés et la "
        "matrice du vent la donnent, distance, palier, Résilience et Ultimes compris. "
        "Toutes les cibles possibles du même tireur :"
    )
    rows = tuple(
        (
            action_label(state, a),
            f"{percent(v)} ({fraction(v)})" + (" ← ce tir" if a == action else ""),
        )
        for a, v in sorted(values.items(), key=lambda kv: -kv[1])
    )
    return Exercise(
        number,
        "estimate",
        state,
        french(question),
        {k: percent(v) for k, v in keys.items()},
        {k: Fraction(1) if v == true else Fraction(0) for k, v in keys.items()},
        str(true),
        why,
        rows,
    )


def rune_threshold(turn: int) -> Fraction:
    """The least gain, in points, for which the « normal » bot spends a rune at this turn
    (:func:`akvo.bots.greedy.spend_min`, made exact)."""
    return Fraction(spend_min(turn)).limit_denominator(10_000)


def attaque_gain(state: MatchState) -> tuple[Fraction, Fraction, Fraction, bool]:
    """At the attacker's rune decision: the shot's exact value without and with the first
    Attaque rune, the gain in points, and whether it reaches :func:`rune_threshold`."""
    odds = answered_rune_values(state)
    chest = odds.unit == "points"
    without = odds.values[NO_RUNE]
    with_rune = odds.values[attaque_letters(state)[0]]
    gain = (with_rune - without) * (1 if chest else PUSH_WEIGHT)
    return without, with_rune, gain, gain > 0 and gain >= rune_threshold(state.turn)


def _attack_rune(number: int, state: MatchState, rng: random.Random) -> Exercise:
    action = attaque_letters(state)[0]
    odds = answered_rune_values(state)
    chest = odds.unit == "points"
    without, with_rune, gain, worth = attaque_gain(state)
    threshold = rune_threshold(state.turn)
    name = rune_name(state, action)
    shooter = french(state.prompt().replace(" peut jouer une rune (attaque).", ""))
    what = "le tir sur le coffre" if chest else "le tir"
    question = (
        f"{shooter} attaque. Vaut-il la peine de jouer la {name} ici, le défenseur "
        "répondant au mieux ?"
    )

    def shown(value: Fraction, action: str) -> str:
        reply = f", {odds.extra[action]}" if action in odds.extra else ""
        if chest:
            return f"{decimal(value, 3)} point en moyenne ({fraction(value)}){reply}"
        return f"{percent(value)} de chances de repousser ({fraction(value)}){reply}"

    how = "" if chest else f" (un recul compte pour {fraction(PUSH_WEIGHT)} de point)"
    why = (
        f"Sans rune, {what} donne {shown(without, NO_RUNE)} ; avec la {name}, "
        f"{shown(with_rune, action)}. "
        f"Le gain est de {decimal(gain, 3)} point ({fraction(gain)}){how}. Une rune ne sert "
        "qu’une fois par match : le bot « normal » du moteur ne la joue que si elle rapporte "
        f"au moins {decimal(threshold, 3)} point au tour {state.turn} (un seuil qui baisse "
        "au fil du match, nul aux derniers tours). "
        + ("La réponse est donc oui." if worth else "La réponse est donc non : gardez-la.")
        + " Ces chances supposent que le défenseur réponde au mieux (la rune qui fait le plus "
        "baisser le tir, ou aucune), comme sur la page du match."
    )
    options = {YES: f"Oui, jouer la {name}", NO: "Non, la garder pour plus tard"}
    values = {YES: Fraction(int(worth)), NO: Fraction(int(not worth))}
    rows = (
        ("Sans rune", shown(without, NO_RUNE)),
        (f"Avec la {name}", shown(with_rune, action)),
        ("Seuil du bot « normal »", f"{decimal(threshold, 3)} point"),
    )
    correct = YES if worth else NO
    return Exercise(
        number, "attack rune", state, french(question), options, values, correct, why, rows
    )


def _first_unit(number: int, state: MatchState, rng: random.Random) -> Exercise:
    odds = unit_values(state)
    values = odds.values
    options = {a: action_label(state, a) for a in values}
    correct = max(values, key=lambda a: values[a])
    side = state.prompt().split()[0]
    question = f"{side} active une unité. Laquelle activer en premier ?"
    why = (
        f"La meilleure réponse : « {options[correct]} », dont le meilleur tir immédiat vaut "
        f"{odds.text(correct)}. Critère : la valeur exacte du meilleur tir que l’unité peut "
        "faire tout de suite — les points moyens d’un tir sur le coffre, ou "
        f"{fraction(PUSH_WEIGHT)} de point par chance de repousser un mage (le poids du bot "
        "« normal ») ; une unité qui avance ce tour vaut 0. C’est un regard à un coup "
        "d’avance : l’ordre peut compter aussi pour la suite du tour, qu’il ne mesure pas."
    )
    rows = tuple(
        (options[a], odds.text(a)) for a, v in sorted(values.items(), key=lambda kv: -kv[1])
    )
    return Exercise(
        number, "first unit", state, french(question), options, values, correct, why, rows
    )


MAKERS: dict[str, Callable[[int, MatchState, random.Random], Exercise]] = {
    "best target": _best_target,
    "estimate": _estimate,
    "attack rune": _attack_rune,
    "first unit": _first_unit,
}


def score_text(right: int, asked: int) -> str:
    return f"Score : {right} sur {asked}"


#: The browser's slot for this page's score (localStorage ``akvo-match:exercices``).
KEEPER_KEY = "exercices"
RESET_LABEL = "Remettre le score à zéro"


def number_error(text: str) -> str | None:
    """Why ``text`` is not an exercise number (French), or ``None`` when it is one."""
    cleaned = text.strip().replace("\u00a0", "").replace(" ", "")
    if not cleaned.isdigit() or len(cleaned) > 6:
        return f"Tapez un numéro d’exercice, un nombre entier de {FIRST_NUMBER} à {LAST_NUMBER}."
    if not FIRST_NUMBER <= int(cleaned) <= LAST_NUMBER:
        return f"Le numéro doit aller de {FIRST_NUMBER} à {LAST_NUMBER}."
    return None


class Exercises(widgets.VBox):  # type: ignore[misc]
    """Exercise after exercise; ``first`` fixes the first exercise's number (its seed) and
    the numbers after it; without it, the page opens on :data:`OPENING` and draws the next
    numbers at random."""

    def __init__(self, first: int | None = None) -> None:
        self.rng = random.Random(first)
        self.right = 0
        self.asked = 0
        self.answered: str | None = None  # the answer given to the exercise on screen
        self._fresh = True  # nothing done yet here: a score kept in the browser may come back
        self._reset_offered = False
        self.keeper = MatchKeeper(key=KEEPER_KEY)
        self.keeper.observe(lambda _change: self.restore(self.keeper.saved), "saved")
        self.kept_message = self._html("akvo-exercise-kept-message")
        self.kept_message.layout.display = "none"  # an empty line would move the page
        self.reset_button = widgets.Button(
            description=RESET_LABEL, layout=widgets.Layout(width="auto")
        )
        self.reset_button.add_class("akvo-exercise-reset")
        self.reset_button.on_click(lambda _: self.reset())
        self.number_text = self._html("akvo-exercise-number")
        self.question = self._html("akvo-exercise-question")
        self.feedback = self._html("akvo-exercise-feedback")
        self.score = self._html("akvo-exercise-score")
        self.score_row = widgets.HBox([self.score])
        self.score_row.layout.flex_flow = "row wrap"
        self.score_row.layout.align_items = "center"
        self.score_row.layout.column_gap = "1em"
        self.status = self._html("akvo-play-status")
        self.number_message = self._html("akvo-exercise-number-message")
        self.number_field = widgets.Text(
            description="Exercice n°",
            placeholder=f"{FIRST_NUMBER} à {LAST_NUMBER}",
            continuous_update=False,
            style={"description_width": "initial"},
            layout=widgets.Layout(width="14em"),
        )
        self.number_field.add_class("akvo-exercise-number-field")
        self.go_button = widgets.Button(description="Afficher cet exercice")
        self.go_button.add_class("akvo-exercise-go")
        self.go_button.on_click(lambda _: self.go(self.number_field.value))
        self.answers = widgets.VBox()
        self.answers.add_class("akvo-exercise-answers")
        self.next_button = widgets.Button(description="Exercice suivant")
        self.next_button.add_class("akvo-exercise-next")
        self.next_button.on_click(lambda _: self.new(self.rng.randrange(1, LAST_NUMBER + 1)))
        self.buttons: dict[str, widgets.Button] = {}
        self.exercise = make_exercise(first if first is not None else OPENING)
        self.board = self._board(self.exercise)
        chooser = widgets.HBox([self.number_field, self.go_button])
        chooser.layout.flex_flow = "row wrap"
        side = widgets.VBox(
            [  # the question and its answers first: on a phone they sit under the board
                self.question,
                self.answers,
                self.feedback,
                self.next_button,
                self.status,
                self.score_row,
                self.kept_message,
                self.number_text,
                chooser,
                self.number_message,
            ]
        )
        side.layout.flex = "1 1 20em"
        side.add_class("akvo-exercise-side")
        # the board is a direct child of the row, so that it sticks (compact) while the
        # question and the answers under it scroll
        self.main = widgets.HBox([self.board, side])
        self.main.layout.flex_flow = "row wrap"
        self.mistakes = MistakesBox()
        super().__init__(
            [widgets.HTML(STYLE + EXERCISE_STYLE), self.keeper, self.main, self.mistakes]
        )
        self.add_class("akvo-play")
        self.add_class("akvo-widget")
        self.add_class("akvo-exercises")
        self.show()

    @staticmethod
    def _html(css: str) -> widgets.HTML:
        html = widgets.HTML()
        html.add_class(css)
        return html

    def _board(self, exercise: Exercise) -> Board:
        """A quiz board (no value shown), clickable when the answer is a target or a unit."""
        board = Board(
            exercise.state,
            interactive=exercise.kind in BOARD_KINDS,
            values=False,
            compact=True,
        )
        board.on_action(self.answer)
        board.layout.flex = "1 1 22em"
        return board

    def new(self, number: int) -> None:
        self._fresh = False
        self._open(make_exercise(number))
        self._keep()

    def _open(self, exercise: Exercise) -> None:
        previous = self.exercise
        self.exercise = exercise
        if (previous.kind in BOARD_KINDS) != (self.exercise.kind in BOARD_KINDS):
            self.board = self._board(self.exercise)
            self.main.children = [self.board, *self.main.children[1:]]
        self.show()

    def go(self, text: str) -> None:
        """The exercise whose number the reader typed, or a French message saying why not."""
        error = number_error(str(text))
        if error is not None:
            self.number_message.value = f'<p role="alert">{escape(french(error))}</p>'
            return
        self.number_message.value = ""
        self.new(int(str(text).strip().replace("\u00a0", "").replace(" ", "")))

    def show(self) -> None:
        exercise = self.exercise
        self.board.values = False
        self.board.deselect()
        self.board.state = exercise.state
        self.status.value = status_html(exercise.state)
        number = exercise.number
        self.number_text.value = (
            f'<p>Exercice n°\u00a0<span data-number="{number}">{number}</span>, '
            f"position d’un match {escape(exercise.source)}</p>"
        )
        self.answered = None
        self._show_score()
        hint = (
            " Répondez par un bouton ou d’un clic sur le plateau."
            if exercise.kind in BOARD_KINDS
            else ""
        )
        self.question.value = f"<p><b>{escape(exercise.question)}</b>{escape(french(hint))}</p>"
        self.feedback.value = ""
        self.buttons = {}
        for key, label in exercise.options.items():
            button = widgets.Button(description=label, layout=widgets.Layout(width="auto"))
            button.add_class("akvo-exercise-answer")
            button.on_click(lambda _, chosen=key: self.answer(chosen))
            self.buttons[key] = button
        self.answers.children = list(self.buttons.values())

    def answer(self, key: str) -> None:
        """Grade one answer (once per exercise) and show every option's exact value."""
        if key not in self.exercise.options or self.answered is not None:
            return
        good = self._grade(key)
        self.asked += 1
        self.right += good
        self._fresh = False
        self._show_score()
        self._keep()

    def _grade(self, key: str) -> bool:
        """Show the verdict on ``key`` and every option's exact value (the score is the
        caller's); whether the answer is right."""
        exercise = self.exercise
        self.answered = key
        for button in self.buttons.values():
            button.disabled = True
        good = exercise.values[key] == exercise.values[exercise.correct]
        verdict = "Bonne réponse !" if good else "Pas cette fois."
        chosen = f" Vous avez répondu « {exercise.options[key]} »."
        rows = "".join(
            f"<li>{escape(label)} : {escape(value)}</li>" for label, value in exercise.rows
        )
        self.feedback.value = (
            f'<p role="status"><b>{escape(french(verdict))}</b>{escape(french(chosen))} '
            f"{escape(exercise.why())}</p>" + (f"<ul>{french(rows)}</ul>" if rows else "")
        )
        self.board.values = True  # the answer is given: the board may show every value
        return good

    def _show_score(self) -> None:
        self.score.value = f"<p>{escape(french(score_text(self.right, self.asked)))}</p>"
        # the reset button once there is a score (a new reader's page keeps its height), and
        # after a reset too (the focus stays on it)
        if self.asked:
            self._reset_offered = True
        shown = [self.score, self.reset_button] if self._reset_offered else [self.score]
        if list(self.score_row.children) != shown:
            self.score_row.children = shown

    # --- kept in the browser (issue 19.5) ---------------------------------------------------
    def _keep(self) -> None:
        kept = KeptScore(self.right, self.asked, self.exercise.number, self.answered)
        self.keeper.to_store = kept.to_json()

    def reset(self) -> None:
        """« Remettre le score à zéro »: the count starts again (the exercise stays)."""
        self.right = self.asked = 0
        self._fresh = False
        self._say_kept("")
        self._show_score()
        self._keep()

    def _say_kept(self, text: str) -> None:
        """A message about the kept score (or none: then it takes no room)."""
        self.kept_message.value = f'<p role="status">{escape(french(text))}</p>' if text else ""
        self.kept_message.layout.display = None if text else "none"

    def restore(self, text: object) -> None:
        """What the browser kept (on a reload, the back button, a reopened tab): the score,
        the exercise and its answer come back, once and only before anything was done here;
        a record this page did not write gets a French message, and nothing changes."""
        if not self._fresh or not text:
            return
        self._fresh = False
        try:
            kept = load_score(text, FIRST_NUMBER, LAST_NUMBER)
            exercise = make_exercise(kept.number)
            if kept.answer is not None and kept.answer not in exercise.options:
                raise KeptScoreError(KEPT_REFUSAL)
        except KeptScoreError as error:
            self._say_kept(str(error))
            return
        self.right, self.asked = kept.right, kept.asked
        if kept.number != self.exercise.number:
            self._open(exercise)
        self._show_score()
        if kept.answer is not None:
            self._grade(kept.answer)
