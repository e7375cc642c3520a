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
    shoot <character> · shoot chest · … souffle · hold     target (Souffle portant: −2)
    no rune · rune P      the attacker's then the defender's rune (R18)
    keep · reroll 2       Relance: keep the dice or reroll the 2nd die (R15)
    recover P             prodige: take back a spent rune (R23)
    rouleau · no rouleau  the Surfeur's Ultime after pushing the enemy Surfeur
    shoot again · stop    Trident: another shot at a mage, up to 3

Chance outcomes: ``weather A`` / ``weather B`` (R8), ``roll 3516`` (the dice of one roll in
the order rolled), ``roll 4`` (a rerolled die).
"""

from __future__ import annotations

import itertools

# Ship double tokens: 0 = AA, 1 = TT, 2 = AT with the Barreur shooting, 3 = AT with the Lanceur.
SHIP_AA, SHIP_TT, SHIP_AT_B, SHIP_AT_L = range(4)
SHIP_TOKENS = ("AA", "TT", "AT-B", "AT-L")
ADVANCE_ORDER, SHOOT_ORDER = 0, 1
LATERAL_TOKENS = "AT"

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


KEEP = "keep"
NO_RUNE = "no rune"
NO_MOVE = "no move"
ADVANCE = "advance"
HOLD = "hold"
TRIDENT = "trident"
NO_TRIDENT = "no trident"
ROULEAU = "rouleau"
NO_ROULEAU = "no rouleau"
SHOOT_AGAIN = "shoot again"
STOP = "stop"
MOVE_FIRST = "move first"
SHOT_FIRST = "shot first"
FIRST_BARREUR = "first barreur"
FIRST_LANCEUR = "first lanceur"
ULTIME_ACTIONS = {"ultime tourbillon": 1, "ultime egide": 2, "ultime vigie": 3}
REROLL_ACTIONS = tuple(f"reroll {i}" for i in range(1, 9))
RUNE_ACTIONS = {chr(c): f"rune {chr(c)}" for c in range(65, 91)}
MOVE_ACTIONS = {chr(c): f"move {chr(c)}" for c in range(65, 91)}
ADVANCE_RUNE_ACTIONS = {chr(c): f"advance +{chr(c)}" for c in range(65, 91)}
RECOVER_ACTIONS = {chr(c): f"recover {chr(c)}" for c in range(65, 91)}
WEATHER_ACTIONS = ("weather A", "weather B")
DIE_ACTIONS = tuple(f"roll {face}" for face in range(1, 7))
