"""The turn sequence (R7–R10, R24–R25): weather, orders, alternating activations, moves,
Ultimes declared at activation, end of turn and end of match.

The engine is a small state machine. Resting phases wait for a decision or a chance
outcome; internal phases are bookkeeping run at once by :meth:`TurnFlow._settle`, which also
plays every decision node that has a single legal action (those are logged but not recorded,
so that a record replays the same way).
"""

from __future__ import annotations

from akvo.errors import IllegalAction
from akvo.match import log
from akvo.match.actions import (
    ADVANCE_ORDER,
    ADVANCE_RUNE_ACTIONS,
    FIRST_BARREUR,
    FIRST_LANCEUR,
    MOVE_FIRST,
    NO_TRIDENT,
    ORDER_ACTION_LIST,
    ORDER_ACTIONS,
    SHIP_AA,
    SHIP_AT_B,
    SHIP_TT,
    SHOT_FIRST,
    ULTIME_ACTIONS,
    orders_text,
)
from akvo.match.actions import (
    TRIDENT as TRIDENT_ACTION,
)
from akvo.match.board import (
    BARREUR,
    CHAR_NAMES,
    CHAR_OF_NAME,
    CHARS,
    CHARS_OF_UNIT,
    ENEMY_LAST_ROW,
    FORWARD,
    LANCEUR,
    OWN_FIRST_ROW,
    PLONGEUR,
    SHIP,
    SIDE_NAMES,
    UNIT_NAMES,
    UNIT_OF_CHAR,
    UNITS,
    in_enemy_half,
)
from akvo.match.core import (
    ACTIVATE,
    ADVANCE,
    AFTER_SHOT,
    CHANCE,
    EFFECT_OF_CHAR,
    END,
    END_ACTIVATION,
    END_TURN,
    NEXT_TASK,
    ORDERS,
    PHASE_NAMES,
    PRE_SHOT,
    REROLL,
    ROLL,
    SHIP_ORDER,
    START_TURN,
    TASK_ADVANCE,
    TASK_SHOT,
    TERMINAL,
    TRIDENT,
    WEATHER,
    Shot,
    StateCore,
)
from akvo.match.roster import BONUS, MOUVEMENT, RUNE_U, letter_bit
from akvo.rules import lighthouse_level, tier_for_turn

ALL_UNITS = (1 << UNITS) - 1
_ACTIVATE_ACTIONS = tuple(f"activate {name}" for name in UNIT_NAMES)
_ACTIVATE_UNIT = {action: unit for unit, action in enumerate(_ACTIVATE_ACTIONS)}
_ULTIME_DECLARATIONS = tuple((char, action) for action, char in ULTIME_ACTIONS.items())
_RUNE_U_ACTIONS = tuple(f"rune U {name}" for name in CHAR_NAMES)
_MOVEMENT_MASK = 1 << MOUVEMENT


class TurnFlow(StateCore):
    """Turn sequence and movement; shots are delegated to the shooting mixin."""

    __slots__ = ()

    # --- provided by the shooting mixin ---------------------------------------------
    def _shot_legal(self) -> tuple[str, ...]:
        raise NotImplementedError

    def _shot_decide(self, action: str) -> None:
        raise NotImplementedError

    def _shot_chance(self, faces: list[int]) -> None:
        raise NotImplementedError

    def _after_shot(self) -> None:
        raise NotImplementedError

    def _shot_player(self) -> int:
        raise NotImplementedError

    def _roll_dice_count(self) -> int:
        raise NotImplementedError

    # --- the settle loop ---------------------------------------------------------------
    @property
    def tier(self) -> int:
        return tier_for_turn(self.turn)

    def _log(self, text: str) -> None:
        self.events.append(log.prefix(self.turn) + text)

    def _settle(self) -> None:
        """Run internal phases and forced single-action nodes until a real choice or chance."""
        while True:
            phase = self.phase
            if phase >= START_TURN:
                self._internal(phase)
                continue
            if phase == END:
                self.player = TERMINAL
                self.legal = ()
                return
            if phase == WEATHER:
                if self.rules.weather == "bag" and (self.bag[0] == 0 or self.bag[1] == 0):
                    self._weather(0 if self.bag[0] else 1)  # one kind left: no chance
                    continue
                self.player = CHANCE
                self.legal = ()
                return
            if phase in (ROLL, REROLL):
                self.player = CHANCE
                self.legal = ()
                return
            legal = self._compute_legal()
            if not legal:
                continue  # the phase moved on by itself (e.g. no target in range)
            if len(legal) == 1:
                self._decide(legal[0])
                continue
            self.player = self._decider()
            self.legal = legal
            return

    def _decider(self) -> int:
        if self.phase in (ORDERS, ACTIVATE, SHIP_ORDER, TRIDENT, ADVANCE):
            return self.side
        return self._shot_player()

    def _internal(self, phase: int) -> None:
        if phase == START_TURN:
            level = lighthouse_level(self.turn)
            self._log(f"le phare indique le niveau {level} (palier {log.tier(self.tier)}).")
            self.phase = WEATHER
        elif phase == NEXT_TASK:
            self._next_task()
        elif phase == END_ACTIVATION:
            self._end_activation()
        elif phase == END_TURN:
            self._end_turn()
        elif phase == AFTER_SHOT:
            self._after_shot()
        else:  # pragma: no cover - every internal phase is listed above
            raise AssertionError(f"unknown phase {phase}")

    # --- legal actions -------------------------------------------------------------------
    def _compute_legal(self) -> tuple[str, ...]:
        phase = self.phase
        if phase == ORDERS:
            return ORDER_ACTION_LIST
        if phase == ACTIVATE:
            return self._activation_legal()
        if phase == SHIP_ORDER:
            orders = self.orders[self.side]
            assert orders is not None
            if orders[SHIP] == SHIP_TT:
                return (FIRST_BARREUR, FIRST_LANCEUR)
            return (MOVE_FIRST, SHOT_FIRST)
        if phase == TRIDENT:
            return (TRIDENT_ACTION, NO_TRIDENT)
        if phase == ADVANCE:
            if self.room_ahead(self.side, self.unit) <= self.tasks[0][1]:
                return ("advance",)  # R20: a Mouvement rune that cannot act cannot be played
            holders = (
                (BARREUR, LANCEUR, BONUS)
                if self.unit == SHIP
                else (CHARS_OF_UNIT[self.unit][0], BONUS)
            )
            letters = self.rosters[self.side].playable(
                self.spent[self.side], holders, _MOVEMENT_MASK
            )
            return ("advance", *(ADVANCE_RUNE_ACTIONS[letter] for letter in letters))
        return self._shot_legal()

    def _activation_legal(self) -> tuple[str, ...]:
        side = self.side
        done = self.activated[side]
        actions = [_ACTIVATE_ACTIONS[u] for u in range(UNITS) if not done >> u & 1]
        used = self.ult_used[side]
        for char, action in _ULTIME_DECLARATIONS:
            if not used >> char & 1:
                actions.append(action)
        if (
            used
            and self.rules.rune_u == "restores_ultime"
            and not self.spent[side] & letter_bit(RUNE_U)
        ):
            holder = self.rosters[side].holder_of[RUNE_U]
            for char in range(CHARS):
                if used >> char & 1 and holder in (char, BONUS):
                    actions.append(_RUNE_U_ACTIONS[char])
        return tuple(actions)

    # --- decisions -----------------------------------------------------------------------
    def _decide(self, action: str) -> None:
        phase = self.phase
        if phase == ORDERS:
            self._program(action)
        elif phase == ACTIVATE:
            self._activation_choice(action)
        elif phase == SHIP_ORDER:
            self._ship_order(action)
        elif phase == TRIDENT:
            self.tasks = [(TASK_SHOT, PLONGEUR)]
            if action == TRIDENT_ACTION:
                self._use_ultime(self.side, PLONGEUR)
                self.trident = True
                self._log(f"{log.mage(self.side, PLONGEUR)} déclare Trident : jusqu'à 3 tirs.")
            self.phase = NEXT_TASK
        elif phase == ADVANCE:
            self._advance_choice(action)
        else:
            self._shot_decide(action)

    def _program(self, action: str) -> None:
        side = self.side
        self.orders[side] = ORDER_ACTIONS[action]
        self._log(f"{SIDE_NAMES[side]} programme ses ordres en secret.")
        if side == 0:
            self.side = 1
            return
        a, b = self.orders
        assert a is not None and b is not None
        self._log(f"ordres révélés : A {orders_text(a)} ; B {orders_text(b)}.")  # type: ignore[arg-type]
        self.side = self.favoured
        self.phase = ACTIVATE

    def _use_ultime(self, side: int, char: int) -> None:
        self.ult_used[side] |= 1 << char
        self.ult_uses[side * CHARS + char] += 1

    def _spend(self, side: int, letter: str) -> None:
        self.spent[side] |= letter_bit(letter)
        self.runes_spent_count[side] += 1

    def _activation_choice(self, action: str) -> None:
        side = self.side
        unit = _ACTIVATE_UNIT.get(action)
        if unit is None:
            if action in ULTIME_ACTIONS:
                char = ULTIME_ACTIONS[action]
                self._use_ultime(side, char)
                self.effects[side] |= EFFECT_OF_CHAR[char]
                self._log(
                    f"{log.mage(side, char)} déclare {log.ULTIME_NAMES[char]} "
                    "jusqu'à la fin du tour."
                )
            else:  # rune U (R22)
                char = CHAR_OF_NAME[action.split()[2]]
                self._spend(side, RUNE_U)
                self.ult_used[side] &= ~(1 << char)
                self._log(
                    f"{SIDE_NAMES[side]} joue la rune U : {log.ULTIME_NAMES[char]} "
                    f"({log.mage(side, char)}) redevient disponible."
                )
            return
        self.unit = unit
        orders = self.orders[side]
        assert orders is not None
        order = orders[unit]
        self.trident = False
        self.shots_done = 0
        if unit == SHIP:
            if order == SHIP_AA:
                self.tasks = [(TASK_ADVANCE, 2)]
                self.phase = NEXT_TASK
            else:
                self.phase = SHIP_ORDER
        elif order == ADVANCE_ORDER:
            self.tasks = [(TASK_ADVANCE, 1)]
            self.phase = NEXT_TASK
        elif unit == UNIT_OF_CHAR[PLONGEUR] and not self.ult_used[side] >> PLONGEUR & 1:
            self.phase = TRIDENT
        else:
            self.tasks = [(TASK_SHOT, CHARS_OF_UNIT[unit][0])]
            self.phase = NEXT_TASK

    def _ship_order(self, action: str) -> None:
        orders = self.orders[self.side]
        assert orders is not None
        if action == FIRST_BARREUR:
            self.tasks = [(TASK_SHOT, BARREUR), (TASK_SHOT, LANCEUR)]
        elif action == FIRST_LANCEUR:
            self.tasks = [(TASK_SHOT, LANCEUR), (TASK_SHOT, BARREUR)]
        else:
            shooter = BARREUR if orders[SHIP] == SHIP_AT_B else LANCEUR
            move, shot = (TASK_ADVANCE, 1), (TASK_SHOT, shooter)
            self.tasks = [move, shot] if action == MOVE_FIRST else [shot, move]
        self.phase = NEXT_TASK

    def _next_task(self) -> None:
        if not self.tasks:
            self.phase = END_ACTIVATION
            return
        kind, arg = self.tasks[0]
        if kind == TASK_ADVANCE:
            self.phase = ADVANCE
        else:
            self.tasks.pop(0)
            self.shot = Shot(self.side, arg)
            self.phase = PRE_SHOT

    def _advance_choice(self, action: str) -> None:
        side, unit = self.side, self.unit
        cells = self.tasks.pop(0)[1]
        who = log.unit(side, unit)
        if action != "advance":
            letter = action[-1]
            self._spend(side, letter)
            cells += 1
            who += f" joue la rune {letter} (Mouvement) et"
        before = self.rows[side * UNITS + unit]
        moved = self.advance_unit(side, unit, cells)
        after = before + moved * FORWARD[side]
        if moved == cells:
            self._log(f"{who} avance de {log.cells(moved)} (ligne {after}).")
        elif moved:
            self._log(f"{who} avance de {log.cells(moved)} sur {cells} (ligne {after}), bloqué.")
        else:
            self._log(f"{who} est bloqué et reste ligne {before}.")
        self.phase = NEXT_TASK

    # --- movement (R10–R11) --------------------------------------------------------------
    def advance_unit(self, side: int, unit: int, cells: int) -> int:
        """R10: step by step towards the enemy beach; a blocked step ends the move."""
        index = side * UNITS + unit
        row = self.rows[index]
        enemy = self.rows[(1 - side) * UNITS + unit]
        step = FORWARD[side]
        last = ENEMY_LAST_ROW[side]
        moved = 0
        while moved < cells and row != last and row + step != enemy:
            row += step
            moved += 1
        self.rows[index] = row
        return moved

    def room_ahead(self, side: int, unit: int) -> int:
        """Free cells ahead of a unit before it meets the enemy unit or the last row."""
        row = self.rows[side * UNITS + unit]
        enemy = self.rows[(1 - side) * UNITS + unit]
        if side == 0:
            return min(enemy - row - 1, 8 - row)
        return min(row - enemy - 1, row - 1)

    def push_unit(self, side: int, unit: int, cells: int) -> int:
        """R11: step by step towards the own beach, stopping at the own first row."""
        index = side * UNITS + unit
        row = self.rows[index]
        room = abs(row - OWN_FIRST_ROW[side])
        moved = min(cells, room)
        self.rows[index] = row - moved * FORWARD[side]
        return moved

    def gain_resilience(self, side: int, char: int) -> int:
        """R11: +1 per push effect, even when no cell could be moved; capped at 3."""
        index = side * CHARS + char
        if self.res[index] < 3:
            self.res[index] += 1
        return self.res[index]

    # --- weather, end of activation, end of turn -----------------------------------------
    def _weather(self, favoured: int) -> None:
        self.favoured = favoured
        if self.rules.weather == "bag":
            self.bag[favoured] -= 1
        self._log(f"la météo favorise {SIDE_NAMES[favoured]}.")
        self.side = 0
        self.phase = ORDERS

    def _end_activation(self) -> None:
        side = self.side
        self.activated[side] |= 1 << self.unit
        self.unit = -1
        self.trident = False
        self.shots_done = 0
        other = 1 - side
        if self.activated[other] != ALL_UNITS:  # R9: alternate while both have units
            self.side = other
            self.phase = ACTIVATE
        elif self.activated[side] != ALL_UNITS:
            self.phase = ACTIVATE
        else:
            self.phase = END_TURN

    def _end_turn(self) -> None:
        self.effects = [0, 0]
        self.activated = [0, 0]
        self.orders = [None, None]
        self.side = -1
        a, b = self.scores
        turn = self.turn
        if turn < 8 or turn == 9:
            self.turn += 1
            self.phase = START_TURN
            return
        if a != b:
            self._finish(0 if a > b else 1, "score")
            return
        if turn == 8:  # R25: two more turns at tier IV; R8: the bag is reshuffled whole
            self._log(f"égalité {a} à {b} : deux tours supplémentaires au palier IV.")
            if self.rules.weather == "bag":
                self.bag = [4, 4]
            self.turn = 9
            self.phase = START_TURN
            return
        halves = [self.mages_in_enemy_half(0), self.mages_in_enemy_half(1)]
        self._log(
            f"égalité {a} à {b} : mages dans la moitié adverse, A {halves[0]}, B {halves[1]}."
        )
        if halves[0] != halves[1]:
            self._finish(0 if halves[0] > halves[1] else 1, "half")
        else:
            self._finish(2, "draw")

    def mages_in_enemy_half(self, side: int) -> int:
        """R25: mages in the enemy half; both central mages count."""
        return sum(
            len(CHARS_OF_UNIT[unit])
            for unit in range(UNITS)
            if in_enemy_half(side, self.rows[side * UNITS + unit])
        )

    def _finish(self, winner: int, reason: str) -> None:
        self.winner = winner
        self.reason = reason
        a, b = self.scores
        if winner == 2:
            self.events.append(f"Fin du match — match nul, {a} à {b}.")
        else:
            how = " au nombre de mages dans la moitié adverse" if reason == "half" else ""
            self.events.append(f"Fin du match — {SIDE_NAMES[winner]} gagne{how}, {a} à {b}.")
        self.phase = END

    def phase_name(self) -> str:
        return PHASE_NAMES[self.phase]

    def illegal(self, action: object, why: str) -> IllegalAction:
        return IllegalAction(
            f"illegal action {action!r} at turn {self.turn}, phase {self.phase_name()}: {why}"
        )
