"""A coach Decision tests whether its rollouts show a loss once, when it is made: the loss,
the verdict, the explanation and the table's row all read that one answer."""

from __future__ import annotations

import pytest

from akvo.coach import analysis
from akvo.coach.analysis import Decision, paired_difference
from akvo.coach.chances import WIN, OptionChance

LOSS = -1


def _decision(best: OptionChance, chosen: OptionChance, retest: bool = True) -> Decision:
    return Decision(
        coup=3, turn=1, side=0, phase="ordres", prompt="A programme ses ordres.",
        chosen=chosen, best=best, options=(best, chosen),
        retest=(best, chosen) if retest else None,
    )  # fmt: skip


def test_the_sign_test_runs_once_per_decision(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    real = analysis.shows_loss

    def counted(best: OptionChance, chosen: OptionChance) -> bool:
        calls.append((best.action, chosen.action))
        return real(best, chosen)

    monkeypatch.setattr(analysis, "shows_loss", counted)
    best = OptionChance("orders AAAA AA", (WIN,) * 12)
    chosen = OptionChance("orders TTTT TT", (LOSS,) * 12)
    decision = _decision(best, chosen)
    assert calls == [("orders AAAA AA", "orders TTTT TT")]
    for _ in range(3):
        assert decision.shown and decision.loss == 1.0 and decision.verdict is not None
        decision.explanation(), decision.cells(), decision.to_dict()
    assert len(calls) == 1  # read, never recomputed


def test_a_loss_within_the_noise_is_none_and_no_retest_shows_nothing() -> None:
    best = OptionChance("a", (WIN,) * 4 + (LOSS,) * 8)  # four discordant rollouts: not enough
    chosen = OptionChance("b", (LOSS,) * 12)
    assert paired_difference(best, chosen).low > 0  # Student alone would call it a loss
    assert not _decision(best, chosen).shown and _decision(best, chosen).loss == 0.0
    strong = OptionChance("a", (WIN,) * 12)
    assert not _decision(strong, chosen, retest=False).shown  # no retest, no loss read
