"""The six Ultimes in play (R24): a short scene each, played by the engine on the board.

A scene is a position (:func:`akvo.match.scenario`) and a script: the actions that matter
(an Ultime, a target, the dice as rolled). Everything else is filled in with "nothing
special" (no rune, no Mouvement before the shot…) by :func:`scripted_chooser`, so the
scripts stay short and readable. :class:`UltimeScenes` steps through the chosen scene with
the engine's log; the dice are written in the scene, so every reader sees the same story.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from akvo.match import MatchState, scenario
from akvo_widgets.kit import controls as c
from akvo_widgets.text.formatting import french

from .playthrough import LineError
from .stepper import LineStepper

#: A scene's first actions (the weather draw, then A's and B's orders) are played before
#: the reader's first click: the scene opens on the revealed orders.
PRELUDE = 3
_FILLERS = ("no move", "no rune", "keep", "no trident", "no rouleau", "stop", "advance")


def scripted_chooser(script: Sequence[str]) -> tuple[Callable[[MatchState], str], deque[str]]:
    """A chooser playing ``script`` in order, filling other decisions with "nothing"."""
    queue = deque(script)

    def choose(state: MatchState) -> str:
        if queue:
            wanted = queue[0]
            if state.is_chance_node():
                kind = state.chance_outcomes()[0][0].split()[0]
                if wanted.split()[0] == kind:
                    return queue.popleft()
            elif wanted in state.legal_actions():
                return queue.popleft()
        legal = () if state.is_chance_node() else state.legal_actions()
        for filler in _FILLERS:
            if filler in legal:
                return filler
        raise LineError(f"the scene expects {queue[0] if queue else 'nothing'!r} here")

    return choose, queue


@dataclass(frozen=True)
class Scene:
    """One Ultime shown in play: its position, its script and what to look at."""

    key: str
    label: str
    what: str
    setup: dict[str, Any] = field(default_factory=dict)
    script: tuple[str, ...] = ()

    def start(self) -> tuple[MatchState, Callable[[MatchState], str], deque[str]]:
        state = scenario("perrockiss", "fish-tank", **self.setup)
        choose, queue = scripted_chooser(self.script)
        while len(queue) > len(self.script) - PRELUDE:  # weather and orders: already done
            state.apply_action(choose(state))
        return state, choose, queue


_SURFEURS = {"turn": 1, "rows": {"A": {"surfeur": 4}, "B": {"surfeur": 5}}}

SCENES = (
    Scene(
        "trident",
        "Trident (Plongeur)",
        "Le Plongeur de A tire trois fois dans la même activation, sur des mages seulement.",
        {"turn": 1, "rows": {"A": {"plongeur": 4}, "B": {"surfeur": 5, "plongeur": 5}}},
        (
            "weather A",
            "orders AAAT AA",
            "orders AAAA AA",
            "activate plongeur",
            "trident",
            "shoot plongeur",
            "roll 4433",
            "roll 2211",
            "shoot again",
            "shoot plongeur",
            "roll 5543",
            "roll 2211",
            "shoot again",
            "shoot surfeur",
            "roll 6655",
            "roll 3321",
        ),
    ),
    Scene(
        "rouleau",
        "Rouleau (Surfeur)",
        "Le Surfeur de A repousse le Surfeur de B, dans son couloir : il avance aussitôt d’une "
        "case dans le vide laissé.",
        _SURFEURS,
        (
            "weather A",
            "orders AATA AA",
            "orders AAAA AA",
            "activate surfeur",
            "shoot surfeur",
            "roll 4433",
            "roll 2211",
            "rouleau",
        ),
    ),
    Scene(
        "souffle",
        "Souffle portant (Pédalair)",
        "Le coffre est à 5 cases du Surfeur de A, hors de portée : le Souffle portant du "
        "Pédalair raccourcit le tir de 2 et le rend possible.",
        _SURFEURS,
        (
            "weather A",
            "orders AATA AA",
            "orders AAAA AA",
            "activate surfeur",
            "shoot chest souffle",
            "roll 6655",
            "roll 2211",
        ),
    ),
    Scene(
        "vigie",
        "Vigie (Lanceur)",
        "Avec Vigie, chaque tir de A a +1 en attaque jusqu’à la fin du tour : ici, ce +1 "
        "fait passer le jet juste au seuil.",
        _SURFEURS,
        (
            "weather A",
            "orders AATA AA",
            "orders AAAA AA",
            "ultime vigie",
            "activate surfeur",
            "shoot surfeur",
            "roll 3332",
            "roll 2221",
        ),
    ),
    Scene(
        "egide",
        "Égide (Barreur)",
        "A déclare Égide avant d’activer son Pédalair ; plus tard dans le tour, B tire sur le "
        "Surfeur de A, qui se défend avec +1.",
        _SURFEURS,
        (
            "weather A",
            "orders AAAA AA",
            "orders AATA AA",
            "ultime egide",
            "activate pedalair",
            "activate surfeur",
            "shoot surfeur",
            "roll 4433",
            "roll 4322",
        ),
    ),
    Scene(
        "tourbillon",
        "Tourbillon (Kitesurfeur)",
        "Avec Tourbillon, qui tire sur le Kitesurfeur de A lance un dé de moins : le "
        "Kitesurfeur de B n’a que 3 dés.",
        {"turn": 1, "rows": {"A": {"kitesurfeur": 4}, "B": {"kitesurfeur": 5}}},
        (
            "weather A",
            "orders AAAA AA",
            "orders ATAA AA",
            "ultime tourbillon",
            "activate pedalair",
            "activate kitesurfeur",
            "shoot kitesurfeur",
            "roll 652",
            "roll 4431",
        ),
    ),
)
SCENE_BY_KEY = {s.key: s for s in SCENES}


class UltimeScenes(LineStepper):
    """Pick an Ultime; « Étape suivante » plays its scene on the board, line by line."""

    def __init__(self, key: str = "trident") -> None:
        self.choice = c.dropdown(
            "Ultime", [(s.label, s.key) for s in SCENES], key, "akvo-scene-choice"
        )
        self.what = c.html("akvo-scene-what")
        self._queue: deque[str] = deque()
        super().__init__(self._fresh, self._over, "akvo-ultime-scenes")
        panel = self.children[0]
        panel.children = [self.choice, self.what, *panel.children]
        self.choice.observe(self.reset, names="value")

    @property
    def scene(self) -> Scene:
        return SCENE_BY_KEY[self.choice.value]

    def _fresh(self) -> tuple[MatchState, Callable[[MatchState], str]]:
        state, choose, self._queue = self.scene.start()
        self.what.value = f"<p><i>{french(self.scene.what)}</i></p>"
        return state, choose

    def _over(self, state: MatchState) -> bool:
        return not self._queue or state.is_terminal()

    def play_all(self) -> list[str]:
        """Every line of the scene (the engine's log from its first step to its end)."""
        lines: list[str] = []
        while not self.finished():
            lines += self.advance()
        return lines
