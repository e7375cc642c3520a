"""The rulings page: one live switch per rules variant (R8, R13, R18, R19, R20, R22) showing
what it changes in the engine's numbers, a button that measures its effect on who wins
(bot matches with 95 % intervals), and the rulebook's own contradictions (R19, R22, R26, R28).

Every number comes from :mod:`akvo.variants`, :mod:`akvo.shots`, :mod:`akvo.lab` or
:mod:`akvo.match.showcase`, computed under the :class:`~akvo.config.RulesConfig` chosen.
"""

from __future__ import annotations

import base64
from fractions import Fraction
from typing import Any

import ipywidgets as w
from IPython.display import Markdown

from akvo.bots import BOTS, LADDER
from akvo.config import DEFAULT_RULES, RulesConfig
from akvo.errors import AkvoError
from akvo.lab import Comparison, Interval, Results
from akvo.lab.results import paired_csv
from akvo.rules import (
    DISTANCES,
    DUPLICATED_PRESETS,
    PRESET_TEAMS,
    TURNS,
    Character,
    RuneCategory,
    miles,
    rune,
    runes_in,
)
from akvo.shots import Side, shot_on_mage
from akvo.switches import SWITCHES
from akvo.teams import preset_team
from akvo.variants import (
    MOVEMENT_SETUP,
    SHIP_SETUP,
    WEATHER_BAG,
    ShotChoice,
    best_own_attack,
    mouvement_before_shot,
    rouleau_advance,
    ship_double_advance,
    weather_favoured_turns,
    win_rates,
)
from akvo_widgets.kit import controls as c
from akvo_widgets.text.formatting import (
    NBSP,
    decimal,
    fraction,
    french,
    integer,
    percent,
    tier_numeral,
)

#: Where the shots of the prodige and grimoire switches are measured.
TIER, DISTANCE = 2, 2
GRIMOIRE_TEAM = "perrockiss"


def _odds(p: Fraction, css: str) -> str:
    return f"<b class='{css}'>{percent(p)}</b> <span class='akvo-fraction'>({fraction(p)})</span>"


def weather_html(rules: RulesConfig) -> str:
    odds = weather_favoured_turns(rules)
    half, turns = WEATHER_BAG[0], len(TURNS)
    even = odds.get(half, Fraction(0))
    lopsided = sum((p for n, p in odds.items() if abs(n - half) >= 2), Fraction(0))
    return french(
        f"<p>Chance que chaque camp agisse en premier à exactement {half} des {turns} tours : "
        f"{_odds(even, 'akvo-variant-weather-value')}. Chance qu’un camp soit avantagé à "
        f"{half + 2} tours ou plus : {_odds(lopsided, 'akvo-variant-weather-lopsided')}.</p>"
    )


def prodige_html(rules: RulesConfig) -> str:
    cases = (
        (
            "Le défenseur joue Confusion : prodige du tireur (3 dés)",
            Side(),
            Side(rune="confusion"),
            "attack",
        ),
        (
            "Le tireur joue Confusion : prodige du défenseur (3 dés)",
            Side(rune="confusion"),
            Side(),
            "defence",
        ),
        ("Sans rune : prodige du tireur (4 dés)", Side(), Side(), "attack"),
    )
    rows = []
    for i, (label, attack, defence, roll) in enumerate(cases):
        shot = shot_on_mage(TIER, DISTANCE, attack, defence, rules=rules)
        p = shot.attack_prodige if roll == "attack" else shot.defence_prodige
        rows.append(
            [
                c.cell(french(label)),
                c.cell(percent(p), f"akvo-variant-prodige-{i}"),
                c.cell(fraction(p), "akvo-fraction"),
            ]
        )
    title = f"<p>Tir sur un mage, palier {tier_numeral(TIER)}, {DISTANCE} miles :</p>"
    return french(title) + c.table(["Cas", "Chance d’un prodige", "Fraction"], rows)


def grimoire_html(rules: RulesConfig) -> str:
    team = preset_team(GRIMOIRE_TEAM)
    rows = []
    for character in Character:
        categories = ", ".join(r.category.label for r in team.runes_of(character, rules))
        best, p = best_own_attack(team, character, TIER, DISTANCE, rules)
        rows.append(
            [
                c.cell(character.label),
                c.cell(f"{team.letters(character)} : {categories}"),
                c.cell(best.label if best else "aucune"),
                c.cell(percent(p), f"akvo-variant-grimoire-{character.name.lower()}"),
            ]
        )
    title = (
        f"<p>{PRESET_TEAMS[GRIMOIRE_TEAM].name} : la meilleure rune personnelle de chaque mage"
        f" pour repousser une cible au palier {tier_numeral(TIER)}, à {DISTANCE} miles :</p>"
    )
    header = ["Mage", "Runes et catégories", "Meilleure rune", "Chance de repousser"]
    return french(title) + c.table(header, rows)


def rune_u_html(rules: RulesConfig) -> str:
    from akvo.match.showcase import highest_score

    best = highest_score(rules=rules)
    return french(
        f"<p>Score le plus haut que le moteur atteigne (R26), avec la rune U chez le "
        f"Pédalair : <b class='akvo-variant-rune_u-value'>{best.total}</b> points.</p>"
    )


def _rune_names(letters: tuple[str, ...], rules: RulesConfig) -> str:
    """``N (Attaque), F (Confusion)``, or ``aucune``."""
    named = [f"{letter} ({rune(letter, rules).category.label})" for letter in letters]
    return ", ".join(named) or "aucune"


def _choice_row(label: str, choice: ShotChoice, rules: RulesConfig, css: str) -> list[str]:
    best = f" (avec {choice.best_rune})" if choice.best_rune else ""
    return [
        c.cell(french(label)),
        c.cell(f"{choice.distance}{NBSP}miles"),
        c.cell(_rune_names(choice.runes, rules)),
        c.cell(f"<b class='{css}'>{percent(choice.p_push)}</b>{best}"),
    ]


def mouvement_html(rules: RulesConfig) -> str:
    """R18 + R20: the shooter's two choices on the engine's position, with the runes the
    engine lets it add after its Mouvement rune under ``rules``."""
    effect = mouvement_before_shot(rules)
    turn = MOVEMENT_SETUP["turn"]
    title = (
        f"<p>Début du tour {turn} (palier {tier_numeral(effect.tier)}) : le Kitesurfeur de A,"
        f" sur sa ligne {effect.still.row}, tire sur le Kitesurfeur de B, à "
        f"{effect.still.distance} miles dans son couloir. Il peut d’abord jouer sa rune de "
        f"Mouvement {effect.rune} pour avancer d’une case.</p>"
    )
    field = "akvo-variant-mouvement_rune"
    rows = [
        _choice_row("Tirer sans bouger", effect.still, rules, f"{field}-still"),
        _choice_row(
            f"Jouer {effect.rune}, avancer, puis tirer", effect.moved, rules, f"{field}-moved"
        ),
    ]
    header = ["Choix", "Distance", "Runes de tir permises", "Chance de repousser"]
    verdict = (
        f"<p>Meilleure chance de repousser la cible avec cette lecture : "
        f"{_odds(effect.best, f'{field}-value')}.</p>"
    )
    return french(title) + c.table(header, rows) + french(verdict)


def ship_html(rules: RulesConfig) -> str:
    """R20 with the double token: how far the ship goes, and the chest shot from there."""
    advance = ship_double_advance(rules)
    turn = MOVEMENT_SETUP["turn"]
    runes = ", ".join(advance.runes) or "aucune"
    field = "akvo-variant-ship_advance_runes"
    return french(
        f"<p>Début du tour {turn} (palier {tier_numeral(advance.tier)}) : le navire de A, en "
        f"ligne {advance.row_before}, a reçu le double jeton Avancer/Avancer ; le navire de B "
        f"est resté en ligne {SHIP_SETUP['rows']['B']['navire']}. En jouant toutes les runes "
        f"de Mouvement que le moteur lui permet "
        f"({runes}), il avance de <b class='{field}-value'>{advance.cells}</b> cases, "
        f"jusqu’à la ligne {advance.row}.</p>"
        f"<p>De là, le Barreur tire sur le coffre à {advance.chest_distance} miles : "
        f"<b class='{field}-points'>{decimal(advance.chest_points, 2)}</b> point en moyenne "
        f"<span class='akvo-fraction'>({fraction(advance.chest_points)})</span>.</p>"
    )


def rouleau_html(rules: RulesConfig) -> str:
    """R20 with R24: how far Rouleau takes the Surfeur, and the chest it brings in range."""
    advance = rouleau_advance(rules)
    field = "akvo-variant-rouleau_mouvement"
    offered = ", ".join(advance.runes_offered) or "aucune"
    played = f", avec la rune {advance.rune}" if advance.rune else ""
    reach = "à portée" if advance.chest_distance <= DISTANCES[-1] else "hors de portée"
    return french(
        f"<p>Début du tour {MOVEMENT_SETUP['turn']} (palier {tier_numeral(advance.tier)}) : "
        f"le Surfeur de A, en ligne {advance.row_before}, repousse le Surfeur de B et déclare "
        f"Rouleau. Runes de Mouvement que le moteur lui propose avec Rouleau : {offered}. Il "
        f"avance de <b class='{field}-value'>{advance.cells}</b>{NBSP}"
        f"{'case' if advance.cells == 1 else 'cases'}{played}, jusqu’à la ligne {advance.row} :"
        f" le coffre de son couloir est à <b class='{field}-chest'>"
        f"{miles(advance.chest_distance).replace(' ', NBSP)}</b>, {reach} pour le tour suivant.</p>"
    )


_VIEWS = {
    "weather": weather_html,
    "prodige": prodige_html,
    "grimoire": grimoire_html,
    "rune_u": rune_u_html,
    "mouvement_rune": mouvement_html,
    "ship_advance_runes": ship_html,
    "rouleau_mouvement": rouleau_html,
}

#: The simulation behind each variant's « Simuler l’effet sur les victoires » button, by
#: default; the designer chooses N (:data:`MATCH_RANGE`), the bots and the teams.
MATCHES, SEED, BOTS_PLAYING, TEAMS = 200, 1, ("greedy", "greedy"), ("perrockiss", "fish-tank")
MATCH_RANGE = (200, 10_000)
#: The ladder, weakest first, then the bots off it (« hasard »).
BOT_CHOICES = [(BOTS[name], name) for name in (*LADDER, *(n for n in BOTS if n not in LADDER))]
TEAM_CHOICES = [(preset.name, key) for key, preset in PRESET_TEAMS.items()]


def download_link(text: str, filename: str, label: str, css: str) -> str:
    """A link that downloads ``text`` as a CSV file from a data: URI (nothing is stored)."""
    payload = base64.b64encode(text.encode()).decode()
    return (
        f'<a class="{css}" download="{filename}" href="data:text/csv;base64,{payload}">'
        f"{french(label)}</a>"
    )


def _number(value: float, signed: bool = False) -> str:
    """``-0.0204`` → ``−0,020``; with ``signed``, ``+0,033`` too (true minus sign)."""
    text = decimal(value, 3).replace("-", "\u2212")
    return f"+{text}" if signed and value > 0 else text


def points_text(interval: Interval, signed: bool = False) -> str:
    """``−0,020 (de −0,073 à +0,033)``: a mean of match points and its 95 % interval."""
    low, high = _number(interval.low, signed), _number(interval.high, signed)
    return f"{_number(interval.estimate, signed)} (de {low} à {high})"


def wins_html(
    field: str,
    default: Results,
    variant: Results,
    comparison: Comparison,
    teams: tuple[str, str] = TEAMS,
) -> str:
    """Side A's win rate under both rules (95 % Wilson intervals), its mean match points
    and their paired difference (95 % t interval), as the run measured them."""
    from .lab import interval_text  # with bqplot: paid on the first click, not on page load

    team_a = PRESET_TEAMS[teams[0]].name
    css = f"akvo-variant-{field}-wins"
    one, two = default.summary(), variant.summary()
    rows = [
        [
            c.cell(f"Victoires de A ({team_a})"),
            c.cell(interval_text(one.p_a), f"{css}-default"),
            c.cell(interval_text(two.p_a), f"{css}-variant"),
        ],
        [
            c.cell("Points de match de A (victoire 1, nul ½)"),
            c.cell(points_text(comparison.first), f"{css}-points-default"),
            c.cell(points_text(comparison.second), f"{css}-points-variant"),
        ],
    ]
    header = [f"Mesure (intervalle à 95{NBSP}%)", "Lecture par défaut", "Variante"]
    played = coverage_html(field, comparison)
    if not comparison.exercised:
        return c.table(header, rows) + played
    delta = comparison.delta
    if delta.low > 0 or delta.high < 0:
        side = "A" if delta.low > 0 else "B"
        verdict = f"la variante favorise {side} de façon mesurable."
    else:
        verdict = "l’intervalle contient 0 : sur ces matchs, pas d’effet mesurable."
    changed = comparison.changed
    text = french(
        f"<p>Différence appariée des points de match de A (variante moins défaut) : "
        f"<b class='{css}-delta'>{points_text(delta, signed=True)}</b> ; {verdict} "
        f"Vainqueur changé dans <b class='{css}-changed'>{integer(changed)}</b>"
        f" {'match' if changed < 2 else 'matchs'} sur {integer(comparison.matches)}.</p>"
        + _luck_text(comparison, css)
    )
    return c.table(header, rows) + text + played


def _luck_text(comparison: Comparison, css: str) -> str:
    """The paired difference once the dice luck is accounted for (each roll's luck weighed
    by what it put at stake, of mean 0 under either reading: :mod:`akvo.lab.stats`), and
    how much narrower its interval is than two independent runs' — what the common dice
    and the luck bought."""
    luck = comparison.luck
    if luck is None or not any(luck.betas):  # too few matches to fit it: nothing to add
        return ""
    gain = comparison.luck_gain
    if comparison.identical:
        narrower = "identique à la lecture par défaut"
    elif gain != float("inf"):
        narrower = (
            f"un intervalle {decimal(gain, 1)} fois plus étroit que celui de deux séries de "
            "matchs indépendantes"
        )
    else:
        narrower = "sans incertitude"
    return (
        "<p>La même différence, corrigée de la chance aux dés (chaque jet pesé par ce "
        "qu’il mettait en jeu ; une correction nulle en moyenne) : "
        f"<b class='{css}-luck'>{points_text(luck.delta, signed=True)}</b>, {narrower}.</p>"
    )


def _times(count: int) -> str:
    return f"{integer(count)} fois" if count != 1 else "une fois"


def coverage_html(field: str, comparison: Comparison) -> str:
    """In how many matches the rule came into play (« matchs où la règle a joué ») and how
    often under each reading — or that the bots never brought it into play."""
    rule = next((r for r in comparison.rules if r.field == field), None)
    css = f"akvo-variant-{field}-played"
    if rule is None or not rule.counted:
        return french(
            "<p>Le laboratoire ne compte pas encore les situations où cette règle joue.</p>"
        )
    if not rule.played:
        return french(
            f"<p class='{css}'><b>Règle jamais en jeu</b> : sur ces {integer(rule.total)} "
            "matchs, les bots n’ont jamais rencontré la situation où les deux lectures "
            "diffèrent ; aucun effet ne peut être mesuré (ce n’est pas un effet nul).</p>"
        )
    return french(
        f"<p>Matchs où la règle a joué ({SWITCHES[field].played}) : "
        f"<b class='{css}'>{integer(rule.matches)}</b> sur "
        f"{integer(rule.total)} ({_times(rule.first)} avec la lecture par défaut, "
        f"{_times(rule.second)} avec la variante).</p>"
    )


class WinRates(w.VBox):
    """A button that plays N bot matches under the default rules and again, on the same
    seeds, with ``field`` switched, then shows the win rates with their intervals and a CSV
    download of every match of both runs.

    Nothing is played before the click, and the settings (N from 200 to 10 000, the bots,
    the teams), the progress bar and the result area are created on first use: a page of
    six switches opens with three small widgets each. :meth:`run` does what the button does.
    """

    def __init__(self, field: str, matches: int = MATCHES, seed: int = SEED) -> None:
        self.field, self.default_matches, self.seed = field, matches, seed
        self.intro = intro = c.html("akvo-variant-wins-intro")
        intro.value = self._intro(matches, BOTS_PLAYING, TEAMS)
        self.button = w.Button(
            description="Simuler l’effet sur les victoires",
            layout=w.Layout(width="auto", max_width="100%"),
        )
        self.button.add_class("akvo-variant-simulate")
        self.button.add_class(f"akvo-variant-{field}-simulate")
        self.choose = w.Button(
            description="Choisir N, les bots, les équipes…",
            layout=w.Layout(width="auto", max_width="100%"),
        )
        self.choose.add_class(f"akvo-variant-{field}-choose")
        self.settings: dict[str, Any] | None = None
        self.status: w.HTML | None = None
        self.progress: w.IntProgress | None = None
        self.result: w.HTML | None = None
        self.comparison: Comparison | None = None
        super().__init__([intro, self.choose, self.button])
        self.button.on_click(lambda _button: self.run())
        self.choose.on_click(lambda _button: self._settings())

    @property
    def matches(self) -> int:
        return self.settings["matches"].value if self.settings else self.default_matches

    def _intro(self, n: int, bots: tuple[str, str], teams: tuple[str, str]) -> str:
        a, b = (PRESET_TEAMS[key].name for key in teams)
        players = (
            f"deux bots « {BOTS[bots[0]]} »"
            if bots[0] == bots[1]
            else f"un bot « {BOTS[bots[0]]} » (A) et un bot « {BOTS[bots[1]]} » (B)"
        )
        return french(
            f"<p>Et sur qui gagne ? {integer(n)} matchs entre {players}, "
            f"{a} (A) contre {b} (B), graine {self.seed}, avec la lecture par défaut puis avec "
            "la variante, sur les mêmes tirages de dés.</p>"
        )

    def _choice(self) -> tuple[int, tuple[str, str], tuple[str, str]]:
        if not self.settings:
            return self.default_matches, BOTS_PLAYING, TEAMS
        get = {key: box.value for key, box in self.settings.items()}
        return get["matches"], (get["bot_a"], get["bot_b"]), (get["team_a"], get["team_b"])

    def _settings(self) -> dict[str, Any]:
        """N, the bots and the teams, shown below the intro on first use."""
        if self.settings is None:
            css = f"akvo-variant-{self.field}"
            low, high = MATCH_RANGE
            matches = c.slider("Matchs", low, high, max(low, self.default_matches), f"{css}-n")
            matches.step = 100
            self.settings = {
                "matches": matches,
                "bot_a": c.dropdown("Bot de A", BOT_CHOICES, BOTS_PLAYING[0], f"{css}-bot-a"),
                "bot_b": c.dropdown("Bot de B", BOT_CHOICES, BOTS_PLAYING[1], f"{css}-bot-b"),
                "team_a": c.dropdown("Équipe A", TEAM_CHOICES, TEAMS[0], f"{css}-team-a"),
                "team_b": c.dropdown("Équipe B", TEAM_CHOICES, TEAMS[1], f"{css}-team-b"),
            }
            for box in self.settings.values():
                box.observe(lambda _change: self._retell(), names="value")
            self.choose.layout.display = "none"
            rest = [self.button, *self._run_widgets()]
            self.children = [self.intro, *self.settings.values(), *rest]
        return self.settings

    def _run_widgets(self) -> list[w.Widget]:
        shown = (self.status, self.progress, self.result)
        return [widget for widget in shown if widget is not None]

    def _retell(self) -> None:
        self.intro.value = self._intro(*self._choice())

    def _run_area(self) -> tuple[w.HTML, w.IntProgress, w.HTML]:
        """The status line, the progress bar and the result area, added on first use."""
        if self.status is None or self.progress is None or self.result is None:
            self.status = c.html(f"akvo-variant-{self.field}-status")
            # No description: on a phone a labelled bar wraps to zero width; the text says it.
            self.progress = w.IntProgress(
                value=0, min=0, max=1, layout=w.Layout(width="100%", max_width="30em")
            )
            self.progress.add_class(f"akvo-variant-{self.field}-progress")
            self.result = c.html(f"akvo-variant-{self.field}-wins")
            settings = list(self.settings.values()) if self.settings else [self.choose]
            self.children = [self.intro, *settings, self.button, *self._run_widgets()]
        return self.status, self.progress, self.result

    def run(self) -> Comparison | None:
        """Play both simulations (in this kernel, no cluster) and show their comparison."""
        status, progress, result = self._run_area()
        n, bots, teams = self._choice()
        self.button.disabled = True
        result.value = ""  # the last run's figures go while the new one plays
        self._progress(0, 2 * n)
        try:
            default, variant, comparison = win_rates(
                self.field, n, self.seed, bots, teams, on_progress=self._progress
            )
        except AkvoError as error:
            status.value = french(f"<p>La simulation a échoué : {error}</p>")
            return None
        finally:
            self.button.disabled = False
            progress.layout.display = "none"
        self.comparison = comparison
        status.value = french(
            f"<p class='akvo-variant-count'>Terminé : {integer(2 * len(default))} matchs joués.</p>"
        )
        table = paired_csv((("defaut", default), ("variante", variant)))
        link = download_link(
            table,
            f"akvo-{self.field}.csv",
            f"Télécharger les {integer(2 * len(default))} matchs des deux lectures (CSV)",
            f"akvo-variant-{self.field}-download",
        )
        result.value = wins_html(self.field, default, variant, comparison, teams) + (
            f"<p>{link}</p>"
        )
        return comparison

    def _progress(self, done: int, total: int) -> None:
        status, progress, _result = self._run_area()
        progress.layout.display = None
        progress.max, progress.value = total, done
        status.value = french(
            f"<p class='akvo-variant-count'><b>Simulation en cours</b> : {integer(done)} "
            f"matchs joués sur {integer(total)}…</p>"
        )


class VariantSwitch(w.VBox):
    """One variant of :class:`RulesConfig`: a drop-down of its two readings, their effect
    on the numbers, and the button that measures their effect on who wins."""

    def __init__(self, field: str, matches: int = MATCHES) -> None:
        if field not in SWITCHES:
            raise ValueError(f"unknown rules variant {field!r}; choose one of {list(SWITCHES)}")
        self.field = field
        label = f"Variante ({SWITCHES[field].ruling})"
        default = getattr(DEFAULT_RULES, field)
        switch = SWITCHES[field]
        readings = [(switch.reading(option), option) for option in switch.options]
        self.reading = c.dropdown(label, readings, default, f"akvo-variant-{field}")
        self.result = c.html("akvo-odds")
        self.wins = WinRates(field, matches)
        self.rules = DEFAULT_RULES
        super().__init__([c.panel([self.reading, self.result, self.wins], "akvo-variant")])
        self.reading.observe(self._update, names="value")
        self._update()

    def _update(self, _change: Any = None) -> None:
        self.rules = DEFAULT_RULES.with_(**{self.field: self.reading.value})
        view = _VIEWS.get(self.field)
        self.result.value = view(self.rules) if view else reading_html(self.field, self.rules)


def reading_html(field: str, rules: RulesConfig) -> str:
    """The view of a switch without numbers of its own on this page: the reading chosen
    and when the rule comes into play, from the registry."""
    switch = SWITCHES[field]
    chosen = switch.reading(getattr(rules, field))
    return french(
        f"<p>Lecture choisie ({switch.ruling}) : <b class='akvo-variant-{field}-reading'>"
        f"{chosen}</b>. Le laboratoire compte les moments où elle joue : {switch.played}.</p>"
    )


def other_switches(*shown: str) -> w.VBox | Markdown:
    """Every switch of the registry the page has not shown yet (``shown``; by default those
    with a view of their own above, :data:`_VIEWS`), each with its live view: a switch added
    to :data:`akvo.switches.SWITCHES` appears here by itself."""
    shown = shown or tuple(_VIEWS)
    unknown = [field for field in shown if field not in SWITCHES]
    if unknown:
        raise ValueError(f"unknown rules variants {unknown}; choose among {list(SWITCHES)}")
    others = [field for field in SWITCHES if field not in shown]
    if not others:
        return _md(
            f"Toutes les variantes que le moteur sait jouer ({len(SWITCHES)}) sont "
            "présentées ci-dessus."
        )
    return w.VBox([VariantSwitch(field) for field in others])


def _md(text: str) -> Markdown:
    return Markdown(french(text))  # type: ignore[no-untyped-call]


def duplicated_teams() -> Markdown:
    """R28: the annex's three identical lists, as the engine loads them."""
    lines = [
        f"- {PRESET_TEAMS[key].name} ({PRESET_TEAMS[key].strategy}) : `{preset_team(key)}`"
        for key in DUPLICATED_PRESETS
    ]
    same = len({str(preset_team(k)) for k in DUPLICATED_PRESETS}) == 1
    verdict = "une seule et même liste" if same else "des listes différentes"
    return _md("\n".join(lines) + f"\n\nTrois stratégies, {verdict}.")


def highest_score_versus_final() -> Markdown:
    """R26: the printed final 102–108 against the highest score the rules allow."""
    from akvo.match.showcase import highest_score

    best = highest_score()
    return _md(
        f"Le plus haut score que le moteur atteigne en jouant la partie idéale est de "
        f"**{best.total} points** (borne démontrée : {best.bound}) : ni 102 ni 108 ne sont "
        f"possibles avec les seuls coffres."
    )


def letter_u() -> Markdown:
    """R19/R22: the letter U is a rune (Ultime, symbol O) and the Défense symbol."""
    ultime = rune("U")
    defence = [r.letter for r in runes_in(RuneCategory.DEFENSE)]
    return _md(
        f"Dans le grimoire, la lettre U est la rune « {ultime.name} », de symbole "
        f"{ultime.symbol} ; mais le symbole U marque aussi la catégorie Défense "
        f"({', '.join(defence)}), comme le U des seuils de défense de la matrice."
    )
