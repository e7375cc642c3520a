"""The lab's widgets show exactly the numbers of the simulation they ran."""

from __future__ import annotations

import base64
import re

from akvo.lab import simulate
from akvo_widgets.design.lab import DISTINCT_TEAMS, Lab, RoundRobin, lab_example
from akvo_widgets.text.formatting import french, percent


def test_nothing_runs_before_the_click() -> None:
    lab = Lab()
    assert lab.results is None
    assert 'class="akvo-lab-p-a">—<' in lab.table.value


def test_lab_shows_the_runs_numbers() -> None:
    lab = Lab(matches=10, seed=3)
    lab.bot_b.value = "random"
    lab.variants["weather"].value = "coin"
    seen: list[int] = []
    lab.progress.observe(lambda change: seen.append(change["new"]), names="value")
    results = lab.run()
    expected = simulate(
        "perrockiss", "fish-tank", ("greedy", "random"), "weather=coin", 10, 3, workers=0
    )
    assert results.rows == expected.rows
    summary = expected.summary()
    cell = re.search(r'class="akvo-lab-p-a">([^<]*)<', lab.table.value)
    assert cell is not None and cell.group(1) == percent(summary.p_a.estimate)
    assert seen[-1] == 10
    payload = re.search(r"base64,([A-Za-z0-9+/=]+)", lab.download.value)
    assert payload is not None
    assert base64.b64decode(payload.group(1)).decode() == expected.to_csv()
    bars = lab._bars.y
    assert [int(v) for v in bars[0]] == [summary.scores_a.get(s, 0) for s in range(len(bars[0]))]
    assert sum(int(v) for v in bars[1]) == 10


def test_round_robin_plays_every_pair() -> None:
    robin = RoundRobin(matches=2, seed=4)
    robin.bot.value = "random"
    rates = robin.run()
    assert len(rates) == len(DISTINCT_TEAMS) == 4
    first = simulate(
        DISTINCT_TEAMS[0], DISTINCT_TEAMS[1], ("random", "random"), None, 2, 4, workers=0
    )
    assert rates[0][1] == first.summary().p_a
    assert robin.progress.value == 16


def test_worked_example_quotes_the_simulation() -> None:
    text = lab_example(matches=6, seed=2).data
    summary = simulate(
        "perrockiss", "fish-tank", ("random", "random"), None, 6, 2, workers=0
    ).summary()
    assert percent(summary.p_a.estimate) in text
    assert percent(summary.p_a.high) in text


def test_the_lab_offers_every_variant_of_the_engine_and_french_bot_names() -> None:
    from akvo.config import CHOICES
    from akvo.switches import SWITCHES

    lab = Lab(matches=10, seed=2)
    assert list(lab.variants) == list(CHOICES)
    for field, box in lab.variants.items():
        assert [value for _label, value in box.options] == list(CHOICES[field])
    labels = [label for label, _ in lab.bot_a.options]
    assert labels == ["débutant", "facile", "normal", "fort", "expert", "hasard"]
    for field, box in lab.variants.items():  # the registry's French readings
        assert [label for label, _ in box.options] == [french(r) for r in SWITCHES[field].readings]
    lab.variants["grimoire"].value = "swapped"
    lab.variants["rune_u"].value = "names_only"
    results = lab.run()
    assert results.meta["rules"]["grimoire"] == "swapped"
    assert results.meta["rules"]["rune_u"] == "names_only"


def test_a_run_clears_the_old_results_and_says_en_cours() -> None:
    lab = Lab(matches=10, seed=2)
    assert lab.figure.layout.display == "none"  # nothing drawn before a run
    lab.run()
    assert lab.figure.layout.display is None and "Terminé" in lab.status.text.value
    seen: list[tuple[str, str, str | None]] = []

    def watch(done: int, total: int) -> None:
        seen.append((lab.status.text.value, lab.table.value, lab.figure.layout.display))

    lab._progress = lambda done, total: (Lab._progress(lab, done, total), watch(done, total))  # type: ignore[method-assign]
    lab.run()
    text, table, display = seen[0]
    assert "Simulation en cours" in text and 'class="akvo-lab-p-a">—<' in table
    assert display == "none"
    summary = lab.summary
    assert summary is not None
    tallest = max([*summary.scores_a.values(), *summary.scores_b.values()])
    assert lab._y_scale.max == tallest  # the bars' scale fits them (the histogram draws)


def test_round_robin_cells_show_n_wins_draws_losses_and_the_wilson_interval() -> None:
    robin = RoundRobin(matches=3, seed=5)
    assert robin.table.value == "" and robin.figure.layout.display == "none"
    robin.bot.value = "random"
    robin.run()
    assert robin.figure.layout.display is None
    summary = simulate(
        DISTINCT_TEAMS[1], DISTINCT_TEAMS[2], ("random", "random"), None, 3, 5, workers=0
    ).summary()
    cell = re.search(r'class="akvo-lab-rr-1-2">(.*?)</td>', robin.table.value)
    assert cell is not None
    text = cell.group(1)
    for shown in (
        percent(summary.p_a.estimate),
        percent(summary.p_a.low),
        percent(summary.p_a.high),
    ):
        assert shown in text
    plain = re.sub(r"<[^>]*>", " ", text).replace("\u00a0", " ").replace("\u202f", " ")
    assert f"{summary.wins_a} V · {summary.draws} N · {summary.wins_b} D" in plain
    assert "sur 3" in plain


def test_the_balance_section_shows_the_reports_numbers() -> None:
    from akvo.lab.tournament import tournament
    from akvo_widgets.design.lab import Balance

    balance = Balance(matches=2, effect_matches=1, seed=3)
    assert balance.teams_table.value == "" and "pas encore" in balance.status.text.value
    balance.bot.value = "random"
    shown = balance.run()
    report = tournament(n=2, effect_matches=1, seed=3, bot="random", workers=0)
    assert shown.pairs == report.pairs and shown.effects == report.effects
    for team in report.team_results:
        cell = re.search(
            rf'class="akvo-lab-balance-team-{team.team}">([^<]*)<', balance.teams_table.value
        )
        assert cell is not None and cell.group(1) == percent(team.p_win.estimate)
    assert len(report.effects) == 12
    for effect in report.effects:
        assert f'class="akvo-lab-balance-{effect.item}"' in balance.items_table.value
    payload = re.search(r"base64,([A-Za-z0-9+/=]+)", balance.download.value)
    assert payload is not None
    assert base64.b64decode(payload.group(1)).decode() == report.to_csv()
    assert "Terminé" in balance.status.text.value
    # 2 matches per pair: no ranking, the teams in the report's order, the caveats shown
    assert not report.ranked and report.caveat is not None
    shown_order = re.findall(r'class="akvo-lab-balance-team-([^"]+)"', balance.teams_table.value)
    assert (
        shown_order == [t.team for t in report.ranking()] == [t.team for t in report.team_results]
    )
    assert "akvo-lab-balance-caveat" in balance.teams_table.value
    assert "non classées" in balance.teams_table.value
    assert report.effects_caveat is not None
    assert "akvo-lab-balance-effects-caveat" in balance.items_table.value


def test_teams_with_the_same_list_read_as_one_row() -> None:
    from akvo.lab.stats import Interval
    from akvo.lab.tournament import TeamResult
    from akvo.rules import DUPLICATED_PRESETS
    from akvo_widgets.design.lab import short_name, team_label

    team = TeamResult(
        DUPLICATED_PRESETS[0], 4, 2, 0, 2, Interval(0.5, 0.2, 0.8), DUPLICATED_PRESETS
    )
    assert team_label(team) == " = ".join(short_name(k) for k in DUPLICATED_PRESETS)
