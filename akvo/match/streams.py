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
_FACES_MOD: Final = 6**_FACES_PER_WORD
_FACE_LIMIT: Final = (1 << 64) // _FACES_MOD * _FACES_MOD
#: Event kinds, the low bits of an event's identity.
WEATHER_EVENT, ROLL_EVENT, REROLL_EVENT = 0, 1, 2
#: Bits of a decision's identity (:func:`decision_key`) and of a word's index in its stream.
_DECISION_BITS: Final = 44
_DECISION_INDEX_BITS: Final = 64 - _DECISION_BITS
#: Mixed into the seed for the decisions' streams (apart from the chance events' streams).
_DECISION_SALT: Final = 0x6A09E667F3BCC909


def mix(word: int) -> int:
    """splitmix64's finaliser: a 64-bit word to a well-mixed 64-bit word."""
    high, low = _mix(word >> 32 & _M32, word & _M32)
    return high << 32 | low


# The words are worked in 32-bit halves, every intermediate below 2⁵⁰: compiled by mypyc, a
# 64-bit word (above 2⁶²) would be a heap-allocated Python int at each step, and drawing the
# lab's dice cost about 1.5 M instructions a match (issue 35); the halves stay machine ints.
_M32: Final = 0xFFFFFFFF
_M16: Final = 0xFFFF
_GAMMA_HIGH: Final = _GAMMA >> 32
_GAMMA_LOW: Final = _GAMMA & _M32
#: splitmix64's two multipliers, in halves.
_MUL1_HIGH: Final = 0xBF58476D
_MUL1_LOW: Final = 0x1CE4E5B9
_MUL2_HIGH: Final = 0x94D049BB
_MUL2_LOW: Final = 0x133111EB
#: :data:`_FACE_LIMIT`'s halves (its high half is all ones).
_LIMIT_LOW: Final = _FACE_LIMIT & _M32
#: 2³² mod 6⁴: the low four base-6 digits of a word from its halves.
_HIGH_DIGITS: Final = (1 << 32) % _FACES_MOD


def _product(a: int, b: int) -> tuple[int, int]:
    """The 64-bit product of two 32-bit ints, as its high and low halves."""
    a1, a0 = a >> 16, a & _M16
    b1, b0 = b >> 16, b & _M16
    middle = a1 * b0 + a0 * b1
    low = a0 * b0 + ((middle & _M16) << 16)
    return a1 * b1 + (middle >> 16) + (low >> 32), low & _M32


def _times(high: int, low: int, other_high: int, other_low: int) -> tuple[int, int]:
    """The product of two 64-bit words (in halves) modulo 2⁶⁴, in halves."""
    carry, result_low = _product(low, other_low)
    cross = _product(high, other_low)[1] + _product(low, other_high)[1] + carry
    return cross & _M32, result_low


def _mix(high: int, low: int) -> tuple[int, int]:
    """:func:`mix` of the word ``high · 2³² + low``, in halves."""
    low += _GAMMA_LOW
    high = (high + _GAMMA_HIGH + (low >> 32)) & _M32
    low &= _M32
    low ^= (low >> 30 | high << 2) & _M32
    high ^= high >> 30
    high, low = _times(high, low, _MUL1_HIGH, _MUL1_LOW)
    low ^= (low >> 27 | high << 5) & _M32
    high ^= high >> 27
    high, low = _times(high, low, _MUL2_HIGH, _MUL2_LOW)
    low ^= (low >> 31 | high << 1) & _M32
    high ^= high >> 31
    return high, low


def _stream(start_high: int, start_low: int, counter: int) -> tuple[int, int]:
    """splitmix64's output at ``counter`` of the stream that ``start`` begins: the mix of
    ``start + counter · γ`` modulo 2⁶⁴, in halves."""
    high, low = _times(counter >> 32 & _M32, counter & _M32, _GAMMA_HIGH, _GAMMA_LOW)
    low += start_low
    return _mix((high + start_high + (low >> 32)) & _M32, low & _M32)


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

    __slots__ = ("_decision_high", "_decision_low", "_seed_high", "_seed_low", "seed")

    def __init__(self, seed: object) -> None:
        self.seed = require_int("seed", seed, MatchError)
        seed_word = mix(mix(self.seed & _MASK) ^ (self.seed >> 64 & _MASK))
        decision_word = mix(seed_word ^ _DECISION_SALT)
        self._seed_high, self._seed_low = seed_word >> 32, seed_word & _M32
        self._decision_high, self._decision_low = decision_word >> 32, decision_word & _M32

    def decision_word(self, key: int, index: int = 0) -> int:
        """The ``index``-th 64-bit word for the decision ``key`` (:func:`decision_key`; index
        below 2²⁰), from a stream apart from the chance events' (one mix per word)."""
        counter = key << _DECISION_INDEX_BITS | index
        high, low = _stream(self._decision_high, self._decision_low, counter)
        return high << 32 | low

    def decision_uniform(self, key: int) -> float:
        """A number in [0, 1) for the decision ``key`` (53 bits, as ``random.random``)."""
        high, low = _stream(self._decision_high, self._decision_low, key << _DECISION_INDEX_BITS)
        return (high << 21 | low >> 11) / 9007199254740992.0

    def word(self, key: int, index: int) -> int:
        """The ``index``-th 64-bit word of the stream of event ``key``: splitmix64's output
        at counter ``key · 2³² + index`` of the stream the seed starts (one mix per word;
        event keys and indices are far below 2³²)."""
        high, low = _stream(self._seed_high, self._seed_low, key << 32 | index)
        return high << 32 | low

    def faces(self, key: int, count: int) -> tuple[int, ...]:
        """The first ``count`` die faces of the stream of event ``key``, each 1–6: the
        base-6 digits of its accepted words, lowest first, four per word."""
        faces: list[int] = []
        index = 0
        while len(faces) < count:
            digits, index = self._accepted(key, index)
            for _ in range(min(_FACES_PER_WORD, count - len(faces))):
                digits, digit = divmod(digits, 6)
                faces.append(digit + 1)
        return tuple(faces)

    def _accepted(self, key: int, index: int) -> tuple[int, int]:
        """The first word of the stream of ``key`` from ``index`` on that is below
        :data:`_FACE_LIMIT`, reduced to its low four base-6 digits (the word modulo 6⁴: all
        a roll reads), and the index after it."""
        high, low = _stream(self._seed_high, self._seed_low, key << 32 | index)
        while high == _M32 and low >= _LIMIT_LOW:  # probability about 4e-16 per word
            index += 1
            high, low = _stream(self._seed_high, self._seed_low, key << 32 | index)
        return (high % _FACES_MOD * _HIGH_DIGITS + low) % _FACES_MOD, index + 1

    def uniform(self, key: int) -> float:
        """A number in [0, 1) for event ``key`` (53 bits, as ``random.random``)."""
        high, low = _stream(self._seed_high, self._seed_low, key << 32)
        return (high << 21 | low >> 11) / 9007199254740992.0

    def key(self, state: StateCore) -> int:
        """The identity of the chance event at ``state`` (:func:`event_key`; a subclass may
        key otherwise: ``benchmarks/bench_pairing.py`` compares keyings so)."""
        return event_key(state)

    def outcome(self, state: object) -> str:
        """The outcome of the chance node at ``state``, which is not changed (``state`` is
        typed ``object`` so that the compiled build, too, answers a wrong argument with the
        engine's error rather than a ``TypeError`` at the call)."""
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
