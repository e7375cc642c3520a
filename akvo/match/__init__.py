"""The match engine: an explicit, serializable state for a full Akvolition match.

Typical use::

    import random
    from akvo.match import new_match

    rng = random.Random(1)
    state = new_match("perrockiss", "fish-tank")
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    print(state.result, state.scores)
"""

from akvo.match.bots import RandomBot, UniformBot, decisions, play_match, r15_relance
from akvo.match.core import CHANCE, TERMINAL
from akvo.match.phases import Phase
from akvo.match.scenario import scenario
from akvo.match.state import MatchState, new_match, replay

__all__ = [
    "CHANCE",
    "TERMINAL",
    "MatchState",
    "Phase",
    "RandomBot",
    "UniformBot",
    "decisions",
    "new_match",
    "play_match",
    "r15_relance",
    "replay",
    "scenario",
]
