"""Common random numbers keyed by event: the same roll sees the same dice in every reading.

Drawing a match's chance from one ``random.Random(seed)`` pairs two readings of a rule only
until their first different decision: one extra roll shifts every later die. Here each
chance event draws from its own stream, keyed by the match seed and the event's identity,
so the comparison of two rules (the lab) or two options (the coach) sees the same dice
wherever the same event happens:

- a roll: (turn, shooting side, shooter, the shot's rank in its activation, attack or
  defence roll). Its dice are the first *n* faces of the stream: a roll that loses a die
  to Confusion (R14) keeps the other faces it would have had;
- the die a Relance rerolls (R15): the same roll's identity, in a stream of its own;
- the weather token (R8): the turn. One uniform number decides it: with the bag, side A
  when it falls below A's share of the tokens left; with the coin, below one half — a full
  bag and the coin then agree.

The outcome is an ordinary chance action (``roll 3516``, ``weather A``), so records replay
whatever drew them; the same seed plays the same match. The hash is splitmix64 (Steele,
Lea, Flood 2014), with rejection so that every face has probability exactly 1/6 of the
64-bit words.
"""

from __future__ import annotations

from typing import Final

from akvo.errors import MatchError, require_int
from akvo.match.actions import WEATHER_ACTIONS
from akvo.match.chance import ROLLS
from akvo.match.core import CHANCE, StateCore
from akvo.match.phases import REROLL, ROLL, WEATHER
from akvo.match.shooting import roll_dice
from akvo.match.state import MatchState

_MASK: Final = (1 << 64) - 1
#: Words at or above this are redrawn, so that ``word % 6`` is exactly uniform.
_FACE_LIMIT: Final = (1 << 64) // 6 * 6
#: Event kinds, the low bits of an event's identity.
WEATHER_EVENT, ROLL_EVENT, REROLL_EVENT = 0, 1, 2


def mix(word: int) -> int:
    """splitmix64's finaliser: a 64-bit word to a well-mixed 64-bit word."""
    word = (word + 0x9E3779B97F4A7C15) & _MASK
    word = ((word ^ (word >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    word = ((word ^ (word >> 27)) * 0x94D049BB133111EB) & _MASK
    return word ^ (word >> 31)


def event_key(s: StateCore) -> int:
    """The identity of the chance event at ``s`` as one small int (see the module)."""
    phase = s.phase
    if phase == WEATHER:
        return WEATHER_EVENT | s.turn << 2
    shot = s.shot
    if shot is None or phase not in (ROLL, REROLL):
        raise MatchError("no chance event here (a weather draw, a roll or a reroll)")
    kind = ROLL_EVENT if phase == ROLL else REROLL_EVENT
    return (
        kind
        | s.turn << 2
        | shot.side << 6
        | shot.shooter << 7
        | s.shots_done << 10
        | shot.stage << 13
    )


class KeyedChance:
    """Chance outcomes of a match drawn from streams keyed by ``seed`` and each event.

    Use it wherever a ``random.Random`` drives chance (:func:`akvo.match.decisions` takes
    either): ``KeyedChance(7).apply(state)`` draws the current chance node's outcome and
    applies it.
    """

    __slots__ = ("_seed_word", "seed")

    def __init__(self, seed: object) -> None:
        self.seed = require_int("seed", seed, MatchError)
        self._seed_word = mix(mix(self.seed & _MASK) ^ (self.seed >> 64 & _MASK))

    def word(self, key: int, index: int) -> int:
        """The ``index``-th 64-bit word of the stream of event ``key``."""
        return mix(mix(self._seed_word ^ mix(key)) + index)

    def faces(self, key: int, count: int) -> tuple[int, ...]:
        """The first ``count`` die faces of the stream of event ``key``, each 1–6."""
        faces: list[int] = []
        index = 0
        while len(faces) < count:
            word = self.word(key, index)
            index += 1
            if word < _FACE_LIMIT:
                faces.append(word % 6 + 1)
        return tuple(faces)

    def uniform(self, key: int) -> float:
        """A number in [0, 1) for event ``key`` (53 bits, as ``random.random``)."""
        return (self.word(key, 0) >> 11) / 9007199254740992.0

    def outcome(self, state: StateCore) -> str:
        """The outcome of the chance node at ``state``, which is not changed."""
        if state.player != CHANCE:
            raise MatchError("KeyedChance.outcome needs a chance node")
        key = event_key(state)
        if state.phase == WEATHER:
            u = self.uniform(key)
            if state.rules.weather == "coin":
                return WEATHER_ACTIONS[0] if u < 0.5 else WEATHER_ACTIONS[1]
            a, b = state.bag
            return WEATHER_ACTIONS[0] if u * (a + b) < a else WEATHER_ACTIONS[1]
        if state.phase == REROLL:
            return ROLLS[1][self.faces(key, 1)[0] - 1][0]
        dice = roll_dice(state)
        index = 0
        for face in self.faces(key, dice):
            index = index * 6 + face - 1
        return ROLLS[dice][index][0]

    def apply(self, state: MatchState) -> str:
        """Draw the chance node's outcome, apply it, return it."""
        action = self.outcome(state)
        state.apply_action(action)
        return action

    def __repr__(self) -> str:
        return f"KeyedChance({self.seed})"
