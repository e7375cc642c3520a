"""The public match state: legal actions, chance outcomes, apply, copy, observation, JSON.

Style of OpenSpiel and python-chess: :meth:`MatchState.apply_action` changes the state in
place (fast, for simulations) and :meth:`MatchState.child` returns a changed copy. An
illegal action raises :class:`~akvo.errors.IllegalAction` before anything changes.

Readings beyond RULINGS.md (the simplest reading players would expect):

- Orders are programmed A first, then B; each side's observation hides the other's
  orders until both are revealed (the secret, simultaneous programming of the rulebook).
- Decision nodes with a single legal action are played automatically (logged, not recorded
  in :attr:`history`); so is a weather draw when the bag holds one kind of token.
- A Tirer activation must shoot if a target is in range; ``hold`` exists only when the sole
  targets need Souffle portant, so that an Ultime is never forced. With no target at all
  the shot is lost (a Trident sequence then ends).
- A Mouvement rune played before a shot is that side's one rune of the resolution (R18).
  The ship's Advance may use a Mouvement rune of either central mage or a bonus rune.
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
- Rouleau needs the enemy Surfeur to have actually moved at least 1 cell.
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

from akvo.config import DEFAULT_RULES, RulesConfig
from akvo.errors import IllegalAction
from akvo.match.actions import orders_text
from akvo.match.board import CHAR_NAMES, CHARS, PLONGEUR, SIDE_NAMES, UNIT_NAMES, UNITS
from akvo.match.chance import (
    die_outcomes,
    parse_roll,
    roll_outcomes,
    sample_roll,
    weather_outcomes,
)
from akvo.match.core import (
    ACTIVATE,
    ADVANCE,
    ATTACK_RUNE,
    CHANCE,
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
    TERMINAL,
    TRIDENT,
    TRIDENT_MORE,
    WEATHER,
    teams_from_dict,
)
from akvo.match.log import mage
from akvo.match.log import unit as unit_label
from akvo.match.shooting import Shooting
from akvo.rules import lighthouse_level
from akvo.teams import Team, preset_team

__all__ = ["CHANCE", "TERMINAL", "MatchState", "new_match", "replay"]

_SIDE_PROMPTS = {
    ORDERS: "programme ses ordres en secret",
    ACTIVATE: "active une unité (ou déclare un Ultime)",
    SHIP_ORDER: "choisit l'ordre de résolution du navire",
}
_SHOT_PROMPTS = {
    PRE_SHOT: "peut jouer une rune de Mouvement avant de tirer",
    TARGET: "choisit sa cible",
    ATTACK_RUNE: "peut jouer une rune (attaque)",
    ROULEAU: "peut déclarer Rouleau",
}


class MatchState(Shooting):
    """A full Akvolition match (see the module docstring for the API and readings)."""

    __slots__ = ()

    def __init__(self, team_a: Team, team_b: Team, rules: RulesConfig = DEFAULT_RULES) -> None:
        super().__init__(team_a, team_b, rules)
        self._settle()

    # --- queries ---------------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        """0 (A) or 1 (B) to decide, :data:`CHANCE` at a chance node, :data:`TERMINAL`."""
        return self.player

    def is_terminal(self) -> bool:
        return self.phase == END

    def is_chance_node(self) -> bool:
        return self.player == CHANCE

    def legal_actions(self) -> tuple[str, ...]:
        """The legal decisions of :attr:`current_player` (empty at chance/terminal nodes)."""
        return self.legal

    def chance_outcomes(self) -> tuple[tuple[str, Fraction], ...]:
        """At a chance node: every outcome with its exact probability (they sum to 1)."""
        if self.phase == WEATHER:
            return weather_outcomes(self.rules.weather, self.bag)
        if self.phase == ROLL:
            return roll_outcomes(self._roll_dice_count())
        if self.phase == REROLL:
            return die_outcomes()
        return ()

    def sample_chance(self, rng: random.Random) -> str:
        """One chance outcome drawn from ``rng`` with the exact probabilities."""
        if self.phase == ROLL:
            return sample_roll(rng, self._roll_dice_count())
        if self.phase == REROLL:
            return sample_roll(rng, 1)
        if self.phase == WEATHER:
            if self.rules.weather == "coin":
                return "weather A" if rng.random() < 0.5 else "weather B"
            return (
                "weather A"
                if rng.randrange(self.bag[0] + self.bag[1]) < self.bag[0]
                else ("weather B")
            )
        raise IllegalAction(f"no chance node here (phase {self.phase_name()})")

    @property
    def result(self) -> str | None:
        """``"A"``, ``"B"`` or ``"draw"`` once the match is over."""
        if self.winner < 0:
            return None
        return "draw" if self.winner == 2 else SIDE_NAMES[self.winner]

    # --- applying --------------------------------------------------------------------------
    def apply_action(self, action: str) -> None:
        """Apply a decision or chance outcome in place; illegal ones raise and change nothing."""
        if not isinstance(action, str):
            raise self.illegal(action, "an action is a string such as 'activate navire'")
        if self.player == TERMINAL:
            raise self.illegal(action, "the match is over")
        if self.player == CHANCE:
            self._apply_chance(action)
        elif action in self.legal:
            self.history.append(action)
            self._decide(action)
        else:
            shown = ", ".join(self.legal[:12]) + (", …" if len(self.legal) > 12 else "")
            raise self.illegal(action, f"side {SIDE_NAMES[self.player]} may play: {shown}")
        self._settle()

    def _apply_chance(self, action: str) -> None:
        if self.phase == WEATHER:
            outcomes = dict(weather_outcomes(self.rules.weather, self.bag))
            if action not in outcomes:
                raise self.illegal(action, f"the weather outcome is one of {list(outcomes)}")
            self.history.append(action)
            self._weather(0 if action.endswith("A") else 1)
            return
        dice = 1 if self.phase == REROLL else self._roll_dice_count()
        faces = parse_roll(action, dice)
        if faces is None:
            example = "roll " + "3" * dice
            raise self.illegal(action, f"expected {dice} die faces 1–6, e.g. {example!r}")
        self.history.append(action)
        self._shot_chance(faces)

    def child(self, action: str) -> MatchState:
        """A copy with the action applied (the original is untouched)."""
        new = self.copy()
        new.apply_action(action)
        return new

    def copy(self) -> MatchState:
        new: MatchState = self.copy_core()
        return new

    # --- observation -----------------------------------------------------------------------
    def observation(self, side: int | str) -> dict[str, Any]:
        """What one side sees: everything but the other side's unrevealed orders."""
        viewer = side if isinstance(side, int) else SIDE_NAMES.index(side)
        revealed = (
            self.phase != ORDERS and self.orders[0] is not None and (self.orders[1] is not None)
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
                SIDE_NAMES[s]: {UNIT_NAMES[u]: self.rows[s * UNITS + u] for u in range(UNITS)}
                for s in (0, 1)
            },
            "resilience": {
                SIDE_NAMES[s]: {CHAR_NAMES[c]: self.res[s * CHARS + c] for c in range(CHARS)}
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
            "legal_actions": list(self.legal) if self.player == viewer else [],
            "events": list(self.events),
        }

    def spent_letters(self, side: int) -> str:
        mask = self.spent[side]
        return "".join(chr(65 + i) for i in range(26) if mask >> i & 1)

    # --- serialization ---------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return self.core_to_dict()

    def to_json(self) -> str:
        """The whole state (including log and history) as JSON."""
        return json.dumps(self.to_dict(), ensure_ascii=False, sort_keys=True)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> MatchState:
        team_a, team_b = teams_from_dict(data)
        rules = RulesConfig.from_dict(data["rules"])
        new = cls.__new__(cls)
        Shooting.__init__(new, team_a, team_b, rules)
        new.core_from_dict(data)
        return new

    @classmethod
    def from_json(cls, text: str) -> MatchState:
        return cls.from_dict(json.loads(text))

    def record(self) -> dict[str, Any]:
        """A match record: the setup and every recorded action; :func:`replay` rebuilds it."""
        return {
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
        if phase == TRIDENT_MORE:
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
            dice = self._roll_dice_count()
            bonus = f" {modifier:+d}" if modifier else ""
            return f"Jet {which} : {roller} lance {dice} dé(s){bonus}, seuil {threshold}."
        if phase == RELANCE:
            faces = " ".join(map(str, shot.dice))
            return f"{roller} voit ses dés ({faces}) et peut en relancer un."
        if phase == PRODIGE:
            side_index, char = shot.pending[0]
            return f"Prodige : {mage(side_index, char)} récupère une rune dépensée."
        if phase == DEFENCE_RUNE:
            return f"{mage(1 - shot.side, shot.defender)} peut jouer une rune (défense)."
        return f"{shooter} {_SHOT_PROMPTS[phase]}."

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


def new_match(
    team_a: Team | str = "perrockiss",
    team_b: Team | str = "fish-tank",
    rules: RulesConfig = DEFAULT_RULES,
) -> MatchState:
    """A match at its first node (turn 1's weather draw). Teams may be preset keys."""
    a = preset_team(team_a) if isinstance(team_a, str) else team_a
    b = preset_team(team_b) if isinstance(team_b, str) else team_b
    return MatchState(a, b, rules)


def replay(record: dict[str, Any]) -> MatchState:
    """Rebuild a match from :meth:`MatchState.record` (raises on any illegal action)."""
    teams = teams_from_dict(record)
    state = MatchState(teams[0], teams[1], RulesConfig.from_dict(record["rules"]))
    if record.get("setup"):
        from akvo.match.scenario import apply_setup

        apply_setup(state, record["setup"])
    for action in record["actions"]:
        state.apply_action(action)
    return state
