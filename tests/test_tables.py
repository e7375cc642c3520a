"""Tier × distance odds grids (akvo.tables)."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from akvo.config import RulesConfig
from akvo.errors import AkvoError
from akvo.rules import Thresholds
from akvo.shots import Side, shot_on_chest, shot_on_mage
from akvo.tables import OddsGrid, odds_grid


def test_default_mage_grid_is_p_push() -> None:
    grid = odds_grid()
    assert (grid.kind, grid.metric, grid.interception_distance) == ("mage", "p_push", None)
    assert grid.value(1, 1) == Fraction(76415, 419904)
    for tier in range(1, 5):
        for distance in range(1, 5):
            assert grid.value(tier, distance) == shot_on_mage(tier, distance).p_push
            assert grid.values[tier - 1][distance - 1] == grid.value(tier, distance)


def test_chest_grid_defaults_to_expected_points() -> None:
    attack, defence = Side("attaque"), Side(resilience=2)
    grid = odds_grid("chest", attack, defence, interception_distance=2)
    assert grid.metric == "expected_points"
    assert grid.interception_distance == 2
    for tier in range(1, 5):
        assert grid.interception_threshold(tier) == (10, 12, 14, 16)[tier - 1]
        for distance in range(1, 5):
            shot = shot_on_chest(tier, distance, 2, attack, defence)
            assert grid.value(tier, distance) == shot.expected_points


def test_other_metrics() -> None:
    grid = odds_grid(metric="expected_push", defence=Side(egide=True))
    assert grid.value(4, 1) == shot_on_mage(4, 1, defence=Side(egide=True)).expected_push
    chest = odds_grid("chest", metric="p_score", interception_distance=None)
    assert chest.interception_distance is None
    assert chest.value(2, 2) == shot_on_chest(2, 2, None).attack.success
    assert chest.interception_threshold(2) is None


def test_thresholds_follow_souffle() -> None:
    plain = odds_grid()
    assert plain.thresholds(3, 4) == Thresholds(14, 10)
    blown = odds_grid(attack=Side(souffle=True))
    assert blown.thresholds(3, 4) == Thresholds(10, 14)  # read at distance 2
    assert blown.value(3, 3) == plain.value(3, 1)


def test_to_dict_is_plain_json() -> None:
    grid = odds_grid("chest", Side("relance", policy="critical"), interception_distance=3)
    data = json.loads(json.dumps(grid.to_dict()))
    assert data["kind"] == "chest" and data["metric"] == "expected_points"
    assert data["attack"]["rune"] == "relance" and data["attack"]["policy"] == "critical"
    assert data["interception_distance"] == 3
    assert data["rules"] == RulesConfig().to_dict()
    assert [Fraction(v) for v in data["values"][1]] == list(grid.values[1])
    assert data["floats"][3][0] == pytest.approx(float(grid.value(4, 1)))
    assert data["thresholds"][0][3] == [18, 6]
    assert data["tiers"] == data["distances"] == [1, 2, 3, 4]


def test_html_shows_tiers_distances_thresholds_and_exact_titles() -> None:
    grid = odds_grid(defence=Side("defense", resilience=1))
    page = grid._repr_html_()
    assert page.startswith("<table") and page.endswith("</table>")
    for label in (
        "Palier I<",
        "Palier IV",
        "1&nbsp;mille<",
        "4&nbsp;milles",
        "X&nbsp;6 · U&nbsp;18",
    ):
        assert label in page
    assert f'title="{grid.value(1, 1)}"' in page
    assert "18,2&nbsp;%" in odds_grid()._repr_html_()  # 76415/419904 ≈ 18.2 %
    assert "Résilience 1" in page and "rune de Défense" in page


def test_chest_html_shows_interception_threshold() -> None:
    page = odds_grid("chest", Side(vigie=True), interception_distance=4)._repr_html_()
    assert "interception U&nbsp;6" in page and "Vigie" in page and "0," in page


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: odds_grid("chest", metric="p_push"), "does not apply"),
        (lambda: odds_grid("mage", metric="expected_points"), "does not apply"),
        (lambda: odds_grid("boat"), "unknown shot kind"),
        (lambda: odds_grid().value(0, 1), "tier 0"),
        (lambda: odds_grid().value(1, 5), "distance 5"),
        (lambda: odds_grid("chest", defence=Side("defense"), interception_distance=None), "R20"),
    ],
)
def test_bad_grids_raise(call: object, message: str) -> None:
    with pytest.raises(AkvoError, match=message):
        call()  # type: ignore[operator]


def test_grid_is_frozen() -> None:
    grid = odds_grid()
    assert isinstance(grid, OddsGrid)
    with pytest.raises(AttributeError):
        grid.metric = "expected_push"  # type: ignore[misc]
