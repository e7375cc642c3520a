"""Common random numbers keyed by event: the same roll sees the same dice in every reading.

Drawing a match's chance from one ``random.Random(seed)`` pairs two readings of a rule only
until their first different decision: one extra roll shifts every later die. Here each
chance event draws from its own stream, keyed by the match seed and the event's identity,
so the comparison of two rules (the lab) or two options (the coach) sees the same dice
wherever the same event happens:

- a roll: (turn, shooting side, shooter, the shot's rank among its shooter's shots in the
  activation, attack or defence roll). The rank is Trident's (1–3, R24): the ship's two
  mages shoot once each, so the Lanceur's shot is the same event whether the Barreur shot
  before it, held, or advanced instead (a rank counted over the activation made it another
  event, with other dice, whenever a reading changed the ship's order or the Barreur's
  choice). Keys by activation slot instead of by shooter (the k-th unit a side activates)
  were measured and pair worse (``benchmarks/results/pairing.md``). Its dice are the first
  *n* faces of the stream, read as base-6 digits of one 64-bit word (one word per roll: the
  lab draws tens of thousands of rolls a second): a roll that loses a die to Confusion (R14)
  keeps the other faces it would have had;
- the die a Relance rerolls (R15): the same roll's identity, in a stream of its own;
- the weather token (R8): the turn. One uniform number decides it: with the bag, side A
  when it falls below A's share of the tokens left; with the coin, below one half — a full
  bag and the coin then agree.

The outcome is an ordinary chance action (``roll 3516``, ``weather A``), so records replay
whatever drew them; the same seed plays the same match. The hash is splitmix64 (Steele,
Lea, Flood 2014), with rejection so that every face has probability exactly 1/6 of the
64-bit words (a word at or above the largest multiple of 6⁴ is redrawn: the first four
digits are then independent and uniform).
"""

from __future__ import annotations

from typing import Final

from mypy_extensions import mypyc_attr

from akvo.errors import MatchError, excerpt, require_int
from akvo.match.actions import WEATHER_ACTIONS
from akvo.match.board import SHIP
from akvo.match.chance import ROLLS
from akvo.match.core import CHANCE, StateCore
from akvo.match.phases import REROLL, ROLL, WEATHER
from akvo.match.shooting import roll_dice
from akvo.match.state import MatchState

_MASK: Final = (1 << 64) - 1
#: splitmix64's increment (the golden ratio in 64 bits).
_GAMMA: Final = 0x9E3779B97F4A7C15
#: Faces read from one word (a roll has at most 4 dice, R12 and R14).
_FACES_PER_WORD: Final = 4
#: Words at or above this are redrawn, so that the word's first four base-6 digits are
#: exactly uniform and independent.
_FACE_LIMIT: Final = (1 << 64) // 6**_FACES_PER_WORD * 6**_FACES_PER_WORD
#: Event kinds, the low bits of an event's identity.
WEATHER_EVENT, ROLL_EVENT, REROLL_EVENT = 0, 1, 2
#: Bits of a decision's identity (:func:`decision_key`) and of a word's index in its stream.
_DECISION_BITS: Final = 44
_DECISION_INDEX_BITS: Final = 64 - _DECISION_BITS
#: Mixed into the seed for the decisions' streams (apart from the chance events' streams).
_DECISION_SALT: Final = 0x6A09E667F3BCC909


def mix(word: int) -> int:
    """splitmix64's finaliser: a 64-bit word to a well-mixed 64-bit word."""
    word = (word + _GAMMA) & _MASK
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
    rank = 1 if s.unit == SHIP else s.shots_done  # a lateral unit: one mage, Trident's rank
    return kind | s.turn << 2 | shot.side << 6 | shot.shooter << 7 | rank << 10 | shot.stage << 13


def decision_key(s: StateCore) -> int:
    """The identity of the decision at ``s``, for a bot that draws its own randomness from
    a :class:`KeyedChance` (the random bot): the turn, the phase, the side to play, the unit
    and the shot in progress, and what that side has already done this turn (units
    activated, Ultimes and runes used, effects declared, tasks and prodiges left). Two
    readings of a rule that reach the same decision draw the same number there, however
    many other decisions came before. An int below 2⁴⁴ (distinct identities, distinct ints:
    a field past its room only merges into the next, a harmless coincidence)."""
    shot = s.shot
    player = s.player
    packed = s.turn
    packed = packed * 32 + s.phase
    packed = packed * 2 + player
    packed = packed * 8 + s.unit + 1
    packed = packed * 32 + s.activated[player]
    packed = packed * 64 + s.ult_used[player]
    packed = packed * 8 + s.effects[player]
    packed = packed * 64 + s.runes_spent_count[player]
    packed = packed * 4 + s.shots_done
    packed = packed * 8 + len(s.tasks)
    if shot is not None:
        packed = packed * 8 + shot.shooter + 1
        packed = packed * 2 + shot.stage
        packed = packed * 4 + len(shot.pending)
    return packed


@mypyc_attr(allow_interpreted_subclasses=True)  # the coach's memo, keyings compared
class KeyedChance:
    """Chance outcomes of a match drawn from streams keyed by ``seed`` and each event.

    Use it wherever a ``random.Random`` drives chance (:func:`akvo.match.decisions` takes
    either): ``KeyedChance(7).apply(state)`` draws the current chance node's outcome and
    applies it.
    """

    __slots__ = ("_decision_word", "_seed_word", "seed")

    def __init__(self, seed: object) -> None:
        self.seed = require_int("seed", seed, MatchError)
        self._seed_word = mix(mix(self.seed & _MASK) ^ (self.seed >> 64 & _MASK))
        self._decision_word = mix(self._seed_word ^ _DECISION_SALT)

    def decision_word(self, key: int, index: int = 0) -> int:
        """The ``index``-th 64-bit word for the decision ``key`` (:func:`decision_key`; index
        below 2²⁰), from a stream apart from the chance events' (one mix per word)."""
        counter = key << _DECISION_INDEX_BITS | index
        return mix((self._decision_word + counter * _GAMMA) & _MASK)

    def decision_uniform(self, key: int) -> float:
        """A number in [0, 1) for the decision ``key`` (53 bits, as ``random.random``)."""
        return (self.decision_word(key) >> 11) / 9007199254740992.0

    def word(self, key: int, index: int) -> int:
        """The ``index``-th 64-bit word of the stream of event ``key``: splitmix64's output
        at counter ``key · 2³² + index`` of the stream the seed starts (one mix per word;
        event keys and indices are far below 2³²)."""
        return mix((self._seed_word + (key << 32 | index) * _GAMMA) & _MASK)

    def faces(self, key: int, count: int) -> tuple[int, ...]:
        """The first ``count`` die faces of the stream of event ``key``, each 1–6: the
        base-6 digits of its accepted words, lowest first, four per word."""
        faces: list[int] = []
        index = 0
        while len(faces) < count:
            word, index = self._accepted(key, index)
            for _ in range(min(_FACES_PER_WORD, count - len(faces))):
                word, digit = divmod(word, 6)
                faces.append(digit + 1)
        return tuple(faces)

    def _accepted(self, key: int, index: int) -> tuple[int, int]:
        """The first word of the stream of ``key`` from ``index`` on that is below
        :data:`_FACE_LIMIT`, and the index after it."""
        word = self.word(key, index)
        while word >= _FACE_LIMIT:  # probability about 4e-16 per word
            index += 1
            word = self.word(key, index)
        return word, index + 1

    def uniform(self, key: int) -> float:
        """A number in [0, 1) for event ``key`` (53 bits, as ``random.random``)."""
        return (self.word(key, 0) >> 11) / 9007199254740992.0

    def key(self, state: StateCore) -> int:
        """The identity of the chance event at ``state`` (:func:`event_key`; a subclass may
        key otherwise: ``benchmarks/bench_pairing.py`` compares keyings so)."""
        return event_key(state)

    def outcome(self, state: StateCore) -> str:
        """The outcome of the chance node at ``state``, which is not changed."""
        if not isinstance(state, StateCore):
            raise MatchError(f"KeyedChance.outcome needs a match state, got {excerpt(state)}")
        if state.player != CHANCE:
            raise MatchError("KeyedChance.outcome needs a chance node")
        key = self.key(state)
        if state.phase == WEATHER:
            u = self.uniform(key)
            if state.rules.weather == "coin":
                return WEATHER_ACTIONS[0] if u < 0.5 else WEATHER_ACTIONS[1]
            a, b = state.bag
            return WEATHER_ACTIONS[0] if u * (a + b) < a else WEATHER_ACTIONS[1]
        if state.phase == REROLL:
            return ROLLS[1][self.faces(key, 1)[0] - 1][0]
        dice = roll_dice(state)
        word = self._accepted(key, 0)[0]
        index = 0
        for _ in range(dice):  # the faces of :meth:`faces`, first face the leading digit
            word, digit = divmod(word, 6)
            index = index * 6 + digit
        return ROLLS[dice][index][0]

    def apply(self, state: MatchState) -> str:
        """Draw the chance node's outcome, apply it, return it."""
        action = self.outcome(state)
        state.apply_action(action)
        return action

    def __repr__(self) -> str:
        return f"KeyedChance({self.seed})"
