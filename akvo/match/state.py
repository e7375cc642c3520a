"""The public match state: legal actions, chance outcomes, apply, copy, observation, JSON.

Style of OpenSpiel and python-chess: :meth:`MatchState.apply_action` changes the state in
place (fast, for simulations) and :meth:`MatchState.child` returns a changed copy. An
illegal action raises :class:`~akvo.errors.IllegalAction` before anything changes.

Readings beyond ``docs/rulings.md`` (the simplest reading players would expect):

- Orders are programmed A first, then B; each side's observation hides the other's
  orders until both are revealed (the secret, simultaneous programming of the rulebook).
- Decision nodes with a single legal action are played automatically: not recorded in
  :attr:`history`, and the choice itself is not logged (its effects are: a forced advance
  still logs the move); so is a weather draw when the bag holds one kind of token (the draw
  is logged).
- A Tirer activation must shoot if a target is in range; ``hold`` exists only when the sole
  targets need Souffle portant, so that an Ultime is never forced. With no target at all
  the shot is lost (a Trident sequence then ends).
- A Mouvement rune played before a shot is that side's one rune of the resolution (R18);
  variant ``mouvement_rune="separate"`` reads « pendant une même résolution » as starting
  with the target instead. The ship's Advance may use a Mouvement rune of either central
  mage or a bonus rune: one for an Avancer/Avancer order (variant
  ``ship_advance_runes="per_order"``: one per order).
  Per R20 a Mouvement rune is offered only when its extra cell can be moved.
- Souffle portant may serve any allied shot, the Pédalair's own and chest shots included;
  it is offered only where it shortens the shot (distance ≥ 2) and never changes an
  interception distance (R6).
- For a chest shot the defending side's rune is played by the enemy mage of the shooter's
  lane, even when interception is impossible (then only Confusion can act, R20).
- Égide and Vigie count for their own holder too (« tous les alliés »); Égide helps
  interceptions. Tourbillon also hits the defence against the Kitesurfeur's chest shots,
  never the attack on a chest it intercepts (as :mod:`akvo.shots` reads it).
- Prodige recoveries come right after the shot's outcome, the attacker's first, and are
  mandatory (any spent rune of the side but U); the rune just played may be taken back.
- Rouleau needs the enemy Surfeur to have actually moved at least 1 cell. Its advance
  takes no Mouvement rune (R20; variant ``rouleau_mouvement="plus_one"``: one, for 2
  cells, from the Surfeur or the bonus, offered where the second cell is free).
- The rune U is played when its side is about to activate a unit, like the Ultimes it
  restores, and only when its holder's Ultime is used; a bonus rune U may restore any
  ally's used Ultime.
- Trident is offered whenever the Plongeur activates with Tirer and its Ultime is free.
- An interception is always made when possible: the rulebook's « peut tenter » never
  makes declining better (a failed roll scores exactly like no roll).
- An Ultime restored by the rune U may be declared again in the turn its effect is still
  active; the effects do not stack (Égide twice is still +1).
- :func:`akvo.match.scenario.scenario` positions start with a full weather bag unless
  ``bag`` is given.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction
from typing import Any

from mypy_extensions import mypyc_attr

from akvo.config import DEFAULT_RULES, RulesConfig
from akvo.errors import IllegalAction, MatchError, excerpt, require_bool, require_instance
from akvo.match import engine, flow, shooting
from akvo.match.actions import WEATHER_SIDE, Action, orders_text, parse_action
from akvo.match.board import (
    CHAR_NAMES,
    CHARS,
    CHEST,
    PLONGEUR,
    SIDE_NAMES,
    UNIT_NAMES,
    UNITS,
)
from akvo.match.chance import (
    die_outcomes,
    parse_roll,
    roll_outcomes,
    sample_roll,
    sample_roll_entry,
)
from akvo.match.core import CHANCE, TERMINAL, StateCore
from akvo.match.geometry import mages_in_enemy_half
from akvo.match.log import mage
from akvo.match.log import unit as unit_label
from akvo.match.names import character_index, letter_index, side_index, unit_index
from akvo.match.phases import (
    ACTIVATE,
    ADVANCE,
    DEFENCE_RUNE,
    END,
    ORDERS,
    PRE_SHOT,
    PRODIGE,
    RELANCE,
    REROLL,
    ROLL,
    ROULEAU,
    SHIP_ORDER,
    TARGET,
    TRIDENT,
    TRIDENT_AGAIN,
    WEATHER,
    Phase,
)
from akvo.match.roster import letter_bit
from akvo.match.ultimes import ultime_free
from akvo.match.weather import sample_weather, weather_outcomes
from akvo.resolution import is_prodige
from akvo.rules import LETTERS, lighthouse_level, tier_for_turn
from akvo.teams import Team

__all__ = ["CHANCE", "TERMINAL", "MatchState", "new_match", "replay"]

_DECIDE = engine._DECIDE
_settle = engine.settle

#: The version of :meth:`MatchState.to_dict` and :meth:`MatchState.record` (key ``format``).
FORMAT_VERSION = 1

_SIDE_PROMPTS = {
    ORDERS: "programme ses ordres en secret",
    ACTIVATE: "active une unité (ou déclare un Ultime)",
    SHIP_ORDER: "choisit l'ordre de résolution du navire",
}
_SHOT_PROMPTS = {
    PRE_SHOT: "peut jouer une rune de Mouvement avant de tirer",
    TARGET: "choisit sa cible",
    ROULEAU: "peut déclarer Rouleau",
}


@mypyc_attr(allow_interpreted_subclasses=True)
class MatchState(StateCore):
    """A full Akvolition match (see the module docstring for the API and readings)."""

    __slots__ = ()

    # Public entry points type the arguments they check as ``object``: compiled by mypyc, a
    # parameter typed ``Team`` or ``int`` would raise a bare TypeError before the check that
    # names the problem (akvo.compiled).
    def __init__(
        self,
        team_a: object,
        team_b: object,
        rules: object = DEFAULT_RULES,
        log: object = True,
    ) -> None:
        """``team_a`` and ``team_b`` are :class:`~akvo.teams.Team` s, ``rules`` a
        :class:`~akvo.config.RulesConfig`, ``log`` a bool."""
        super().__init__(
            require_instance("team_a", team_a, Team, MatchError),
            require_instance("team_b", team_b, Team, MatchError),
            require_instance("rules", rules, RulesConfig, MatchError),
            require_bool("log", log, MatchError),
        )
        engine.settle(self)

    # --- queries ---------------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        """0 (A) or 1 (B) to decide, :data:`CHANCE` at a chance node, :data:`TERMINAL`."""
        return self.player

    @property
    def tier(self) -> int:
        return tier_for_turn(self.turn)

    @property
    def phase_enum(self) -> Phase:
        """The current :class:`~akvo.match.phases.Phase` (compare with it, not with names)."""
        return Phase(self.phase)

    def phase_name(self) -> str:
        return Phase(self.phase).label

    def is_terminal(self) -> bool:
        return self.phase == END

    def is_chance_node(self) -> bool:
        return self.player == CHANCE

    def legal_actions(self) -> tuple[str, ...]:
        """The legal decisions of :attr:`current_player` (empty at chance/terminal nodes)."""
        return self.legal

    def parsed_legal_actions(self) -> tuple[Action, ...]:
        """The legal decisions as value types (:mod:`akvo.match.actions`), in the same order."""
        return tuple(parse_action(a) for a in self.legal)

    def chance_outcomes(self) -> tuple[tuple[str, Fraction], ...]:
        """At a chance node: every outcome with its exact probability (they sum to 1)."""
        if self.player != CHANCE:
            return ()
        if self.phase == WEATHER:
            return weather_outcomes(self.rules, self.bag)
        if self.phase == ROLL:
            return roll_outcomes(shooting.roll_dice(self))
        return die_outcomes()

    def sample_chance(self, rng: object) -> str:
        """One chance outcome drawn from ``rng`` with the exact probabilities."""
        if not isinstance(rng, random.Random):
            raise MatchError(f"rng must be a random.Random, got {excerpt(rng)}")
        phase = self.phase
        if self.player != CHANCE:
            raise self.illegal("sample_chance", "no chance node here")
        if phase == ROLL:
            return sample_roll(rng, shooting.roll_dice(self))
        if phase == REROLL:
            return sample_roll(rng, 1)
        return sample_weather(self.rules, self.bag, rng)

    @property
    def result(self) -> str | None:
        """``"A"``, ``"B"`` or ``"draw"`` once the match is over."""
        if self.winner < 0:
            return None
        return "draw" if self.winner == 2 else SIDE_NAMES[self.winner]

    def roll_target(self) -> tuple[int, int]:
        """(modifier, threshold) of the roll being made or decided (roll, Relance, reroll)."""
        if self.phase not in (ROLL, RELANCE, REROLL) or self.shot is None:
            raise self.illegal("roll_target", "no roll is being made")
        return shooting.roll_target(self)

    def roll_dice(self) -> int:
        """How many dice the roll being made keeps (R14)."""
        if self.phase not in (ROLL, RELANCE, REROLL) or self.shot is None:
            raise self.illegal("roll_dice", "no roll is being made")
        return shooting.roll_dice(self)

    def _is_prodige(self, dice: list[int]) -> bool:
        return is_prodige(dice, self.rules.prodige)

    # --- typed accessors over the compact lists ---------------------------------------------
    def row(self, side: object, unit: object) -> int:
        """Row 1–8 of a unit (``unit`` an index 0–4, a unit name or a character name)."""
        return self.rows[side_index(side) * UNITS + unit_index(unit)]

    def resilience(self, side: object, character: object) -> int:
        """Résilience 0–3 of a mage (``character`` an index 0–5, a name or a Character)."""
        return self.res[side_index(side) * CHARS + character_index(character)]

    def is_spent(self, side: object, letter: object) -> bool:
        return bool(self.spent[side_index(side)] >> letter_index(letter) & 1)

    def ultime_free(self, side: object, character: object) -> bool:
        """Whether a mage's Ultime can still be used (not used, or restored by rune U)."""
        return ultime_free(self, side_index(side), character_index(character))

    def spent_letters(self, side: object) -> str:
        mask = self.spent[side_index(side)]
        return "".join(letter for letter in LETTERS if mask & letter_bit(letter))

    def mages_in_enemy_half(self, side: object) -> int:
        return mages_in_enemy_half(self.rows, side_index(side))

    # --- applying --------------------------------------------------------------------------
    def apply_action(self, action: object) -> None:
        """Apply a decision or chance outcome in place; illegal ones raise and change nothing."""
        if not isinstance(action, str):
            raise self.illegal(action, "an action is a string such as 'activate navire'")
        if type(action) is not str:  # a str subclass: its plain text (its methods may lie)
            action = str.__str__(action)
        player = self.player
        if player == TERMINAL:
            raise self.illegal(action, "the match is over")
        if player == CHANCE:
            self._apply_chance(action)
        elif action in self.legal:
            self.history.append(action)
            _DECIDE[self.phase](self, action)  # type: ignore[misc]
        else:
            shown = ", ".join(self.legal[:12]) + (", …" if len(self.legal) > 12 else "")
            raise self.illegal(action, f"side {SIDE_NAMES[player]} may play: {shown}")
        engine.settle(self)

    def _apply_chance(self, action: str) -> None:
        phase = self.phase
        if phase == WEATHER:
            outcomes = [a for a, _ in weather_outcomes(self.rules, self.bag)]
            if action not in outcomes:
                raise self.illegal(action, f"the weather outcome is one of {outcomes}")
            self.history.append(action)
            flow.weather(self, WEATHER_SIDE[action])
            return
        dice = 1 if phase == REROLL else shooting.roll_dice(self)
        faces = parse_roll(action, dice)
        if faces is None:
            example = "roll " + "3" * dice
            raise self.illegal(action, f"expected {dice} die faces 1–6, e.g. {example!r}")
        self.history.append(action)
        if phase == REROLL:
            shooting.rerolled(self, faces[0])
        else:
            shooting.rolled(self, faces)

    def apply_random_chance(self, rng: object) -> str:
        """Draw a chance outcome from ``rng`` (a ``random.Random``) and apply it (the same
        draw and state as ``apply_action(sample_chance(rng))``, faster); returns it."""
        if not isinstance(rng, random.Random):
            raise MatchError(f"rng must be a random.Random, got {excerpt(rng)}")
        if self.player != CHANCE:
            raise self.illegal("apply_random_chance", "no chance node here")
        return _random_chance(self, rng)

    def child(self, action: object) -> MatchState:
        """A copy with the action applied (the original is untouched)."""
        new = self.copy()
        new.apply_action(action)
        return new

    def copy(self) -> MatchState:
        new: MatchState = self.copy_core()
        return new

    # --- observation -----------------------------------------------------------------------
    def observation(self, side: object) -> dict[str, Any]:
        """What one side sees: everything but the other side's unrevealed orders, with the
        shot in progress and the weather bag's counts."""
        viewer = side_index(side)
        revealed = (
            self.phase != ORDERS and self.orders[0] is not None and self.orders[1] is not None
        )
        orders: dict[str, str | None] = {}
        for s in (0, 1):
            own = self.orders[s]
            if own is None:
                orders[SIDE_NAMES[s]] = None
            elif s == viewer or revealed:
                orders[SIDE_NAMES[s]] = orders_text(own)  # type: ignore[arg-type]
            else:
                orders[SIDE_NAMES[s]] = "hidden"
        return {
            "viewer": SIDE_NAMES[viewer],
            "turn": self.turn,
            "lighthouse": lighthouse_level(self.turn),
            "tier": self.tier,
            "phase": self.phase_name(),
            "to_play": self.player,
            "favoured": SIDE_NAMES[self.favoured] if self.favoured >= 0 else None,
            "scores": list(self.scores),
            "rows": {
                SIDE_NAMES[s]: {UNIT_NAMES[u]: self.row(s, u) for u in range(UNITS)} for s in (0, 1)
            },
            "resilience": {
                SIDE_NAMES[s]: {CHAR_NAMES[c]: self.resilience(s, c) for c in range(CHARS)}
                for s in (0, 1)
            },
            "spent_runes": {SIDE_NAMES[s]: self.spent_letters(s) for s in (0, 1)},
            "ultimes_used": {
                SIDE_NAMES[s]: [CHAR_NAMES[c] for c in range(CHARS) if self.ult_used[s] >> c & 1]
                for s in (0, 1)
            },
            "orders": orders,
            "activated": {
                SIDE_NAMES[s]: [UNIT_NAMES[u] for u in range(UNITS) if self.activated[s] >> u & 1]
                for s in (0, 1)
            },
            "weather_bag": (
                {"A": self.bag[0], "B": self.bag[1]} if self.rules.weather == "bag" else None
            ),
            "shot": self._shot_observation(),
            "rules": self.rules.to_dict(),
            "legal_actions": list(self.legal) if self.player == viewer else [],
            "events": list(self.events),
        }

    def _shot_observation(self) -> dict[str, Any] | None:
        """The resolution in progress: who shoots what, runes, thresholds and dice."""
        shot = self.shot
        if shot is None:
            return None
        data: dict[str, Any] = {
            "side": SIDE_NAMES[shot.side],
            "shooter": CHAR_NAMES[shot.shooter],
            "target": None,
            "distance": None,
            "interception_distance": None,
            "souffle": shot.souffle,
            "defender": CHAR_NAMES[shot.defender] if shot.defender >= 0 else None,
            "attack_rune": shot.att_rune or None,
            "defence_rune": shot.def_rune or None,
            "roll": None,
        }
        if shot.target >= 0:
            data["target"] = "chest" if shot.target == CHEST else CHAR_NAMES[shot.target]
            data["distance"] = shot.distance
            if shot.target == CHEST:
                data["interception_distance"] = shot.idist
        for name, roll in (("attack", shot.attack), ("defence", shot.defence)):
            data[name] = None if roll is None else roll.to_dict()
        if self.phase in (ROLL, RELANCE, REROLL):
            modifier, threshold = shooting.roll_target(self)
            data["roll"] = {
                "stage": "attack" if shot.stage == 0 else "defence",
                "dice_count": shooting.roll_dice(self),
                "modifier": modifier,
                "threshold": threshold,
                "dice": list(shot.dice),
            }
        return data

    # --- serialization ---------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        data = self.core_to_dict()
        data["format"] = FORMAT_VERSION
        return data

    def to_json(self) -> str:
        """The whole state (including log and history) as JSON."""
        return json.dumps(self.to_dict(), ensure_ascii=False, sort_keys=True)

    @classmethod
    def from_dict(cls, data: object) -> MatchState:
        """A state from :meth:`to_dict`, checked field by field and against the rules
        (:class:`~akvo.errors.RecordError` names the field at fault)."""
        from akvo.match.records import load_state

        return load_state(cls, data)

    @classmethod
    def from_json(cls, text: object) -> MatchState:
        from akvo.match.records import parse_json

        return cls.from_dict(parse_json(text))

    def record(self) -> dict[str, Any]:
        """A match record: the setup and every recorded action; :func:`replay` rebuilds it."""
        return {
            "format": FORMAT_VERSION,
            "rules": self.rules.to_dict(),
            "teams": [str(t) for t in self.teams],
            "team_names": [t.name for t in self.teams],
            "setup": self.origin,
            "actions": list(self.history),
        }

    def prompt(self) -> str:
        """What is being decided or rolled now, in French (for pages and terminals)."""
        text = self._prompt()
        return text[:1].upper() + text[1:]

    def _prompt(self) -> str:
        phase = self.phase
        if phase == END:
            return self.events[-1]
        if phase == WEATHER:
            return "Bulletin météo : tirage du jeton."
        side = SIDE_NAMES[self.side] if self.side >= 0 else ""
        if phase in _SIDE_PROMPTS:
            return f"{side} {_SIDE_PROMPTS[phase]}."
        if phase == TRIDENT:
            return f"{mage(self.side, PLONGEUR)} peut déclarer Trident."
        if phase == TRIDENT_AGAIN:
            return f"{mage(self.side, PLONGEUR)} peut tirer encore (Trident)."
        if phase == ADVANCE:
            who = unit_label(self.side, self.unit)
            return f"{who} avance : une rune de Mouvement ajouterait 1 case."
        shot = self.shot
        assert shot is not None
        shooter = mage(shot.side, shot.shooter)
        roller = shooter if shot.stage == 0 else mage(1 - shot.side, shot.defender)
        if phase == REROLL:
            return f"Relance : {roller} relance son dé n° {shot.relanced}."
        if phase == ROLL:
            modifier, threshold = self.roll_target()
            which = "d'attaque" if shot.stage == 0 else "de défense"
            dice = shooting.roll_dice(self)
            bonus = f" {modifier:+d}" if modifier else ""
            count = f"{dice} dé{'s' if dice > 1 else ''}"
            return f"Jet {which} : {roller} lance {count}{bonus}, seuil {threshold}."
        if phase == RELANCE:
            faces = " ".join(map(str, shot.dice))
            return f"{roller} voit ses dés ({faces}) et peut en relancer un."
        if phase == PRODIGE:
            side_index_, char = shot.pending[0]
            return f"Prodige : {mage(side_index_, char)} récupère une rune dépensée."
        if phase == DEFENCE_RUNE:
            return f"{mage(1 - shot.side, shot.defender)} peut jouer une rune (défense)."
        if phase == Phase.ATTACK_RUNE:
            return f"{shooter} peut jouer une rune (attaque)."
        return f"{shooter} {_SHOT_PROMPTS[phase]}."

    def illegal(self, action: object, why: str) -> IllegalAction:
        return IllegalAction(
            f"illegal action {excerpt(action)} at turn {self.turn}, phase {self.phase_name()}: "
            f"{why}"
        )

    def __repr__(self) -> str:
        player = {CHANCE: "chance", TERMINAL: "terminal"}.get(self.player)
        who = player or SIDE_NAMES[self.player]
        return (
            f"MatchState(turn={self.turn}, phase={self.phase_name()!r}, player={who}, "
            f"scores={self.scores[0]}-{self.scores[1]})"
        )

    # --- pictures --------------------------------------------------------------------------
    def __str__(self) -> str:
        from akvo.match.text import board_text

        return board_text(self)

    def _repr_svg_(self) -> str:
        from akvo.match.svg import board_svg

        return board_svg(self)


def _random_chance(state: MatchState, rng: random.Random) -> str:
    """Sample and apply the chance outcome at ``state`` (a chance node), then settle."""
    phase = state.phase
    if phase == ROLL:
        action, faces = sample_roll_entry(rng, shooting.roll_dice(state))
        state.history.append(action)
        shooting.rolled(state, list(faces))
    elif phase == WEATHER:
        action = sample_weather(state.rules, state.bag, rng)
        state.history.append(action)
        flow.weather(state, WEATHER_SIDE[action])
    else:
        action, faces = sample_roll_entry(rng, 1)
        state.history.append(action)
        shooting.rerolled(state, faces[0])
    _settle(state)
    return action


def new_match(
    team_a: object = "perrockiss",
    team_b: object = "fish-tank",
    rules: object = DEFAULT_RULES,
    *,
    log: object = True,
) -> MatchState:
    """A match at its first node (turn 1's weather draw). Teams are :class:`~akvo.teams.Team` s
    or preset keys, ``rules`` a :class:`~akvo.config.RulesConfig`.

    ``log=False`` skips building the French event log (faster simulations); the record,
    the scores and every decision are the same.
    """
    from akvo.match.names import team_of

    return MatchState(team_of(team_a, "team_a"), team_of(team_b, "team_b"), rules, log)


def replay(record: object, *, log: object = True) -> MatchState:
    """Rebuild a match from :meth:`MatchState.record`; :class:`~akvo.errors.RecordError`
    names the field or the action (by index) at fault."""
    from akvo.match.records import replay_record

    return replay_record(record, log)
