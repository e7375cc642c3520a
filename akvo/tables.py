"""Tier × distance grids of shot odds, for the book and for designers.

An :class:`OddsGrid` is a small typed table (4 wind tiers × 4 distances) of one metric of
:class:`~akvo.shots.ShotOdds`; it renders itself in Jupyter (``_repr_html_``, French labels,
as the book is French) and exports to plain JSON-able data (:meth:`OddsGrid.to_dict`).
"""

from __future__ import annotations

import html
from dataclasses import asdict, dataclass
from fractions import Fraction
from typing import Any, Literal

from akvo.config import DEFAULT_RULES, RulesConfig
from akvo.errors import ShotError, choice_index, excerpt, require_choice
from akvo.rules import DISTANCES, TIER_NUMERALS, TIERS, Thresholds, thresholds
from akvo.shots import NO_SIDE, SHOT_KINDS, ShotKind, ShotOdds, Side, shot

Metric = Literal["p_push", "expected_push", "p_score", "expected_points"]
#: The metrics that mean something for each kind of shot; the first is the default.
METRICS: dict[str, tuple[Metric, ...]] = {
    "mage": ("p_push", "expected_push"),
    "chest": ("expected_points", "p_score"),
}
METRIC_LABELS: dict[str, str] = {
    "p_push": "P(recul de la cible)",
    "expected_push": "Recul moyen de la cible (cases)",
    "p_score": "P(capture du coffre)",
    "expected_points": "Points marqués en moyenne",
}
_PROBABILITY_METRICS = ("p_push", "p_score")
_RUNE_LABELS = {
    None: "aucune rune",
    "attaque": "rune d’Attaque",
    "defense": "rune de Défense",
    "confusion": "rune de Confusion",
    "relance": "rune de Relance",
}


@dataclass(frozen=True, slots=True)
class OddsGrid:
    """One metric of a shot for every wind tier (rows I–IV) and distance (columns 1–4).

    ``values[tier - 1][distance - 1]`` is exact. Columns are the distances *before*
    Souffle portant when the attacking side uses it (R24); :meth:`thresholds` gives the
    matrix cell the shot really reads.
    """

    kind: ShotKind
    metric: Metric
    attack: Side
    defence: Side
    interception_distance: int | None
    values: tuple[tuple[Fraction, ...], ...]
    rules: RulesConfig = DEFAULT_RULES

    def value(self, tier: int, distance: int) -> Fraction:
        _check_cell(tier, distance)
        return self.values[tier - 1][distance - 1]

    def shot(self, tier: int, distance: int) -> ShotOdds:
        """The whole :class:`~akvo.shots.ShotOdds` behind one cell (cached)."""
        _check_cell(tier, distance)
        return shot(
            self.kind,
            tier,
            distance,
            self.interception_distance,
            self.attack,
            self.defence,
            rules=self.rules,
        )

    def thresholds(self, tier: int, distance: int) -> Thresholds:
        """X and U of the matrix cell the shot reads (at the distance after Souffle)."""
        return thresholds(tier, self.shot(tier, distance).distance)

    def interception_threshold(self, tier: int) -> int | None:
        """U of a chest shot's interception (R17), or None when there is none."""
        if self.kind != "chest" or self.interception_distance is None:
            return None
        return thresholds(tier, self.interception_distance).defence

    def to_dict(self) -> dict[str, Any]:
        """Plain data (str, int, float, bool, None, lists, dicts): ready for ``json.dumps``."""
        return {
            "kind": self.kind,
            "metric": self.metric,
            "label": METRIC_LABELS[self.metric],
            "attack": asdict(self.attack),
            "defence": asdict(self.defence),
            "interception_distance": self.interception_distance,
            "rules": self.rules.to_dict(),
            "tiers": list(TIERS),
            "distances": list(DISTANCES),
            "values": [[str(v) for v in row] for row in self.values],
            "floats": [[float(v) for v in row] for row in self.values],
            "thresholds": [[list(self.thresholds(t, d)) for d in DISTANCES] for t in TIERS],
        }

    def _repr_html_(self) -> str:
        head = "".join(
            f'<th style="text-align:center">{d}&nbsp;{"mille" if d == 1 else "milles"}</th>'
            for d in DISTANCES
        )
        rows = []
        for t in TIERS:
            row_label = f"Palier {TIER_NUMERALS[t]}"
            u_intercept = self.interception_threshold(t)
            if u_intercept is not None:
                row_label += f"<br><small>interception U&nbsp;{u_intercept}</small>"
            cells = "".join(self._cell_html(t, d) for d in DISTANCES)
            rows.append(f'<tr><th style="text-align:left">{row_label}</th>{cells}</tr>')
        caption = html.escape(self._caption())
        return (
            '<table class="akvo-odds-grid" style="border-collapse:collapse">'
            f'<caption style="caption-side:top;text-align:left">{caption}</caption>'
            f"<thead><tr><th></th>{head}</tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table>"
        )

    def _cell_html(self, tier: int, distance: int) -> str:
        value = self.value(tier, distance)
        x, u = self.thresholds(tier, distance)
        shown_u = u if self.kind == "mage" else None
        limits = f"X&nbsp;{x}" + (f" · U&nbsp;{shown_u}" if shown_u is not None else "")
        return (
            f'<td style="text-align:center;padding:0.2em 0.6em" title="{value}">'
            f"<b>{_format(value, self.metric)}</b><br><small>{limits}</small></td>"
        )

    def _caption(self) -> str:
        target = "tir sur un mage" if self.kind == "mage" else "tir sur un coffre"
        parts = [f"{METRIC_LABELS[self.metric]} — {target}"]
        if self.kind == "chest":
            parts.append(
                "sans interception"
                if self.interception_distance is None
                else f"interception à {self.interception_distance}"
            )
        parts.append("attaquant : " + _describe(self.attack, attacking=True))
        parts.append("défenseur : " + _describe(self.defence, attacking=False))
        return " ; ".join(parts)


def _format(value: Fraction, metric: str) -> str:
    if metric in _PROBABILITY_METRICS:
        return f"{float(value) * 100:.1f}&nbsp;%".replace(".", ",")
    return f"{float(value):.3f}".replace(".", ",")


def _describe(side: Side, *, attacking: bool) -> str:
    words = [_RUNE_LABELS[side.rune]]
    if side.rune == "relance":
        words[0] += " (pour " + ("le critique" if side.policy == "critical" else "réussir") + ")"
    if attacking and side.vigie:
        words.append("Vigie")
    if not attacking and side.resilience:
        words.append(f"Résilience {side.resilience}")
    if not attacking and side.egide:
        words.append("Égide")
    if side.tourbillon:
        words.append("Tourbillon")
    if attacking and side.souffle:
        words.append("Souffle portant")
    return ", ".join(words)


def _check_cell(tier: object, distance: object) -> None:
    for name, value, allowed in (("tier", tier, TIERS), ("distance", distance, DISTANCES)):
        if isinstance(value, bool) or not isinstance(value, int) or value not in allowed:
            raise ShotError(f"{name} {excerpt(value)} is outside {allowed[0]}–{allowed[-1]}")


def odds_grid(
    kind: ShotKind = "mage",
    attack: Side = NO_SIDE,
    defence: Side = NO_SIDE,
    *,
    metric: Metric | None = None,
    interception_distance: int | None = 1,
    rules: RulesConfig = DEFAULT_RULES,
) -> OddsGrid:
    """The 4 × 4 grid of ``metric`` (default: P(push) for a mage, expected points for a
    chest) for the given sides. ``interception_distance`` only matters for chest shots;
    ``None`` or outside 1–4 means no interception (R17)."""
    kind = require_choice("shot kind", kind, SHOT_KINDS, ShotError)
    metrics = METRICS[kind]
    index = 0 if metric is None else choice_index(metric, metrics)
    if index < 0:
        raise ShotError(f"metric {excerpt(metric)} does not apply to a {kind} shot; use {metrics}")
    chosen = metrics[index]
    if kind == "mage":
        interception_distance = None
    values = tuple(
        tuple(
            getattr(shot(kind, t, d, interception_distance, attack, defence, rules=rules), chosen)
            for d in DISTANCES
        )
        for t in TIERS
    )
    first = shot(kind, 1, 1, interception_distance, attack, defence, rules=rules)
    return OddsGrid(
        kind=kind,
        metric=chosen,
        attack=attack,
        defence=defence,
        interception_distance=first.interception_distance,
        values=values,
        rules=rules,
    )
