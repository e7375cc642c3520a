"""One shot's resolution (R16–R24): target, runes, rolls with Relance, prodiges, Rouleau and
Trident's extra shots. The outcome itself (compute, apply, describe) is
:mod:`akvo.match.outcome`; the roll arithmetic is :mod:`akvo.resolution`.

Order inside a resolution: optional Mouvement rune (the shooter advances 1 cell, R20) →
target (with Souffle portant, R24) → attacker's rune → defender's rune (R18) → attack roll
(chance) → Relance decision → defence or interception roll → outcome → prodige recoveries
(attacker's first, R23) → Rouleau (with a Mouvement rune under the variant
``rouleau_mouvement``, R20) → Trident's next shot.

Rune categories, each acting in one place: Mouvement (``legal_pre_shot`` /
``decide_pre_shot`` and ``legal_rouleau`` here, Avancer steps in :mod:`akvo.match.flow`),
Attaque / Défense / Confusion (``roll_dice`` and ``roll_target`` via :mod:`akvo.resolution`),
Relance (``legal_relance`` / ``decide_relance``), Ultime (the rune U,
:mod:`akvo.match.ultimes`).
"""

from __future__ import annotations

from typing import Final

from akvo.match import log
from akvo.match.actions import (
    HOLD,
    KEEP,
    MOVE_ACTIONS,
    NO_MOVE,
    NO_ROULEAU,
    NO_RUNE,
    NO_TARGET,
    PARSED,
    RECOVER_ACTIONS,
    REROLL_ACTIONS,
    ROULEAU_RUNE_ACTIONS,
    RUNE_ACTIONS,
    RUNE_LETTER,
    SHOOT_AGAIN,
    STOP,
    PlayRune,
    Reroll,
    ShootAt,
)
from akvo.match.actions import ROULEAU as ROULEAU_ACTION
from akvo.match.board import CHAR_NAMES, CHARS, CHEST, PLONGEUR, SURFEUR, UNIT_OF_CHAR
from akvo.match.core import TASK_SHOT, Roll, Shot, StateCore, rule_played
from akvo.match.flow import add_event, next_task, spend
from akvo.match.geometry import advance, interception_distance, room_ahead, shot_distance, targets
from akvo.match.outcome import resolve
from akvo.match.phases import (
    AFTER_SHOT,
    ATTACK_RUNE,
    DEFENCE_RUNE,
    PRODIGE,
    RELANCE,
    REROLL,
    ROLL,
    ROULEAU,
    TARGET,
    TRIDENT_AGAIN,
)
from akvo.match.roster import (
    ATTAQUE,
    BONUS,
    CONFUSION,
    DEFENSE,
    MOUVEMENT,
    RUNE_U,
    letter_bit,
)
from akvo.match.roster import RELANCE as RELANCE_CAT
from akvo.match.ultimes import (
    ROULEAU_CELLS,
    declare_rouleau,
    egide_on,
    rouleau_mouvement,
    souffle_available,
    tourbillon_on,
    trident_continues,
    use_souffle,
    vigie_on,
)
from akvo.resolution import (
    MAX_RANGE,
    THRESHOLDS,
    attack_dice,
    attack_modifier,
    defence_dice,
    defence_modifier,
    is_critical,
    is_prodige,
    is_success,
    prodige_readings_part,
)
from akvo.rules import LETTERS, TIE_BREAK_TURNS, tier_for_turn

TIER_OF_TURN: Final = (0, *(tier_for_turn(t) for t in range(1, TIE_BREAK_TURNS[-1] + 1)))

_SHOOT: Final = (*tuple(f"shoot {name}" for name in CHAR_NAMES), "shoot chest")
_SHOOT_SOUFFLE: Final = tuple(f"{action} souffle" for action in _SHOOT)
_U_BIT: Final = letter_bit(RUNE_U)
_ALL_LETTERS: Final = tuple((letter, letter_bit(letter)) for letter in LETTERS)
_MOUVEMENT_MASK: Final = 1 << MOUVEMENT
_ATTACK_MASK: Final = 1 << ATTAQUE | 1 << RELANCE_CAT
_DEFENCE_MASK: Final = 1 << DEFENSE | 1 << RELANCE_CAT
_CONFUSION_MASK: Final = 1 << CONFUSION
# The single choice of a phase where there is nothing to choose (played by engine.settle).
_NO_MOVE_ONLY: Final[tuple[str, ...]] = (NO_MOVE,)
_NO_RUNE_ONLY: Final[tuple[str, ...]] = (NO_RUNE,)
_NO_TARGET_ONLY: Final[tuple[str, ...]] = (NO_TARGET,)
_ROULEAU_CHOICES: Final[tuple[str, ...]] = (ROULEAU_ACTION, NO_ROULEAU)
_ROULEAU_ONLY: Final[tuple[str, ...]] = (ROULEAU_ACTION,)


def current_shot(s: StateCore) -> Shot:
    shot = s.shot
    assert shot is not None
    return shot


def can_intercept(shot: Shot) -> bool:
    """R17: a mage shot is always defended; a chest shot only within interception range."""
    return shot.target != CHEST or shot.idist <= MAX_RANGE


# --- players ---------------------------------------------------------------------------------
def shooter_side(s: StateCore) -> int:
    return current_shot(s).side


def defender_side(s: StateCore) -> int:
    return 1 - current_shot(s).side


def roller_side(s: StateCore) -> int:
    shot = s.shot
    assert shot is not None
    return shot.side if shot.stage == 0 else 1 - shot.side


def prodige_side(s: StateCore) -> int:
    return current_shot(s).pending[0][0]


def activating_side(s: StateCore) -> int:
    return s.side


# --- Mouvement rune before the shot ----------------------------------------------------------
def legal_pre_shot(s: StateCore) -> tuple[str, ...]:
    """The Mouvement runes the shooter may play first (R20: only if its unit can move);
    ``(no move,)`` alone when there is none."""
    shot = s.shot
    assert shot is not None
    side = shot.side
    if not room_ahead(s.rows, side, UNIT_OF_CHAR[shot.shooter]):
        return _NO_MOVE_ONLY
    return s.rosters[side].choices(
        s.spent[side], (shot.shooter, BONUS), _MOUVEMENT_MASK, NO_MOVE, MOVE_ACTIONS
    )


def decide_pre_shot(s: StateCore, action: str) -> None:
    shot = s.shot
    assert shot is not None
    rune = PARSED[action] if action != NO_MOVE else None  # no move: the usual, forced case
    if isinstance(rune, PlayRune):
        side = shot.side
        spend(s, side, rune.letter)
        rule_played(s, "mouvement_rune")  # R18: the side's rune, or one beside it
        if s.rules.mouvement_rune == "is_the_rune":  # R18: the side's one rune
            shot.att_rune, shot.att_cat = rune.letter, MOUVEMENT
        moved = advance(s.rows, side, UNIT_OF_CHAR[shot.shooter], 1)
        if s.log:
            how = "avance de 1 case" if moved else "ne peut pas avancer"
            played = log.rune_played(rune.letter, MOUVEMENT)
            add_event(s, f"{log.mage(side, shot.shooter)} {played} et {how}.")
    s.phase = TARGET


# --- target ----------------------------------------------------------------------------------
def legal_target(s: StateCore) -> tuple[str, ...]:
    """The targets in range, then those only Souffle portant brings in range (R24); or
    those and ``hold`` when only Souffle portant makes a shot possible (it is never forced);
    or ``(no target,)`` alone."""
    shot = s.shot
    assert shot is not None
    side = shot.side
    plain, boosted = targets(s.rows, side, shot.shooter, souffle_available(s, side), s.trident)
    if plain:
        if not boosted:  # the usual case: one tuple, built in one pass
            return tuple([_SHOOT[t] for t in plain])
        return (*[_SHOOT[t] for t in plain], *[_SHOOT_SOUFFLE[t] for t in boosted])
    if boosted:
        return (*[_SHOOT_SOUFFLE[t] for t in boosted], HOLD)
    return _NO_TARGET_ONLY


def drop_shot(s: StateCore) -> None:
    s.shot = None
    s.trident = False
    next_task(s)


def decide_target(s: StateCore, action: str) -> None:
    shot = s.shot
    assert shot is not None
    choice = PARSED[action]
    if not isinstance(choice, ShootAt):  # hold, or no target at all
        if s.log:
            why = "renonce à tirer" if action == HOLD else "n'a aucune cible à portée"
            add_event(s, f"{log.mage(shot.side, shot.shooter)} {why}.")
        drop_shot(s)
        return
    side, shooter = shot.side, shot.shooter
    target = choice.target
    distance = shot_distance(s.rows, side, shooter, target)
    if target == CHEST:
        shot.defender = shooter  # the enemy mage of the shooter's lane (R17)
        shot.idist = interception_distance(s.rows, side, shooter)
    else:
        shot.defender = target
    if choice.souffle:
        distance = use_souffle(s, shot, distance)
    shot.target = target
    shot.distance = distance
    s.shots_done += 1
    s.phase = ATTACK_RUNE


# --- runes of the resolution (R18, R20) ------------------------------------------------------
def legal_attack_rune(s: StateCore) -> tuple[str, ...]:
    """The attacker's runes (R18, R20); ``(no rune,)`` alone when it has none to play."""
    shot = s.shot
    assert shot is not None
    if shot.att_cat >= 0:  # R18: the Mouvement rune was this side's rune
        return _NO_RUNE_ONLY
    mask = _ATTACK_MASK | _CONFUSION_MASK if can_intercept(shot) else _ATTACK_MASK
    side = shot.side
    return s.rosters[side].choices(
        s.spent[side], (shot.shooter, BONUS), mask, NO_RUNE, RUNE_ACTIONS
    )


def legal_defence_rune(s: StateCore) -> tuple[str, ...]:
    """The defender's runes (R18, R20); ``(no rune,)`` alone when it has none to play."""
    shot = s.shot
    assert shot is not None
    mask = _CONFUSION_MASK | _DEFENCE_MASK if can_intercept(shot) else _CONFUSION_MASK
    other = 1 - shot.side
    return s.rosters[other].choices(
        s.spent[other], (shot.defender, BONUS), mask, NO_RUNE, RUNE_ACTIONS
    )


def _play_rune(s: StateCore, shot: Shot, action: str, attacking: bool) -> None:
    rune = PARSED[action]
    if not isinstance(rune, PlayRune):
        return
    letter = rune.letter
    rune_side = shot.side if attacking else 1 - shot.side
    category = s.rosters[rune_side].category_of[letter]
    spend(s, rune_side, letter)
    if attacking:
        shot.att_rune, shot.att_cat = letter, category
    else:
        shot.def_rune, shot.def_cat = letter, category
    if s.log:
        player = shot.shooter if attacking else shot.defender
        add_event(
            s,
            f"{log.mage(rune_side, player)} {log.rune_played(letter, category)}.",
        )


def decide_attack_rune(s: StateCore, action: str) -> None:
    if action != NO_RUNE:  # the usual, often forced, case: nothing to play
        _play_rune(s, current_shot(s), action, True)
    s.phase = DEFENCE_RUNE


def decide_defence_rune(s: StateCore, action: str) -> None:
    if action != NO_RUNE:
        _play_rune(s, current_shot(s), action, False)
    s.phase = ROLL


# --- rolls (R12–R15) -------------------------------------------------------------------------
def roll_dice(s: StateCore, stage: int = -1) -> int:
    """Dice of the roll being made (R14: Confusion and Tourbillon each remove one), or of
    ``stage``'s roll if given (0 the shooter's, 1 the defender's): a roll read ahead."""
    shot = s.shot
    assert shot is not None
    side = shot.side
    if (shot.stage if stage < 0 else stage) == 0:
        return attack_dice(shot.def_cat == CONFUSION, tourbillon_on(s, 1 - side, shot.target))
    return defence_dice(shot.att_cat == CONFUSION, tourbillon_on(s, side, shot.shooter))


def roll_target(s: StateCore, stage: int = -1) -> tuple[int, int]:
    """(modifier, threshold) of the roll being made, or of ``stage``'s roll if given (as
    :func:`roll_dice`): what the dice must reach."""
    shot = s.shot
    assert shot is not None
    side = shot.side
    tier = TIER_OF_TURN[s.turn]
    if (shot.stage if stage < 0 else stage) == 0:
        modifier = attack_modifier(shot.att_cat == ATTAQUE, vigie_on(s, side))
        return modifier, THRESHOLDS[tier][shot.distance][0]
    other = 1 - side
    distance = shot.distance if shot.target != CHEST else shot.idist
    modifier = defence_modifier(
        shot.def_cat == DEFENSE, egide_on(s, other), s.res[other * CHARS + shot.defender]
    )
    return modifier, THRESHOLDS[tier][distance][1]


def rolled(s: StateCore, faces: list[int]) -> None:
    """A roll's dice came (the ROLL chance node)."""
    shot = s.shot
    assert shot is not None
    shot.dice = faces
    roller_cat = shot.att_cat if shot.stage == 0 else shot.def_cat
    if roller_cat == RELANCE_CAT:
        shot.relanced = 0
        s.phase = RELANCE
    else:
        evaluate_roll(s, shot)


def rerolled(s: StateCore, face: int) -> None:
    """The rerolled die came (the REROLL chance node)."""
    shot = s.shot
    assert shot is not None
    if s.log:
        old = shot.dice[shot.relanced - 1]
        roller_side = shot.side if shot.stage == 0 else 1 - shot.side
        roller = shot.shooter if shot.stage == 0 else shot.defender
        add_event(s, f"{log.mage(roller_side, roller)} relance un dé : {old} devient {face}.")
    shot.dice[shot.relanced - 1] = face
    shot.relanced = -1
    evaluate_roll(s, shot)


def legal_relance(s: StateCore) -> tuple[str, ...]:
    return (KEEP, *REROLL_ACTIONS[: len(current_shot(s).dice)])


def decide_relance(s: StateCore, action: str) -> None:
    shot = s.shot
    assert shot is not None
    choice = PARSED[action]
    if isinstance(choice, Reroll):
        shot.relanced = choice.die
        s.phase = REROLL
    else:
        shot.relanced = -1
        evaluate_roll(s, shot)


def make_roll(s: StateCore, dice: list[int], modifier: int, threshold: int) -> Roll:
    total = sum(dice) + modifier
    if prodige_readings_part(dice):
        rule_played(s, "prodige")
    return Roll(
        dice,
        total,
        threshold,
        is_success(total, threshold),
        is_critical(total, threshold),
        is_prodige(dice, s.rules.prodige),
    )


def evaluate_roll(s: StateCore, shot: Shot) -> None:
    modifier, threshold = roll_target(s)
    roll = make_roll(s, shot.dice, modifier, threshold)
    if shot.stage == 0:
        shot.attack = roll
        if roll.prodige:
            shot.pending.append((shot.side, shot.shooter))
        if roll.success and can_intercept(shot):
            shot.stage = 1
            shot.dice = []
            shot.relanced = 0
            s.phase = ROLL
            return
    else:
        shot.defence = roll
        if roll.prodige:
            shot.pending.append((1 - shot.side, shot.defender))
    resolve(s, shot)
    s.phase = AFTER_SHOT


# --- after the outcome: prodiges (R23), Rouleau, Trident -------------------------------------
def after_shot(s: StateCore) -> None:
    shot = s.shot
    assert shot is not None
    while shot.pending:
        side, char = shot.pending[0]
        if s.spent[side] & ~_U_BIT:
            s.phase = PRODIGE
            return
        shot.pending.pop(0)
        if s.log:
            add_event(s, f"prodige : {log.mage(side, char)} n'a aucune rune à récupérer.")
    if shot.rouleau:
        s.phase = ROULEAU
        if len(rouleau_with_runes(s)) > 1:  # R20: a Mouvement rune could go with it
            rule_played(s, "rouleau_mouvement")
        return
    s.shot = None
    if trident_continues(s):
        s.phase = TRIDENT_AGAIN
    else:
        next_task(s)


def legal_prodige(s: StateCore) -> tuple[str, ...]:
    """R23: any spent rune of the side but the rune U."""
    spent = s.spent[current_shot(s).pending[0][0]] & ~_U_BIT
    return tuple(RECOVER_ACTIONS[letter] for letter, bit in _ALL_LETTERS if spent & bit)


def decide_prodige(s: StateCore, action: str) -> None:
    shot = s.shot
    assert shot is not None
    side, char = shot.pending.pop(0)
    rune = PARSED[action]
    assert isinstance(rune, PlayRune)
    s.spent[side] &= ~letter_bit(rune.letter)
    if s.log:
        add_event(s, f"prodige : {log.mage(side, char)} récupère la rune {rune.letter}.")
    s.phase = AFTER_SHOT


def rouleau_with_runes(s: StateCore) -> tuple[str, ...]:
    """``rouleau`` then Rouleau with each Mouvement rune of the Surfeur or the bonus, where
    the second cell can be moved (whatever the variant: the lab counts these moments)."""
    side = current_shot(s).side
    if room_ahead(s.rows, side, UNIT_OF_CHAR[SURFEUR]) <= ROULEAU_CELLS:
        return _ROULEAU_ONLY
    return s.rosters[side].choices(
        s.spent[side], (SURFEUR, BONUS), _MOUVEMENT_MASK, ROULEAU_ACTION, ROULEAU_RUNE_ACTIONS
    )


def legal_rouleau(s: StateCore) -> tuple[str, ...]:
    """Rouleau or not; with the variant ``rouleau_mouvement`` (R20), also Rouleau with a
    Mouvement rune (:func:`rouleau_with_runes`)."""
    if not rouleau_mouvement(s.rules):
        return _ROULEAU_CHOICES
    return (*rouleau_with_runes(s), NO_ROULEAU)


def decide_rouleau(s: StateCore, action: str) -> None:
    shot = s.shot
    assert shot is not None
    shot.rouleau = False
    if action == ROULEAU_ACTION:
        declare_rouleau(s, shot.side)
    elif action != NO_ROULEAU:
        letter = RUNE_LETTER[action]
        spend(s, shot.side, letter)
        declare_rouleau(s, shot.side, letter)
    s.phase = AFTER_SHOT


def legal_trident_again(s: StateCore) -> tuple[str, ...]:
    return (SHOOT_AGAIN, STOP)


def decide_trident_again(s: StateCore, action: str) -> None:
    if action == SHOOT_AGAIN:
        s.tasks.insert(0, (TASK_SHOT, PLONGEUR))
    else:
        s.trident = False
    next_task(s)
