"""The bots' registry (akvo.bots.registry): every bot declared once answers every decision
kind legally, refuses unknown and bad options, never reads hidden orders, and everything
that lists or starts bots derives from the registry."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from akvo.bots import BOTS, LADDER, REGISTRY, BotError, bot_spec, make_bot
from akvo.bots.registry import BOT_MODULES, SPEEDS
from akvo.config import RulesConfig
from akvo.match import MatchState, decisions, new_match, play_match
from akvo.match.engine import DECISIONS
from tests.match.helpers import b_programs_after

#: Every kind of decision the engine asks a bot.
KINDS = tuple(DECISIONS)
#: The default rules and two variants that change what the bots are asked.
RULES = (
    RulesConfig(),
    RulesConfig(weather="coin", prodige="all", rune_u="names_only"),
    RulesConfig(mouvement_rune="separate", ship_advance_runes="per_order", grimoire="swapped"),
)
#: The cheapest options of each bot that takes some (the conformance test plays whole matches).
CHEAP = {"search": {"budget": 1, "horizon": 0}, "expert": {"budget": 1}}
AKVO = Path(__file__).resolve().parents[1] / "akvo"


def _bot(name: str, seed: int) -> object:
    return make_bot(name, seed, **CHEAP.get(name, {}))


def _nodes_by_phase(rules: RulesConfig) -> dict[int, list[MatchState]]:
    """Decision nodes of seeded greedy-vs-random matches, a few of each resting phase."""
    found: dict[int, list[MatchState]] = {}
    teams = ("perrockiss", "fish-tank", "tortues-carets", "pink-star", "foufous", "iragwak")
    for seed in range(40):
        bots = (make_bot("greedy", seed), make_bot("random", seed))
        state = new_match(teams[seed % 6], teams[(seed + 1) % 6], rules, log=False)
        for node in decisions(state, seed, bots if seed % 2 else bots[::-1]):
            kept = found.setdefault(node.phase, [])
            if len(kept) < 2:
                kept.append(node.copy())
        if all(len(found.get(phase, ())) >= 2 for phase in KINDS):
            break
    return found


@pytest.fixture(scope="module", params=range(len(RULES)), ids=["default", "coin-all", "swapped"])
def nodes(request: pytest.FixtureRequest) -> dict[int, list[MatchState]]:
    return _nodes_by_phase(RULES[request.param])


def test_the_registry_lists_each_bot_once_with_its_declaration() -> None:
    assert len(REGISTRY) == len(BOT_MODULES) == len(set(BOTS.values()))
    assert LADDER == ("beginner", "easy", "greedy", "search", "expert")
    assert [BOTS[name] for name in LADDER] == ["débutant", "facile", "normal", "fort", "expert"]
    assert [REGISTRY[name].rank for name in LADDER] == [1, 2, 3, 4, 5]
    assert REGISTRY["random"].rank is None  # the uniform bot plays outside the ladder
    for spec in REGISTRY.values():
        assert spec.speed in SPEEDS and spec.description
        assert bot_spec(spec.label) is spec is bot_spec(spec.name)


@pytest.mark.parametrize("name", list(REGISTRY))
def test_every_bot_answers_every_decision_kind(
    name: str, nodes: dict[int, list[MatchState]]
) -> None:
    """Every resting phase is asked (the sample must reach them all), and the answer is
    legal and leaves the state as it was."""
    assert set(KINDS) <= set(nodes), sorted(set(KINDS) - set(nodes))
    bot = _bot(name, 5)
    for phase in KINDS:
        for node in nodes[phase]:
            before = node.to_json()
            action = bot(node)  # type: ignore[operator]
            assert action in node.legal, (name, node.phase_name(), action)
            assert node.to_json() == before


@pytest.mark.parametrize("name", list(REGISTRY))
def test_every_bot_plays_a_whole_match(name: str) -> None:
    rules = RULES[list(REGISTRY).index(name) % len(RULES)] if name != "expert" else RULES[0]
    state = play_match(4, "pink-star", "foufous", rules, (_bot(name, 1), make_bot("greedy", 2)))
    assert state.is_terminal() and state.result in ("A", "B", "draw")


@pytest.mark.parametrize("name", list(REGISTRY))
def test_every_bot_refuses_unknown_and_bad_options(name: str) -> None:
    with pytest.raises(BotError, match=f"the {name} bot does not take colour"):
        make_bot(name, 1, colour="blue")
    for option in REGISTRY[name].options:
        for bad in ("many", 0, -1, 2.5, True):
            if option.name == "horizon" and bad == 0:
                continue  # a horizon of 0 turns is allowed
            with pytest.raises(BotError, match=option.name):
                make_bot(name, 1, **{option.name: bad})


def test_unknown_bots_are_named() -> None:
    with pytest.raises(BotError, match="unknown bot 'grandmaster'"):
        make_bot("grandmaster")
    with pytest.raises(BotError, match="unknown bot"):
        bot_spec("grandmaster")


@pytest.mark.parametrize("name", list(REGISTRY))
def test_no_bot_reads_the_hidden_orders(name: str) -> None:
    """B programs with A's orders in the state but hidden: two states that differ only by
    them get the same answer from every bot."""
    one, other = b_programs_after("orders AAAA AA"), b_programs_after("orders TTTT TT")
    assert one.observation("B") == other.observation("B")
    assert _bot(name, 3)(one) == _bot(name, 3)(other)  # type: ignore[operator]


def test_the_lab_and_the_tables_derive_from_the_registry() -> None:
    from akvo.lab.play import MatchSpec, _bot
    from akvo.lab.run import team_of
    from akvo.online.service import SLOW_BOTS

    assert {n for n, spec in REGISTRY.items() if spec.speed != "instant"} == SLOW_BOTS
    assert {"beginner", "easy", "search", "expert"} == SLOW_BOTS
    spec = MatchSpec(
        team_of("perrockiss"),
        team_of("fish-tank"),
        ("expert", "greedy"),
        RulesConfig(),
        1,
        (("budget", 3),),
    )
    assert _bot(spec, "A", 0).budget == 3  # the budget goes to the bots that take one
    assert _bot(spec, "B", 0).__class__.__name__ == "GreedyBot"


def test_no_module_outside_the_bots_names_a_level() -> None:
    """A level's engine name is written in its own module only (the lab's default and
    example bots, greedy and random, apart; « expert » is also a French label, which the
    coach's rating bands spell)."""
    names = [n for n, spec in REGISTRY.items() if n != spec.label and n not in ("greedy", "random")]
    named = re.compile("[\"']({})[\"']".format("|".join(names)))
    offenders = [
        f"{path.relative_to(AKVO)}:{number}"
        for path in AKVO.rglob("*.py")
        if path.parent.name != "bots"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if named.search(line)
    ]
    assert names == ["beginner", "easy", "search"] and offenders == []
