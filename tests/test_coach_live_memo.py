"""The live coach's rollout memo (akvo.coach.chances.live_memo): one per process, shared by
the estimates of a match's successive decisions, which it makes sooner and never different."""

from __future__ import annotations

from akvo.bots import make_bot
from akvo.coach.chances import LIVE_MEMO_LIMIT, RolloutMemo, WinChances, live_memo
from akvo.match import decisions
from akvo.match.streams import KeyedChance
from tests.match.helpers import bare


def _nodes() -> list:
    """The decision nodes of a short turn-8 match (copies), as a page's coach meets them."""
    state = bare(
        keep={"A": "NIV", "B": "AF"},
        turn=8,
        rows={
            "A": {"pedalair": 5, "kitesurfeur": 5, "navire": 4, "surfeur": 3, "plongeur": 3},
            "B": {"pedalair": 6, "kitesurfeur": 6, "navire": 5, "surfeur": 4, "plongeur": 4},
        },
    )
    bots = (make_bot("greedy", 1), make_bot("greedy", 2))
    return [n.copy() for n in decisions(state, KeyedChance(3), bots) if len(n.legal) > 1]


def test_one_live_memo_per_process() -> None:
    memo = live_memo()
    assert memo is live_memo() and isinstance(memo, RolloutMemo)
    assert memo._limit == LIVE_MEMO_LIMIT


def test_successive_decisions_share_rollouts_with_the_same_results() -> None:
    nodes = _nodes()[:4]
    assert len(nodes) == 4
    memo = live_memo()
    hits = []
    for node in nodes:
        before = memo.hits
        shared = WinChances(node, seed=7, memo=memo).refine(4)
        alone = WinChances(node, seed=7).refine(4)
        assert shared == alone  # the memo changes the work, never an estimate
        hits.append(memo.hits - before)
    assert sum(hits[1:]) > 0  # later decisions met earlier rollouts' positions
