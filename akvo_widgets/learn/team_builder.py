"""TeamBuilder: type a team list or pick a preset (R27), see each character's runes, name
the six mages from their letters, and download a printable score sheet.

The parsing and the runes come from :mod:`akvo.teams` and :mod:`akvo.rules`; this module
only lays them out and says every mistake in French from the error's fields, marking where
it is in the typed list (:mod:`akvo_widgets.text.team_errors`).
"""

from __future__ import annotations

import base64
from html import escape
from typing import Any

import ipywidgets as w

from akvo.errors import TeamError
from akvo.rules import CHARACTERS, DUPLICATED_PRESETS, PRESET_TEAMS, Character, Rune
from akvo.teams import Team, parse_team
from akvo_widgets.kit import controls as c
from akvo_widgets.text.formatting import french
from akvo_widgets.text.labels import SHEET_SIDES
from akvo_widgets.text.team_errors import mistake_html, team_error_french

#: The drop-down's value for a list typed by the reader.
CUSTOM = "custom"
#: The two sides of the rulebook's score sheet.
_STYLE = {"description_width": "11em"}
_LAYOUT = {"width": "36em", "max_width": "100%"}
_LINK_STYLE = (
    "display:inline-block;margin-top:.5em;padding:.4em .9em;border:1px solid #2a7fb8;"
    "border-radius:4px;background:#eef6f9;color:#0b4f6c;font-weight:600;text-decoration:none"
)


def preset_choices() -> list[tuple[str, str]]:
    options = [(f"{p.name} ({p.strategy})", key) for key, p in PRESET_TEAMS.items()]
    return [*options, ("Ma propre liste", CUSTOM)]


def default_mage_name(team: Team, character: Character) -> str:
    """A mage's name spelled with its own four letters, as the annex teams allow (« Legs »)."""
    return team.letters(character).capitalize()


def foreign_letters(team: Team, character: Character, name: str) -> str:
    """The letters of ``name`` that are neither the mage's runes nor the team's bonus runes."""
    own = set(team.letters(character) + team.bonus)
    letters = [ch for ch in name.upper() if "A" <= ch <= "Z"]
    return "".join(sorted({ch for ch in letters if ch not in own}))


def _rune(rune: Rune) -> str:
    css = f"akvo-rune akvo-rune-{rune.category.value}"
    return (
        f'<span class="{css}"><b>{rune.letter}</b> {escape(rune.name)} '
        f"<small>({rune.category.label})</small></span>"
    )


def runes_table(team: Team) -> str:
    """Lane, character, its four runes with their categories; then the two bonus runes."""
    rows = [
        [
            c.cell(str(character.lane)),
            c.cell(f"{character.label} <small>({character.role})</small>"),
            c.cell(" · ".join(_rune(r) for r in team.runes_of(character)), "akvo-team-runes-of"),
        ]
        for character in CHARACTERS
    ]
    bonus = " · ".join(_rune(r) for r in team.bonus_runes())
    rows.append([c.cell(""), c.cell("Runes bonus"), c.cell(bonus, "akvo-team-bonus")])
    table = c.table(["Couloir", "Personnage", "Ses runes"], rows)
    return table.replace("<td", '<td style="text-align:left"').replace(
        "<th>", '<th style="text-align:left">'
    )


def misprint_note(team: Team) -> str:
    """R28: the annex prints the same list for three teams with three strategies."""
    shared = parse_team(PRESET_TEAMS[DUPLICATED_PRESETS[0]].team_list)
    if str(team) != str(shared):
        return ""
    names = ", ".join(PRESET_TEAMS[k].name for k in DUPLICATED_PRESETS)
    return french(
        f"Attention : le livret imprime cette même liste pour trois équipes ({names}), "
        "avec trois stratégies différentes. C’est sans doute une coquille (R28) : "
        "le livre la charge telle qu’imprimée."
    )


class TeamEditor(w.VBox):  # type: ignore[misc]
    """One team of the score sheet: preset or typed list, team name and mage names.

    ``team`` is the parsed :class:`akvo.teams.Team` (``None`` while the list is wrong, and
    ``error`` then holds the French message).
    """

    def __init__(self, side: str = SHEET_SIDES[0], preset: str = "perrockiss") -> None:
        self.side = side
        self.preset = c.dropdown("Équipe du livret", preset_choices(), preset, "akvo-team-preset")
        self.team_list = w.Text(
            description="Liste (R27)", style=_STYLE, layout=_LAYOUT, continuous_update=True
        )
        self.team_list.add_class("akvo-team-list")
        self.team_name = w.Text(description="Nom d’équipe", style=_STYLE, layout=_LAYOUT)
        self.team_name.add_class("akvo-team-name")
        self.mage_names = {
            ch: w.Text(description=f"{ch.role} ({ch.label})", style=_STYLE, layout=_LAYOUT)
            for ch in CHARACTERS
        }
        for character, box in self.mage_names.items():
            box.add_class(f"akvo-team-mage-{character.name.lower()}")
        self.message = c.html("akvo-team-message")
        self.mistake = c.html("akvo-team-mistake")
        self.runes = c.html("akvo-table")
        self.runes.add_class("akvo-team-runes")
        self.names_note = c.html("akvo-team-names-note")
        self.team: Team | None = None
        self.error = ""
        self._syncing = False
        super().__init__(
            [
                self.preset,
                self.team_list,
                self.message,
                self.mistake,
                self.runes,
                self.team_name,
                *self.mage_names.values(),
                self.names_note,
            ]
        )
        self.add_class("akvo-team-editor")
        self.preset.observe(self._on_preset, names="value")
        self.team_list.observe(self._on_list, names="value")
        for box in self.mage_names.values():
            box.observe(self._check_names, names="value")
        self._on_preset()

    def _on_preset(self, _change: Any = None) -> None:
        key = self.preset.value
        if key == CUSTOM:
            return
        preset = PRESET_TEAMS[key]
        with c.syncing(self):
            self.team_name.value = preset.name
            self.team_list.value = str(parse_team(preset.team_list))
        self._parse(reset_names=True)

    def _on_list(self, _change: Any = None) -> None:
        if self._syncing:
            return
        key = self.preset.value
        if key != CUSTOM and self.team_list.value != str(parse_team(PRESET_TEAMS[key].team_list)):
            with c.syncing(self):
                self.preset.value = CUSTOM
        self._parse(reset_names=True)

    def _parse(self, *, reset_names: bool) -> None:
        try:
            team = parse_team(self.team_list.value)
        except TeamError as error:
            self.team, self.error = None, team_error_french(error)
            self.message.value = f'<p class="akvo-note akvo-team-error">{escape(self.error)}</p>'
            marked = mistake_html(self.team_list.value, error)
            here = french("L’erreur est ici :")
            self.mistake.value = f"<p>{here} <code>{marked}</code></p>" if marked else ""
            self.runes.value = ""
            self._check_names()
            return
        self.team, self.error = team, ""
        self.mistake.value = ""
        note = misprint_note(team)
        ok = f"Liste valide : {team}."
        self.message.value = f'<p class="akvo-team-ok">{escape(french(ok))}</p>' + (
            f'<p class="akvo-note akvo-team-misprint">{escape(note)}</p>' if note else ""
        )
        self.runes.value = runes_table(team)
        if reset_names:
            for character, box in self.mage_names.items():
                box.value = default_mage_name(team, character)
        self._check_names()

    def _check_names(self, _change: Any = None) -> None:
        team = self.team
        if team is None:
            self.names_note.value = ""
            return
        notes = []
        for character, box in self.mage_names.items():
            foreign = foreign_letters(team, character, box.value)
            if foreign:
                notes.append(
                    f"{box.value or '…'} ({character.label}) utilise les lettres "
                    f"{', '.join(foreign)}, qui ne sont pas parmi ses runes."
                )
        text = " ".join(notes) or (
            "Chaque nom s’écrit avec les lettres des runes du mage (et les deux runes bonus)."
        )
        self.names_note.value = f"<p>{escape(french(text))}</p>"

    def names(self) -> dict[Character, str]:
        return {ch: box.value.strip() for ch, box in self.mage_names.items()}


def score_sheet_html(editors: tuple[TeamEditor, TeamEditor]) -> str:
    """A whole printable page (HTML with print CSS): both teams, their mages, the score."""

    def column(editor: TeamEditor) -> str:
        names = editor.names()
        rows = "".join(
            f"<tr><th>{escape(ch.role)}</th><td>{escape(names[ch]) or '&nbsp;'}</td></tr>"
            for ch in CHARACTERS
        )
        listed = escape(str(editor.team)) if editor.team else "&nbsp;"
        return (
            f"<section><h2>« {escape(editor.side)} »</h2>"
            f"<p>Équipe : <b>{escape(editor.team_name.value) or '&nbsp;'}</b></p>"
            f"<p><small>Liste : {listed}</small></p>"
            f"<table>{rows}</table>"
            '<p class="score">Score final : <span class="box"></span></p></section>'
        )

    style = (
        "body{font-family:sans-serif;margin:2em;color:#123}"
        "main{display:flex;gap:2em;flex-wrap:wrap}section{flex:1;min-width:16em}"
        "table{border-collapse:collapse;width:100%}th,td{border:1px solid #789;padding:.4em;"
        "text-align:left}.box{display:inline-block;width:4em;height:1.6em;border:2px solid #123;"
        "vertical-align:middle}"
        ".stats{margin-top:2em;border:1px dashed #789;height:6em;padding:.4em}"
        "@media print{button{display:none}body{margin:1cm}}"
    )
    body = "".join(column(e) for e in editors)
    return french(
        '<!DOCTYPE html><html lang="fr"><head><meta charset="utf-8">'
        f"<title>Akvolition — feuille de score</title><style>{style}</style></head><body>"
        '<button onclick="window.print()">Imprimer</button>'
        "<h1>Akvolition — feuille de score</h1>"
        f"<main>{body}</main>"
        '<div class="stats">Statistiques du match :</div></body></html>'
    )


class TeamBuilder(w.VBox):  # type: ignore[misc]
    """Both teams of a match (one tab each) and the score sheet to download and print."""

    def __init__(self, team_a: str = "perrockiss", team_b: str = "fish-tank") -> None:
        self.editors = (TeamEditor(SHEET_SIDES[0], team_a), TeamEditor(SHEET_SIDES[1], team_b))
        self.tabs = w.Tab(children=list(self.editors))
        for index, side in enumerate(SHEET_SIDES):
            self.tabs.set_title(index, french(f"« {side} »"))
        self.download = c.html("akvo-score-sheet")
        super().__init__()
        self.children = [c.panel([self.tabs, self.download], "akvo-team-builder")]
        for editor in self.editors:
            for control in (editor.team_list, editor.team_name, *editor.mage_names.values()):
                control.observe(self._update, names="value")
        self._update()

    def sheet(self) -> str:
        return score_sheet_html(self.editors)

    def _update(self, _change: Any = None) -> None:
        data = base64.b64encode(self.sheet().encode()).decode()
        self.download.value = (
            f'<a class="akvo-score-sheet-link" download="feuille-de-score-akvolition.html" '
            f'href="data:text/html;charset=utf-8;base64,{data}" target="_blank" '
            f'style="{_LINK_STYLE}">Imprimer la feuille de score (télécharger la page)</a>'
        )
