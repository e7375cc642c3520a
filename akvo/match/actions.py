"""Action vocabulary: short, readable strings (JSON-friendly, used by golden files).

Decision actions (who decides is :attr:`MatchState.current_player`)::

    orders AATT AT-B      four lateral tokens (lanes 1, 2, 5, 6) + the ship's double token
                          AA, TT, AT-B (Barreur shoots, ship advances), AT-L (Lanceur shoots)
    activate <unit>       pedalair, kitesurfeur, navire, surfeur, plongeur (R9)
    ultime egide|vigie|tourbillon     declared before activating a unit (R24)
    rune U <character>    R22 default: spend rune U to make an Ultime available again
    first barreur|lanceur (TT) · move first|shot first (AT)     the ship's resolution order
    trident · no trident  the Plongeur's Ultime, on a Tirer activation
    advance · advance +V  an Avancer step, optionally with a Mouvement rune (+1 cell)
    no move · move V      before a shot: a Mouvement rune advances the shooter 1 cell first
    shoot <character> · shoot chest · … souffle · hold     target (Souffle portant: −2);
                          ``no target`` is the forced choice of a shooter with none in range
    no rune · rune P      the attacker's then the defender's rune (R18)
    keep · reroll 2       Relance: keep the dice or reroll the 2nd die (R15)
    recover P             prodige: take back a spent rune (R23)
    rouleau · no rouleau  the Surfeur's Ultime after pushing the enemy Surfeur
    rouleau +V            variant ``rouleau_mouvement``: Rouleau with a Mouvement rune (2 cells)
    shoot again · stop    Trident: another shot at a mage, up to 3

Chance outcomes: ``weather A`` / ``weather B`` (R8), ``roll 3516`` (the dice of one roll in
the order rolled), ``roll 4`` (a rerolled die).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Final

from akvo.errors import IllegalAction, excerpt
from akvo.match.board import CHAR_NAMES, CHEST, SIDE_NAMES, ULTIME_KEYS, UNIT_NAMES

# Ship double tokens: 0 = AA, 1 = TT, 2 = AT with the Barreur shooting, 3 = AT with the Lanceur.
SHIP_AA, SHIP_TT, SHIP_AT_B, SHIP_AT_L = range(4)
SHIP_TOKENS: Final[tuple[str, ...]] = ("AA", "TT", "AT-B", "AT-L")
ADVANCE_ORDER, SHOOT_ORDER = 0, 1
LATERAL_TOKENS: Final = "AT"

Orders = tuple[int, int, int, int, int]


def _order_actions() -> dict[str, Orders]:
    table: dict[str, Orders] = {}
    for lateral in itertools.product((0, 1), repeat=4):
        for ship in range(4):
            text = "".join(LATERAL_TOKENS[t] for t in lateral)
            orders: Orders = (lateral[0], lateral[1], ship, lateral[2], lateral[3])
            table[f"orders {text} {SHIP_TOKENS[ship]}"] = orders
    return table


ORDER_ACTIONS: dict[str, Orders] = _order_actions()
ORDER_ACTION_LIST: tuple[str, ...] = tuple(ORDER_ACTIONS)


def orders_text(orders: Orders) -> str:
    lateral = "".join(LATERAL_TOKENS[orders[u]] for u in (0, 1, 3, 4))
    return f"{lateral} {SHIP_TOKENS[orders[2]]}"


KEEP: Final = "keep"
NO_RUNE: Final = "no rune"
NO_MOVE: Final = "no move"
ADVANCE: Final = "advance"
HOLD: Final = "hold"
NO_TARGET: Final = "no target"  # forced: the shooter has no target at all (never recorded)
TRIDENT: Final = "trident"
NO_TRIDENT: Final = "no trident"
ROULEAU: Final = "rouleau"
NO_ROULEAU: Final = "no rouleau"
SHOOT_AGAIN: Final = "shoot again"
STOP: Final = "stop"
MOVE_FIRST: Final = "move first"
SHOT_FIRST: Final = "shot first"
FIRST_BARREUR: Final = "first barreur"
FIRST_LANCEUR: Final = "first lanceur"
# Ultimes declared at activation for the rest of the turn (R24): Tourbillon, Égide, Vigie.
TURN_ULTIMES: Final[tuple[int, ...]] = (1, 2, 3)
ULTIME_ACTIONS: Final = {f"ultime {ULTIME_KEYS[c]}": c for c in TURN_ULTIMES}
REROLL_ACTIONS: Final = tuple(f"reroll {i}" for i in range(1, 9))
RUNE_ACTIONS: Final = {chr(c): f"rune {chr(c)}" for c in range(65, 91)}
MOVE_ACTIONS: Final = {chr(c): f"move {chr(c)}" for c in range(65, 91)}
ADVANCE_RUNE_ACTIONS: Final = {chr(c): f"advance +{chr(c)}" for c in range(65, 91)}
RECOVER_ACTIONS: Final = {chr(c): f"recover {chr(c)}" for c in range(65, 91)}
ROULEAU_RUNE_ACTIONS: Final = {chr(c): f"rouleau +{chr(c)}" for c in range(65, 91)}
WEATHER_ACTIONS: Final[tuple[str, ...]] = ("weather A", "weather B")
DIE_ACTIONS: Final = tuple(f"roll {face}" for face in range(1, 7))


# --- parsed actions ------------------------------------------------------------------------
# A small value type per action kind, so that code reads fields instead of re-parsing strings
# by position. The strings stay the records' and legal lists' format: ``parse_action(text)``
# reads one, ``action.text`` writes it back, and the engine looks actions up in ``PARSED``.


@dataclass(frozen=True, slots=True)
class OrdersAction:
    """``orders AATT AT-B``: the five order tokens, indexed by unit (R9)."""

    orders: Orders

    @property
    def text(self) -> str:
        return f"orders {orders_text(self.orders)}"


@dataclass(frozen=True, slots=True)
class Activate:
    """``activate surfeur``: the unit to activate (index into ``UNIT_NAMES``)."""

    unit: int

    @property
    def text(self) -> str:
        return f"activate {UNIT_NAMES[self.unit]}"


@dataclass(frozen=True, slots=True)
class DeclareUltime:
    """``ultime egide``: a turn-long Ultime declared before activating (R24)."""

    character: int

    @property
    def text(self) -> str:
        return f"ultime {ULTIME_KEYS[self.character]}"


@dataclass(frozen=True, slots=True)
class RestoreUltime:
    """``rune U plongeur``: the rune U makes this character's Ultime available again (R22)."""

    character: int

    @property
    def text(self) -> str:
        return f"rune U {CHAR_NAMES[self.character]}"


@dataclass(frozen=True, slots=True)
class Choice:
    """A named choice without arguments (``keep``, ``trident``, ``move first``, ``hold``…)."""

    name: str

    @property
    def text(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class PlayRune:
    """A rune spent by letter: ``kind`` is ``rune`` (R18), ``move`` (Mouvement before a shot),
    ``advance`` (Mouvement on an Avancer step), ``rouleau`` (Mouvement on Rouleau's advance,
    variant ``rouleau_mouvement``) or ``recover`` (a prodige takes it back)."""

    kind: str
    letter: str

    @property
    def text(self) -> str:
        if self.kind in _PLUS_KINDS:
            return f"{self.kind} +{self.letter}"
        return f"{self.kind} {self.letter}"


_PLUS_KINDS: Final[tuple[str, ...]] = ("advance", "rouleau")  # spelled ``advance +V``: a cell more


@dataclass(frozen=True, slots=True)
class ShootAt:
    """``shoot surfeur`` / ``shoot chest souffle``: ``target`` is a character or ``CHEST``."""

    target: int
    souffle: bool

    @property
    def text(self) -> str:
        name = "chest" if self.target == CHEST else CHAR_NAMES[self.target]
        return f"shoot {name}" + (" souffle" if self.souffle else "")


@dataclass(frozen=True, slots=True)
class Reroll:
    """``reroll 2``: Relance rerolls the 2nd die (1-based, R15)."""

    die: int

    @property
    def text(self) -> str:
        return f"reroll {self.die}"


@dataclass(frozen=True, slots=True)
class Weather:
    """``weather A``: the weather token favours this side (R8)."""

    side: int

    @property
    def text(self) -> str:
        return f"weather {SIDE_NAMES[self.side]}"


@dataclass(frozen=True, slots=True)
class Roll:
    """``roll 3516``: the dice of one roll in the order rolled (or one rerolled die)."""

    faces: tuple[int, ...]

    @property
    def text(self) -> str:
        return "roll " + "".join(map(str, self.faces))


Action = (
    OrdersAction
    | Activate
    | DeclareUltime
    | RestoreUltime
    | Choice
    | PlayRune
    | ShootAt
    | Reroll
    | Weather
    | Roll
)
CHOICES: Final = (
    KEEP,
    NO_RUNE,
    NO_MOVE,
    ADVANCE,
    HOLD,
    NO_TARGET,
    TRIDENT,
    NO_TRIDENT,
    ROULEAU,
    NO_ROULEAU,
    SHOOT_AGAIN,
    STOP,
    MOVE_FIRST,
    SHOT_FIRST,
    FIRST_BARREUR,
    FIRST_LANCEUR,
)


_RUNE_KINDS: Final[tuple[str, ...]] = ("rune", "move", "advance", "rouleau", "recover")


def _parsed_table() -> dict[str, Action]:
    table: dict[str, Action] = {}
    entries: list[Action] = [OrdersAction(o) for o in ORDER_ACTIONS.values()]
    entries += [Activate(u) for u in range(len(UNIT_NAMES))]
    entries += [DeclareUltime(c) for c in ULTIME_ACTIONS.values()]
    entries += [RestoreUltime(c) for c in range(len(CHAR_NAMES))]
    entries += [Choice(name) for name in CHOICES]
    for code in range(65, 91):
        entries += [PlayRune(kind, chr(code)) for kind in _RUNE_KINDS]
    for target in (*range(len(CHAR_NAMES)), CHEST):
        entries += [ShootAt(target, False), ShootAt(target, True)]
    entries += [Reroll(die) for die in range(1, len(REROLL_ACTIONS) + 1)]
    entries += [Weather(side) for side in (0, 1)]
    entries += [Roll((face,)) for face in range(1, 7)]
    for entry in entries:
        table[entry.text] = entry
    return table


#: Every decision action (and the weather and single-die outcomes), parsed once.
PARSED: dict[str, Action] = _parsed_table()
#: Two fields read in hot paths, by action: the letter of each rune action (``rune P``,
#: ``move V``, ``advance +W``, ``rouleau +W``, ``recover P``) and the side of each weather
#: outcome.
RUNE_LETTER: Final = {text: a.letter for text, a in PARSED.items() if isinstance(a, PlayRune)}
WEATHER_SIDE: Final = {text: a.side for text, a in PARSED.items() if isinstance(a, Weather)}


def parse_action(text: object) -> Action:
    """The value type of an action string; :class:`~akvo.errors.IllegalAction` if unknown."""
    if not isinstance(text, str):
        raise IllegalAction(f"an action is a string, got {type(text).__name__}")
    text = str.__str__(text)  # a str subclass's own methods are not trusted
    parsed = PARSED.get(text)
    if parsed is not None:
        return parsed
    if text.startswith("roll ") and 1 <= len(text) - 5 <= 8 and text[5:].isdigit():
        faces = tuple(ord(c) - 48 for c in text[5:])
        if all(1 <= f <= 6 for f in faces):
            return Roll(faces)
    raise IllegalAction(f"unknown action {excerpt(text)}")
