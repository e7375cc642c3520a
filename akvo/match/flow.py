"""The turn sequence (R7–R10, R24–R25): weather, orders, alternating activations, moves,
Ultimes declared at activation, end of turn and end of match.

Functions over the state's data (:class:`~akvo.match.core.StateCore`), one per phase and
job: ``legal_*`` lists a phase's decisions and never changes the state (a single one is
played by :func:`akvo.match.engine.settle`), ``decide_*`` applies one, the rest is
bookkeeping run by ``settle``. Moves are :mod:`akvo.match.geometry`.
"""

from __future__ import annotations

from typing import Final

from akvo.match import log
from akvo.match.actions import ADVANCE as ADVANCE_ACTION
from akvo.match.actions import (
    ADVANCE_ORDER,
    ADVANCE_RUNE_ACTIONS,
    FIRST_BARREUR,
    FIRST_LANCEUR,
    MOVE_FIRST,
    NO_TRIDENT,
    ORDER_ACTION_LIST,
    ORDER_ACTIONS,
    PARSED,
    SHIP_AA,
    SHIP_AT_B,
    SHIP_TT,
    SHOT_FIRST,
    ULTIME_ACTIONS,
    Activate,
    PlayRune,
    RestoreUltime,
    orders_text,
)
from akvo.match.actions import TRIDENT as TRIDENT_ACTION
from akvo.match.board import (
    BARREUR,
    CHAR_NAMES,
    CHARS,
    CHARS_OF_UNIT,
    FORWARD,
    LANCEUR,
    PLONGEUR,
    SHIP,
    SIDE_NAMES,
    UNIT_NAMES,
    UNITS,
)
from akvo.match.core import TASK_ADVANCE, TASK_SHOT, Shot, StateCore, rule_played
from akvo.match.geometry import advance, mages_in_enemy_half, room_ahead
from akvo.match.phases import (
    ACTIVATE,
    ADVANCE,
    END,
    END_TURN,
    ORDERS,
    PRE_SHOT,
    SHIP_ORDER,
    START_TURN,
    TRIDENT,
    WEATHER,
)
from akvo.match.roster import (
    BONUS,
    MOUVEMENT,
    RUNE_U,
    Roster,
    grimoire_readings_part,
    letter_bit,
)
from akvo.match.schema import RUNE_KINDS, USES_FAVOURED, USES_RUNES
from akvo.match.ultimes import (
    declare_trident,
    declare_turn_ultime,
    restore_ultime,
    rune_u_restores,
    trident_offered,
)
from akvo.match.weather import REGULAR_TURNS, draw_readings_part, weather_drawn, weather_reshuffled
from akvo.rules import TIE_BREAK_TURNS, TURNS, lighthouse_level, tier_for_turn

ALL_UNITS: Final = (1 << UNITS) - 1
_ACTIVATE_ACTIONS: Final = tuple(f"activate {name}" for name in UNIT_NAMES)
_UNIT_OF_ACTIVATION: Final = {
    action: parsed.unit for action, parsed in PARSED.items() if isinstance(parsed, Activate)
}
_ULTIME_DECLARATIONS: Final = tuple((char, action) for action, char in ULTIME_ACTIONS.items())
_RUNE_U_ACTIONS: Final = tuple(f"rune U {name}" for name in CHAR_NAMES)
_MOVEMENT_MASK: Final = 1 << MOUVEMENT
_ADVANCE_ONLY: Final[tuple[str, ...]] = (ADVANCE_ACTION,)
_U_BIT: Final = letter_bit(RUNE_U)
LAST_REGULAR_TURN: Final = TURNS[-1]
LAST_TURN: Final = TIE_BREAK_TURNS[-1]


def add_event(s: StateCore, text: str) -> None:
    """Log one French sentence, prefixed with the turn (callers check ``s.log`` first)."""
    s.events.append(log.prefix(s.turn) + text)


# --- start of turn and weather (R7, R8) ----------------------------------------------------
def start_turn(s: StateCore) -> None:
    if s.log:
        level = lighthouse_level(s.turn)
        add_event(
            s, f"le phare indique le niveau {level} (palier {log.tier(tier_for_turn(s.turn))})."
        )
    s.phase = WEATHER


def weather(s: StateCore, favoured: int) -> None:
    s.favoured = favoured
    slot = USES_FAVOURED + favoured
    if draw_readings_part(s.rules, s.bag, s.uses[slot], s.turn):
        rule_played(s, "weather")
    if s.turn <= REGULAR_TURNS:
        s.uses[slot] += 1
    weather_drawn(s.rules, s.bag, favoured)
    if s.log:
        add_event(s, f"la météo favorise {SIDE_NAMES[favoured]}.")
    s.side = 0
    s.phase = ORDERS


# --- orders (R9) ---------------------------------------------------------------------------
def legal_orders(s: StateCore) -> tuple[str, ...]:
    return ORDER_ACTION_LIST


def decide_orders(s: StateCore, action: str) -> None:
    side = s.side
    s.orders[side] = ORDER_ACTIONS[action]
    if s.log:
        add_event(s, f"{SIDE_NAMES[side]} programme ses ordres en secret.")
    if side == 0:
        s.side = 1
        return
    a, b = s.orders
    assert a is not None and b is not None
    if s.log:
        add_event(s, f"ordres révélés : A {orders_text(a)} ; B {orders_text(b)}.")  # type: ignore[arg-type]
    s.side = s.favoured
    s.phase = ACTIVATE


# --- activation (R9, R22, R24) -------------------------------------------------------------
def legal_activate(s: StateCore) -> tuple[str, ...]:
    """Units not yet activated, free turn-long Ultimes, and the rune U (R22); memoised per
    roster on what they depend on."""
    side = s.side
    used = s.ult_used[side]
    rune_u = bool(used) and rune_u_restores(s.rules) and not s.spent[side] & _U_BIT
    roster = s.rosters[side]
    key = ("activate", s.activated[side], used, rune_u)
    found = roster.memo.get(key)
    if found is None:
        found = roster.memo[key] = _activation_choices(s.activated[side], used, rune_u, roster)
    return found


def _activation_choices(done: int, used: int, rune_u: bool, roster: Roster) -> tuple[str, ...]:
    actions = [_ACTIVATE_ACTIONS[u] for u in range(UNITS) if not done >> u & 1]
    for char, action in _ULTIME_DECLARATIONS:
        if not used >> char & 1:
            actions.append(action)
    if rune_u:
        holder = roster.holder_of[RUNE_U]
        for char in range(CHARS):
            if used >> char & 1 and holder in (char, BONUS):
                actions.append(_RUNE_U_ACTIONS[char])
    return tuple(actions)


def decide_activate(s: StateCore, action: str) -> None:
    side = s.side
    unit = _UNIT_OF_ACTIVATION.get(action, -1)
    if unit < 0:
        parsed = PARSED[action]
        if isinstance(parsed, RestoreUltime):
            restore_ultime(s, side, parsed.character)
        else:
            declare_turn_ultime(s, side, ULTIME_ACTIONS[action])
        return
    s.unit = unit
    orders = s.orders[side]
    assert orders is not None
    order = orders[unit]
    s.trident = False
    s.shots_done = 0
    if unit == SHIP:
        if order == SHIP_AA:  # Avancer/Avancer: 2 cells, one Mouvement rune or one per order
            one = s.rules.ship_advance_runes == "one"
            s.tasks = [(TASK_ADVANCE, 2)] if one else [(TASK_ADVANCE, 1), (TASK_ADVANCE, 1)]
            next_task(s)
        else:
            s.phase = SHIP_ORDER
    elif order == ADVANCE_ORDER:
        s.tasks = [(TASK_ADVANCE, 1)]
        next_task(s)
    elif trident_offered(s, side, unit):
        s.phase = TRIDENT
    else:
        s.tasks = [(TASK_SHOT, CHARS_OF_UNIT[unit][0])]
        next_task(s)


# --- the ship's double token ---------------------------------------------------------------
def legal_ship_order(s: StateCore) -> tuple[str, ...]:
    orders = s.orders[s.side]
    assert orders is not None
    if orders[SHIP] == SHIP_TT:
        return (FIRST_BARREUR, FIRST_LANCEUR)
    return (MOVE_FIRST, SHOT_FIRST)


def decide_ship_order(s: StateCore, action: str) -> None:
    orders = s.orders[s.side]
    assert orders is not None
    if action == FIRST_BARREUR:
        s.tasks = [(TASK_SHOT, BARREUR), (TASK_SHOT, LANCEUR)]
    elif action == FIRST_LANCEUR:
        s.tasks = [(TASK_SHOT, LANCEUR), (TASK_SHOT, BARREUR)]
    else:
        shooter = BARREUR if orders[SHIP] == SHIP_AT_B else LANCEUR
        move, shot = (TASK_ADVANCE, 1), (TASK_SHOT, shooter)
        s.tasks = [move, shot] if action == MOVE_FIRST else [shot, move]
    next_task(s)


# --- Trident's declaration (the Ultime itself: akvo.match.ultimes) -------------------------
def legal_trident(s: StateCore) -> tuple[str, ...]:
    return (TRIDENT_ACTION, NO_TRIDENT)


def decide_trident(s: StateCore, action: str) -> None:
    s.tasks = [(TASK_SHOT, PLONGEUR)]
    if action == TRIDENT_ACTION:
        declare_trident(s, s.side)
    next_task(s)


# --- tasks of an activation ----------------------------------------------------------------
def next_task(s: StateCore) -> None:
    """Start the activation's next task, or end the activation (called directly by the
    decision that finishes a task: a cheaper step than a pass through the settle loop)."""
    if not s.tasks:
        end_activation(s)
        return
    kind, arg = s.tasks[0]
    if kind == TASK_ADVANCE:
        s.phase = ADVANCE
    else:
        s.tasks.pop(0)
        s.shot = Shot(s.side, arg)
        s.phase = PRE_SHOT


def advance_rune_holders(unit: int) -> tuple[int, ...]:
    """Who may lend a Mouvement rune to an Avancer step: the unit's mage (either central
    mage for the ship) or the bonus runes."""
    if unit == SHIP:
        return (BARREUR, LANCEUR, BONUS)
    return (CHARS_OF_UNIT[unit][0], BONUS)


def legal_advance(s: StateCore) -> tuple[str, ...]:
    """An Avancer step with or without a Mouvement rune (R20: a rune only where its extra
    cell can be moved); ``(advance,)`` alone when no rune can act."""
    side, unit = s.side, s.unit
    if room_ahead(s.rows, side, unit) <= s.tasks[0][1]:
        return _ADVANCE_ONLY
    return s.rosters[side].choices(
        s.spent[side],
        advance_rune_holders(unit),
        _MOVEMENT_MASK,
        ADVANCE_ACTION,
        ADVANCE_RUNE_ACTIONS,
    )


def decide_advance(s: StateCore, action: str) -> None:
    side, unit = s.side, s.unit
    cells = s.tasks.pop(0)[1]
    rune = PARSED[action]
    letter = rune.letter if isinstance(rune, PlayRune) else ""
    if letter:
        spend(s, side, letter)
        cells += 1
        orders = s.orders[side]
        if unit == SHIP and orders is not None and orders[SHIP] == SHIP_AA:
            rule_played(s, "ship_advance_runes")  # R20: one rune in all, or one per order
    before = s.rows[side * UNITS + unit]
    moved = advance(s.rows, side, unit, cells)
    if s.log:
        who = log.unit(side, unit)
        if letter:
            who += f" {log.rune_played(letter, MOUVEMENT)} et"
        after = before + moved * FORWARD[side]
        if moved == cells:
            add_event(s, f"{who} avance de {log.cells(moved)} (ligne {after}).")
        elif moved:
            add_event(s, f"{who} avance de {log.cells(moved)} sur {cells} (ligne {after}), bloqué.")
        else:
            add_event(s, f"{who} est bloqué et reste ligne {before}.")
    next_task(s)


def spend(s: StateCore, side: int, letter: str) -> None:
    s.spent[side] |= letter_bit(letter)
    s.runes_spent_count[side] += 1
    category = s.rosters[side].category_of[letter]
    s.uses[USES_RUNES + side * RUNE_KINDS + category] += 1
    if grimoire_readings_part(category):
        rule_played(s, "grimoire")


# --- end of activation, end of turn, end of match (R9, R25) --------------------------------
def end_activation(s: StateCore) -> None:
    side = s.side
    s.activated[side] |= 1 << s.unit
    s.unit = -1
    s.trident = False
    s.shots_done = 0
    other = 1 - side
    if s.activated[other] != ALL_UNITS:  # R9: alternate while both have units
        s.side = other
        s.phase = ACTIVATE
    elif s.activated[side] != ALL_UNITS:
        s.phase = ACTIVATE
    else:
        s.phase = END_TURN


def end_turn(s: StateCore) -> None:
    s.effects = [0, 0]
    s.activated = [0, 0]
    s.orders = [None, None]
    s.side = -1
    a, b = s.scores
    turn = s.turn
    if turn < LAST_REGULAR_TURN or LAST_REGULAR_TURN < turn < LAST_TURN:
        s.turn += 1
        s.phase = START_TURN
        return
    if a != b:
        finish(s, 0 if a > b else 1, "score")
        return
    if turn == LAST_REGULAR_TURN:  # R25: two more turns at tier IV
        if s.log:
            add_event(s, f"égalité {a} – {b} : deux tours supplémentaires au palier IV.")
        weather_reshuffled(s.rules, s.bag)  # R8: the bag is reshuffled whole
        s.turn = TIE_BREAK_TURNS[0]
        s.phase = START_TURN
        return
    halves = [mages_in_enemy_half(s.rows, 0), mages_in_enemy_half(s.rows, 1)]
    if s.log:
        add_event(
            s, f"égalité {a} – {b} : mages dans la moitié adverse, A {halves[0]}, B {halves[1]}."
        )
    if halves[0] != halves[1]:
        finish(s, 0 if halves[0] > halves[1] else 1, "half")
    else:
        finish(s, 2, "draw")


def finish(s: StateCore, winner: int, reason: str) -> None:
    s.winner = winner
    s.reason = reason
    a, b = s.scores
    if winner == 2:
        s.events.append(f"Fin du match — match nul, {a} – {b}.")
    else:
        how = " au nombre de mages dans la moitié adverse" if reason == "half" else ""
        s.events.append(f"Fin du match — {SIDE_NAMES[winner]} gagne{how}, {a} – {b}.")
    s.phase = END
