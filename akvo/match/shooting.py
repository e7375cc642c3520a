"""One shot's resolution (R16–R24): target, runes, rolls with Relance, outcome, prodiges,
Rouleau and Trident's extra shots.

Order inside a resolution: optional Mouvement rune (the shooter advances 1 cell, R20) →
target (with Souffle portant, R24) → attacker's rune → defender's rune (R18) → attack roll
(chance) → Relance decision → defence or interception roll → outcome → prodige recoveries
(attacker's first, R23) → Rouleau → Trident's next shot.
"""

from __future__ import annotations

from akvo.match import log
from akvo.match.actions import (
    HOLD,
    KEEP,
    MOVE_ACTIONS,
    NO_MOVE,
    NO_ROULEAU,
    NO_RUNE,
    RECOVER_ACTIONS,
    REROLL_ACTIONS,
    RUNE_ACTIONS,
    SHOOT_AGAIN,
    STOP,
)
from akvo.match.actions import (
    ROULEAU as ROULEAU_ACTION,
)
from akvo.match.board import (
    CHAR_NAMES,
    CHARS,
    CHEST,
    KITESURFEUR,
    MAX_RANGE,
    PEDALAIR,
    PLONGEUR,
    SURFEUR,
    UNIT_OF_CHAR,
    UNITS,
)
from akvo.match.core import (
    AFTER_SHOT,
    ATTACK_RUNE,
    DEFENCE_RUNE,
    EFFECT_EGIDE,
    EFFECT_TOURBILLON,
    EFFECT_VIGIE,
    NEXT_TASK,
    PRE_SHOT,
    PRODIGE,
    RELANCE,
    REROLL,
    ROLL,
    ROULEAU,
    TARGET,
    TASK_SHOT,
    TRIDENT_MORE,
    Roll,
    Shot,
)
from akvo.match.flow import TurnFlow
from akvo.match.roster import ATTAQUE, BONUS, CATEGORY_LABELS, CONFUSION, DEFENSE, MOUVEMENT, RUNE_U
from akvo.match.roster import RELANCE as RELANCE_CAT
from akvo.rules import CRITICAL_MARGIN, MAX_RESILIENCE, thresholds

_SHOOT = (*tuple(f"shoot {name}" for name in CHAR_NAMES), "shoot chest")
_SHOOT_SOUFFLE = tuple(f"{action} souffle" for action in _SHOOT)
_TARGET_OF = {name: char for char, name in enumerate(CHAR_NAMES)} | {"chest": CHEST}
_U_BIT = 1 << (ord(RUNE_U) - 65)
_ALL_LETTERS = tuple((chr(65 + i), 1 << i) for i in range(26))


class Shooting(TurnFlow):
    """Shot resolution mixin."""

    __slots__ = ()

    def _current_shot(self) -> Shot:
        shot = self.shot
        assert shot is not None
        return shot

    def _shot_player(self) -> int:
        phase = self.phase
        if phase == TRIDENT_MORE:
            return self.side
        shot = self._current_shot()
        if phase == DEFENCE_RUNE:
            return 1 - shot.side
        if phase == RELANCE:
            return shot.side if shot.stage == 0 else 1 - shot.side
        if phase == PRODIGE:
            return shot.pending[0][0]
        return shot.side

    def _position(self, side: int, char: int) -> int:
        return self.rows[side * UNITS + UNIT_OF_CHAR[char]]

    # --- legal actions ---------------------------------------------------------------------
    def _shot_legal(self) -> tuple[str, ...]:
        phase = self.phase
        if phase == TRIDENT_MORE:
            return (SHOOT_AGAIN, STOP)
        if phase == ROULEAU:
            return (ROULEAU_ACTION, NO_ROULEAU)
        shot = self._current_shot()
        side = shot.side
        if phase == PRE_SHOT:
            if not self.room_ahead(side, UNIT_OF_CHAR[shot.shooter]):
                return (NO_MOVE,)  # R20: a blocked unit cannot use a Mouvement rune
            letters = self.rosters[side].playable(
                self.spent[side], (shot.shooter, BONUS), 1 << MOUVEMENT
            )
            return (NO_MOVE, *(MOVE_ACTIONS[x] for x in letters))
        if phase == TARGET:
            return self._target_legal(shot)
        if phase == ATTACK_RUNE:
            if shot.att_cat >= 0:  # R18: the Mouvement rune was this side's rune
                return (NO_RUNE,)
            mask = 1 << ATTAQUE | 1 << RELANCE_CAT
            if shot.target != CHEST or shot.idist <= MAX_RANGE:
                mask |= 1 << CONFUSION
            letters = self.rosters[side].playable(self.spent[side], (shot.shooter, BONUS), mask)
            return (NO_RUNE, *(RUNE_ACTIONS[x] for x in letters))
        if phase == DEFENCE_RUNE:
            mask = 1 << CONFUSION
            if shot.target != CHEST or shot.idist <= MAX_RANGE:
                mask |= 1 << DEFENSE | 1 << RELANCE_CAT
            other = 1 - side
            letters = self.rosters[other].playable(self.spent[other], (shot.defender, BONUS), mask)
            return (NO_RUNE, *(RUNE_ACTIONS[x] for x in letters))
        if phase == RELANCE:
            return (KEEP, *REROLL_ACTIONS[: len(shot.dice)])
        # PRODIGE (R23): any spent rune of the side but the rune U.
        prodige_side = shot.pending[0][0]
        spent = self.spent[prodige_side] & ~_U_BIT
        return tuple(RECOVER_ACTIONS[letter] for letter, bit in _ALL_LETTERS if spent & bit)

    def _target_legal(self, shot: Shot) -> tuple[str, ...]:
        side, shooter = shot.side, shot.shooter
        row = self._position(side, shooter)
        lane = shooter + 1
        souffle = not self.ult_used[side] & 1 << PEDALAIR
        enemy = (1 - side) * UNITS
        rows = self.rows
        plain: list[str] = []
        boosted: list[str] = []
        for char in range(CHARS):
            distance = abs(row - rows[enemy + UNIT_OF_CHAR[char]]) + abs(lane - char - 1)
            if distance <= MAX_RANGE:
                plain.append(_SHOOT[char])
            if souffle and 2 <= distance <= MAX_RANGE + 2:  # only where it shortens the shot
                boosted.append(_SHOOT_SOUFFLE[char])
        if not self.trident:
            distance = 9 - row if side == 0 else row
            if distance <= MAX_RANGE:
                plain.append(_SHOOT[CHEST])
            if souffle and 2 <= distance <= MAX_RANGE + 2:
                boosted.append(_SHOOT_SOUFFLE[CHEST])
        if plain:
            return (*plain, *boosted)
        if boosted:  # a shot only Souffle portant makes possible never forces the Ultime
            return (*boosted, HOLD)
        self._log(f"{log.mage(side, shooter)} n'a aucune cible à portée.")
        self._drop_shot()
        return ()

    def _drop_shot(self) -> None:
        self.shot = None
        self.trident = False
        self.phase = NEXT_TASK

    # --- decisions -----------------------------------------------------------------------
    def _shot_decide(self, action: str) -> None:
        phase = self.phase
        if phase == TRIDENT_MORE:
            if action == SHOOT_AGAIN:
                self.tasks.insert(0, (TASK_SHOT, PLONGEUR))
            else:
                self.trident = False
            self.phase = NEXT_TASK
            return
        shot = self._current_shot()
        side = shot.side
        if phase == PRE_SHOT:
            if action != NO_MOVE:
                letter = action[-1]
                self._spend(side, letter)
                shot.att_rune, shot.att_cat = letter, MOUVEMENT
                moved = self.advance_unit(side, UNIT_OF_CHAR[shot.shooter], 1)
                how = "avance de 1 case" if moved else "ne peut pas avancer"
                self._log(
                    f"{log.mage(side, shot.shooter)} joue la rune {letter} (Mouvement) et {how}."
                )
            self.phase = TARGET
        elif phase == TARGET:
            self._choose_target(shot, action)
        elif phase in (ATTACK_RUNE, DEFENCE_RUNE):
            if action != NO_RUNE:
                letter = action[-1]
                rune_side = side if phase == ATTACK_RUNE else 1 - side
                category = self.rosters[rune_side].category_of[letter]
                self._spend(rune_side, letter)
                player = shot.shooter if phase == ATTACK_RUNE else shot.defender
                if phase == ATTACK_RUNE:
                    shot.att_rune, shot.att_cat = letter, category
                else:
                    shot.def_rune, shot.def_cat = letter, category
                self._log(
                    f"{log.mage(rune_side, player)} joue la rune {letter} "
                    f"({CATEGORY_LABELS[category]})."
                )
            self.phase = DEFENCE_RUNE if phase == ATTACK_RUNE else ROLL
        elif phase == RELANCE:
            if action == KEEP:
                shot.relanced = -1
                self._evaluate_roll(shot)
            else:
                shot.relanced = int(action.split()[1])
                self.phase = REROLL
        elif phase == PRODIGE:
            prodige_side, char = shot.pending.pop(0)
            letter = action[-1]
            self.spent[prodige_side] &= ~(1 << (ord(letter) - 65))
            self._log(f"prodige : {log.mage(prodige_side, char)} récupère la rune {letter}.")
            self.phase = AFTER_SHOT
        elif phase == ROULEAU:
            shot.rouleau = False
            if action == ROULEAU_ACTION:
                self._use_ultime(side, SURFEUR)
                moved = self.advance_unit(side, UNIT_OF_CHAR[SURFEUR], 1)
                how = "avance de 1 case" if moved else "ne peut pas avancer"
                self._log(f"{log.mage(side, SURFEUR)} déclare Rouleau et {how}.")
            self.phase = AFTER_SHOT

    def _choose_target(self, shot: Shot, action: str) -> None:
        if action == HOLD:
            self._log(f"{log.mage(shot.side, shot.shooter)} renonce à tirer.")
            self._drop_shot()
            return
        parts = action.split()
        side, shooter = shot.side, shot.shooter
        target = _TARGET_OF[parts[1]]
        row = self._position(side, shooter)
        if target == CHEST:
            distance = 9 - row if side == 0 else row
            shot.defender = shooter  # the enemy mage of the shooter's lane (R17)
            shot.idist = abs(row - self._position(1 - side, shooter))  # R6, same lane
        else:
            enemy_row = self._position(1 - side, target)
            distance = abs(row - enemy_row) + abs(shooter - target)
            shot.defender = target
        if len(parts) == 3:  # Souffle portant (R24): −2, minimum 1
            self._use_ultime(side, PEDALAIR)
            distance = max(1, distance - 2)
            shot.souffle = True
            self._log(
                f"{log.mage(side, PEDALAIR)} déclare Souffle portant : distance de tir {distance}."
            )
        shot.target = target
        shot.distance = distance
        self.shots_done += 1
        self.phase = ATTACK_RUNE

    # --- rolls -----------------------------------------------------------------------------
    def _roll_dice_count(self) -> int:
        """R14: Confusion and Tourbillon each remove a die; at least 1 die."""
        shot = self._current_shot()
        side = shot.side
        if shot.stage == 0:
            dice = 4 - (shot.def_cat == CONFUSION)
            if shot.target == KITESURFEUR and self.effects[1 - side] & EFFECT_TOURBILLON:
                dice -= 1
        else:
            dice = 4 - (shot.att_cat == CONFUSION)
            if shot.shooter == KITESURFEUR and self.effects[side] & EFFECT_TOURBILLON:
                dice -= 1
        return dice if dice > 1 else 1

    def _shot_chance(self, faces: list[int]) -> None:
        shot = self._current_shot()
        if self.phase == REROLL:
            old = shot.dice[shot.relanced - 1]
            roller_side = shot.side if shot.stage == 0 else 1 - shot.side
            roller = shot.shooter if shot.stage == 0 else shot.defender
            self._log(f"{log.mage(roller_side, roller)} relance un dé : {old} devient {faces[0]}.")
            shot.dice[shot.relanced - 1] = faces[0]
            shot.relanced = -1
            self._evaluate_roll(shot)
            return
        shot.dice = faces
        roller_cat = shot.att_cat if shot.stage == 0 else shot.def_cat
        if roller_cat == RELANCE_CAT:
            shot.relanced = 0
            self.phase = RELANCE
        else:
            self._evaluate_roll(shot)

    def _is_prodige(self, dice: list[int]) -> bool:
        """R13: four equal dice (default), or all dice equal for any count ≥ 2 (variant)."""
        count = len(dice)
        if count != 4 and (self.rules.prodige == "four" or count < 2):
            return False
        return dice.count(dice[0]) == count

    def roll_target(self) -> tuple[int, int]:
        """(modifier, threshold) of the roll being made: what the dice must reach."""
        shot = self._current_shot()
        side = shot.side
        if shot.stage == 0:
            threshold = thresholds(self.tier, shot.distance).attack
            modifier = 2 * (shot.att_cat == ATTAQUE) + (
                1 if self.effects[side] & EFFECT_VIGIE else 0
            )
            return modifier, threshold
        other = 1 - side
        distance = shot.distance if shot.target != CHEST else shot.idist
        modifier = (
            self.res[other * CHARS + shot.defender]
            + 2 * (shot.def_cat == DEFENSE)
            + (1 if self.effects[other] & EFFECT_EGIDE else 0)
        )
        return modifier, thresholds(self.tier, distance).defence

    def _evaluate_roll(self, shot: Shot) -> None:
        side = shot.side
        modifier, threshold = self.roll_target()
        roll = self._make_roll(shot.dice, modifier, threshold)
        if shot.stage == 0:
            shot.attack = roll
            if roll.prodige:
                shot.pending.append((side, shot.shooter))
            if not roll.success:
                self._resolve(shot, "miss")
            elif shot.target == CHEST and shot.idist > MAX_RANGE:
                self._resolve(shot, "score")
            else:
                shot.stage = 1
                shot.dice = []
                shot.relanced = 0
                self.phase = ROLL
            return
        shot.defence = roll
        if roll.prodige:
            shot.pending.append((1 - side, shot.defender))
        if roll.critical:
            self._resolve(shot, "defence_critical")
        elif roll.success:
            self._resolve(shot, "defended")
        else:
            self._resolve(shot, "hit")

    def _make_roll(self, dice: list[int], modifier: int, threshold: int) -> Roll:
        total = sum(dice) + modifier
        return Roll(
            dice,
            total,
            threshold,
            total >= threshold,
            total >= threshold + CRITICAL_MARGIN,
            self._is_prodige(dice),
        )

    # --- outcome ---------------------------------------------------------------------------
    def _resolve(self, shot: Shot, result: str) -> None:
        side, shooter, target = shot.side, shot.shooter, shot.target
        attack = shot.attack
        assert attack is not None
        turn_prefix = f"{log.mage(side, shooter)} tire sur "
        if target == CHEST:
            what = f"le coffre du couloir {shooter + 1}"
        else:
            what = log.mage(1 - side, target)
        text = (
            f"{turn_prefix}{what} (distance {shot.distance}) : "
            f"{attack.total} contre {attack.threshold}"
        )
        if not attack.success:
            text += ", raté."
            shot.outcome = "miss"
        else:
            text += ", critique !" if attack.critical else ", réussi."
        if attack.prodige:
            text += " Prodige !"
        if result == "miss":
            self._log(text)
            self.last_outcome = "miss"
            self.phase = AFTER_SHOT
            return
        defence = shot.defence
        if target == CHEST:
            points = 2 if attack.critical else 1
            if result == "score":
                if defence is None:
                    text += " Interception impossible"
                else:
                    text += f" Interception ratée ({defence.total} contre {defence.threshold})"
                self.scores[side] += points
                text += f" : {log.points(points)}."
                shot.outcome = f"score_{points}"
            elif result == "hit":  # a failed interception is a capture
                assert defence is not None
                self.scores[side] += points
                text += (
                    f" Interception ratée ({defence.total} contre {defence.threshold})"
                    f" : {log.points(points)}."
                )
                shot.outcome = f"score_{points}"
            else:
                assert defence is not None
                text += (
                    f" Interception réussie par {log.mage(1 - side, shooter)} "
                    f"({defence.total} contre {defence.threshold})"
                )
                if result == "defence_critical":
                    text += ", critique : " + self._push_text(side, shooter, 1)
                    shot.outcome = "interception_critical"
                else:
                    text += "."
                    shot.outcome = "intercepted"
        else:
            assert defence is not None
            defence_text = f" Défense {defence.total} contre {defence.threshold}"
            if result == "defence_critical":
                text += (
                    defence_text
                    + ", critique : le tir est annulé et "
                    + self._push_text(side, shooter, 1)
                )
                shot.outcome = "defence_critical"
            elif result == "defended":
                text += defence_text + ", réussie : le tir est annulé."
                shot.outcome = "defended"
            else:
                cells = 2 if attack.critical else 1
                before = self._position(1 - side, target)
                text += defence_text + ", ratée : " + self._push_text(1 - side, target, cells)
                moved = abs(self._position(1 - side, target) - before)
                shot.outcome = f"push_{cells}"
                if (
                    shooter == SURFEUR
                    and target == SURFEUR
                    and moved >= 1
                    and not self.ult_used[side] & 1 << SURFEUR
                ):
                    shot.rouleau = True
        if defence is not None and defence.prodige:
            text += " Prodige en défense !"
        self._log(text)
        self.last_outcome = shot.outcome
        self.phase = AFTER_SHOT

    def _push_text(self, side: int, char: int, cells: int) -> str:
        """Push a mage (its unit moves, it alone gains Résilience) and describe it."""
        moved = self.push_unit(side, UNIT_OF_CHAR[char], cells)
        resilience = self.gain_resilience(side, char)
        who = log.mage(side, char)
        if moved == cells:
            how = f"recule de {log.cells(moved)}"
        elif moved:
            how = f"recule de {log.cells(moved)} sur {cells} (bord du plan d'eau)"
        else:
            how = "ne peut pas reculer (bord du plan d'eau)"
        capped = " (max)" if resilience == MAX_RESILIENCE else ""
        return f"{who} {how}, Résilience {resilience}{capped}."

    def _after_shot(self) -> None:
        shot = self._current_shot()
        while shot.pending:
            prodige_side, char = shot.pending[0]
            if self.spent[prodige_side] & ~_U_BIT:
                self.phase = PRODIGE
                return
            shot.pending.pop(0)
            self._log(f"prodige : {log.mage(prodige_side, char)} n'a aucune rune à récupérer.")
        if shot.rouleau:
            self.phase = ROULEAU
            return
        self.shot = None
        if self.trident and self.shots_done < 3:
            self.phase = TRIDENT_MORE
            return
        self.phase = NEXT_TASK
