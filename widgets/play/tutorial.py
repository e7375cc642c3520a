"""« Votre premier tour »: a guided turn on the real engine, with scripted dice.

The lesson is a list of :class:`Step`: the reader's moves (``you``), the other side's moves
and the dice (``them``, ``dice``), each with one French sentence. The reader sees every legal
decision as a button (and on the board); a move other than the lesson's is refused with the
reason, and nothing changes. The dice are the engine's own chance actions (``roll 5546``),
applied by the lesson, so the log and every number come from the engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

import ipywidgets as widgets

from akvo.errors import AkvoError
from akvo.match import MatchState, Phase, scenario
from akvo.rules import CRITICAL_MARGIN

from ..formatting import french
from ..game_view import log_html, make_board, status_html, typeset
from .decisions import ActionButtons, OrdersComposer
from .game import STYLE
from .labels import action_label, faces
from .refusals import move_refusal

NEXT_PAGE = "jouer-un-match.ipynb"


@dataclass(frozen=True, slots=True)
class Step:
    """One move of the lesson: who makes it, the engine action, and what it teaches."""

    who: str  # "you" (the reader, side A), "them" (side B) or "dice"
    action: str
    text: str


def lesson_position() -> MatchState:
    """Turn 1, both Surfeurs face to face, A's Plongeur in range of B's chest, B's
    Kitesurfeur in range of A's chest (R2 start rows otherwise)."""
    return scenario(turn=1, rows={"A": {"surfeur": 5, "plongeur": 5}, "B": {"kitesurfeur": 4}})


LESSON: tuple[Step, ...] = (
    Step("dice", "weather A", "Le jeton météo favorise A : vous activerez la première unité."),
    Step(
        "you",
        "orders AATT AA",
        "Programmez vos ordres en secret : le Pédalair et le Kitesurfeur avancent, le Surfeur "
        "et le Plongeur tirent, et le navire avance deux fois (AA). Réglez les boutons, puis "
        "validez.",
    ),
    Step("them", "orders ATAA AA", "B programme à son tour ; les ordres sont révélés (R9)."),
    Step(
        "you",
        "activate surfeur",
        "Activez votre Surfeur : il est juste en face du Surfeur de B.",
    ),
    Step(
        "you",
        "shoot surfeur",
        "Choisissez la cible. Chaque bouton donne la chance exacte de repousser : visez le "
        "Surfeur de B, tout proche.",
    ),
    Step(
        "you",
        "rune P",
        "Jouez la rune P (Pression, une rune d’Attaque) : +2 à votre jet (R20).",
    ),
    Step("them", "no rune", "B ne répond pas par une rune : le tireur annonce d’abord (R18)."),
    Step(
        "dice",
        "roll 5546",
        f"Votre jet dépasse le seuil d’au moins {CRITICAL_MARGIN} : c’est un critique (R12).",
    ),
    Step(
        "dice",
        "roll 2131",
        "Le Surfeur de B rate sa défense : il recule, plus loin grâce au critique, et gagne "
        "de la Résilience, qui l’aidera à se défendre ensuite (R11, R16).",
    ),
    Step(
        "you",
        "rouleau",
        "Votre Surfeur a repoussé le Surfeur adverse : déclarez son Ultime, Rouleau, pour "
        "avancer d’une case (R24).",
    ),
    Step("them", "activate kitesurfeur", "B active son Kitesurfeur…"),
    Step("them", "shoot chest", "… qui tire sur le coffre de votre couloir 2…"),
    Step("them", "no rune", "… sans jouer de rune."),
    Step(
        "you",
        "rune F",
        "Votre Kitesurfeur, dans le même couloir, intercepte ce tir (R17). Répondez par la "
        "rune F (Confusion) : le tireur lancera un dé de moins (R14, R20).",
    ),
    Step("dice", "roll 666", "Le tireur de B réussit tout juste, avec un dé de moins…"),
    Step(
        "dice",
        "roll 4435",
        "… mais votre interception réussit, et même en critique : le tireur recule (R17).",
    ),
    Step("you", "activate plongeur", "À vous : activez votre Plongeur."),
    Step(
        "you",
        "no trident",
        "Le Plongeur pourrait déclarer Trident (jusqu’à trois tirs) : gardez-le pour plus "
        "tard, un tir suffit ici.",
    ),
    Step(
        "you",
        "shoot chest",
        "Tirez sur le coffre de votre couloir : le bouton donne les points moyens du tir.",
    ),
    Step("you", "no rune", "Pas de rune cette fois : passez."),
    Step("them", "no rune", "Le Plongeur de B ne joue pas de rune non plus."),
    Step("dice", "roll 6655", "Votre jet d’attaque est un critique…"),
    Step(
        "dice",
        "roll 3221",
        "… et l’interception du Plongeur de B échoue : vous marquez des points (R17) !",
    ),
)
END_TEXT = (
    "Bravo, vous avez joué votre premier tour : des ordres secrets, une poussée critique "
    "avec de la Résilience gagnée, une interception et des points marqués. "
)


class Tutorial(widgets.VBox):  # type: ignore[misc]
    """The guided first turn; :meth:`play` is what every button and board click calls."""

    def __init__(self) -> None:
        self.state = lesson_position()
        self.index = 0
        self.story: list[str] = []
        self.progress = self._html("akvo-tutorial-progress")
        self.step_text = self._html("akvo-tutorial-step")
        self.message = self._html("akvo-tutorial-message")
        self.told = self._html("akvo-tutorial-story")
        self.status = self._html("akvo-play-status")
        self.events = self._html("akvo-play-log")
        self.decisions = widgets.VBox()
        self.decisions.add_class("akvo-play-decisions")
        self.composer = OrdersComposer(self.play)
        self.action_buttons = ActionButtons(self.play)
        self.buttons: dict[str, widgets.Button] = {}
        self.board = make_board(self.state, 0, self.play)
        self.board.layout.flex = "1 1 22em"
        side = widgets.VBox(
            [self.progress, self.status, self.step_text, self.decisions, self.message, self.told]
        )
        side.layout.flex = "1 1 20em"
        main = widgets.HBox([self.board, side])
        main.layout.flex_flow = "row wrap"
        super().__init__([widgets.HTML(STYLE), main, self.events])
        self.add_class("akvo-play")
        self.add_class("akvo-widget")
        self.add_class("akvo-tutorial")
        self._run_script()

    @staticmethod
    def _html(css: str) -> widgets.HTML:
        html = widgets.HTML()
        html.add_class(css)
        return html

    @property
    def finished(self) -> bool:
        return self.index >= len(LESSON)

    @property
    def expected(self) -> str | None:
        """The lesson's next move for the reader, or ``None`` at the end."""
        return None if self.finished else LESSON[self.index].action

    def play(self, action: str) -> None:
        """The reader's move: applied if it is the lesson's, else refused with the reason."""
        expected = self.expected
        if expected is None:
            return
        if action != expected:
            self._refuse(action, expected)
            return
        self.state.apply_action(action)
        self.story = []
        self.message.value = ""
        self.index += 1
        self._run_script()

    def _refuse(self, action: str, expected: str) -> None:
        if action in self.state.legal_actions():
            why = (
                f"« {action_label(self.state, action)} » est permis par les règles, mais la "
                f"leçon propose autre chose : {action_label(self.state, expected)}."
            )
        else:
            why = move_refusal(self.state, action)
        self.message.value = f'<p role="alert">{escape(french("Pas tout à fait : " + why))}</p>'

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
        state = self.state
        self.board.state = state
        self.events.value = log_html(state.events)
        self.status.value = status_html(state)
        done = min(self.index, len(LESSON))
        self.progress.value = f"<p>{progress_text(done)}</p>"
        items = "".join(f"<li>{escape(line)}</li>" for line in self.story)
        self.told.value = f"<ul>{items}</ul>" if items else ""
        if self.finished:
            self.step_text.value = (
                f"<p><b>{escape(french(END_TEXT))}</b> "
                f'<a class="akvo-tutorial-next" href="{NEXT_PAGE}" target="_self">'
                f"Jouez maintenant un match entier →</a></p>"
            )
            self.decisions.children = []
            return
        self.step_text.value = f"<p><b>{escape(french(LESSON[self.index].text))}</b></p>"
        if state.phase == Phase.ORDERS:
            self.composer.reset()
            self.decisions.children = [self.composer]
        else:
            self.buttons = self.action_buttons.show(state)
            self.decisions.children = list(self.buttons.values())


def progress_text(done: int) -> str:
    return f"Étape {done} sur {len(LESSON)}"
