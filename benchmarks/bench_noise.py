"""How the noisy ladder levels err (issue 33: « small losses often, big ones rarely », not
uniform moves): the win-chance points each level gives up per decision, by its own values.

Run: ``.venv/bin/python benchmarks/bench_noise.py [--matches 4] [--nodes 120]``. Decision
nodes are sampled from greedy-vs-greedy matches (Perrockiss against Fish Tank); at each, the
level's options are valued as it values them (:class:`akvo.bots.noisy.NoisyBot`: the
orders' rollouts, the lookahead elsewhere) and the loss of each option (best value minus
its value) is weighted by the probability the level plays it (its softmax), and by a
uniform choice among the same options for comparison. Writes benchmarks/results/noise.md.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from recorded import stamp, write

from akvo.bots import BOTS, REGISTRY, make_bot
from akvo.bots.noisy import NoisyBot, softmax
from akvo.match import MatchState, decisions, new_match
from akvo.match.phases import ORDERS
from akvo.match.streams import decision_key

RESULTS = Path(__file__).parent / "results" / "noise.md"
#: Loss bands, in win-chance points: [0], (0, 2), [2, 10), [10, 25), [25, ∞).
BANDS = ("best", "< 2", "2–10", "10–25", "≥ 25")
BIG = 10.0


def band(loss: float) -> int:
    return 0 if loss == 0 else 1 if loss < 2 else 2 if loss < 10 else 3 if loss < 25 else 4


def option_values(nodes: list[MatchState]) -> list[list[float]]:
    """Each node's options as the noisy levels value them (the same for every temperature)."""
    bot = NoisyBot(0, 1.0)
    out = []
    for node in nodes:
        if node.phase == ORDERS:
            out.append(bot.order_values(node, decision_key(node))[1])
        else:
            out.append(bot.lookahead.values(node, bot.judge(node)))
    return out


def row(label: str, values: list[list[float]], temperature: float | None) -> str:
    shares = [0.0] * len(BANDS)
    mean = big = 0.0
    offering = [v for v in values if 100 * (max(v) - min(v)) >= BIG]
    for options in values:
        top = max(options)
        chances = (
            softmax(options, temperature) if temperature else [1 / len(options)] * len(options)
        )
        for p, value in zip(chances, options, strict=True):
            loss = 100 * (top - value)
            shares[band(loss)] += p / len(values)
            mean += p * loss / len(values)
            if options in offering and loss >= BIG:
                big += p / len(offering)
    cells = " | ".join(f"{100 * s:.1f} %" for s in shares)
    return f"| {label} | {cells} | {mean:.2f} | {100 * big:.0f} % |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", type=int, default=4)
    parser.add_argument("--nodes", type=int, default=120)
    args = parser.parse_args()
    nodes: list[MatchState] = []
    for seed in range(args.matches):
        bots = (make_bot("greedy", 2 * seed), make_bot("greedy", 2 * seed + 1))
        nodes += [n.copy() for n in decisions(new_match(), seed, bots) if len(n.legal) > 1]
    nodes = random.Random(0).sample(nodes, min(args.nodes, len(nodes)))
    values = option_values(nodes)
    offering = sum(1 for v in values if 100 * (max(v) - min(v)) >= BIG)
    lines = [
        "# How the noisy levels err",
        "",
        f"{len(nodes)} decisions with a choice, sampled from {args.matches} greedy-vs-greedy "
        f"matches; {offering} of them offer a loss of {BIG:.0f} points or more. Share of "
        "decisions by the win-chance points given up (by the level's own values), the mean "
        f"loss, and how often a decision that offers a loss of {BIG:.0f}+ points takes one.",
        "",
        "| level | temperature | " + " | ".join(BANDS) + " | mean loss | takes a 10+ loss |",
        "|---|---:|" + "---:|" * (len(BANDS) + 2),
    ]
    for name, spec in REGISTRY.items():
        bot = make_bot(name, 0) if spec.rank is not None and spec.speed == "fast" else None
        if isinstance(bot, NoisyBot):
            text = row(f"« {BOTS[name]} »", values, bot.temperature)
            lines.append(text.replace(" |", f" | {bot.temperature:g} |", 1))
    lines.append(row("uniform among the same options", values, None).replace(" |", " | — |", 1))
    lines += [
        "",
        f"`python benchmarks/bench_noise.py --matches {args.matches} --nodes {args.nodes}`",
    ]
    lines += ["", f"{stamp('bench_noise.py')}."]
    write(RESULTS, lines)


if __name__ == "__main__":
    main()
