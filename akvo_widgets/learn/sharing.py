"""TeamSharing: who plays which characters at 2, 4 or 6 players (annex « Jeu en équipes »).

The sharing itself (who holds what, evenness, a shared ship) is :mod:`akvo.online.sharing`,
which the online tables use too; this module shows it and the annex's advice in French.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as w

from akvo.online.sharing import default_split, player_counts, ship_holders
from akvo.rules import CHARACTERS, Character
from akvo_widgets.kit import controls as c
from akvo_widgets.text.formatting import french

PLAYERS = (
    (("2 joueurs (1 contre 1)"), 2),
    ("4 joueurs (2 contre 2)", 4),
    ("6 joueurs (3 contre 3)", 6),
)


def sharing_notes(split: dict[Character, int], per_side: int) -> list[str]:
    """What the annex says about this split: evenness and the ship's double token."""
    counts = player_counts(split, per_side)
    notes = []
    if max(counts) - min(counts) > 1:
        shown = ", ".join(f"joueur {i} : {n}" for i, n in enumerate(counts, start=1))
        notes.append(
            f"Partage inégal ({shown}) : l’annexe demande un partage aussi équitable que possible."
        )
    barreur, lanceur = ship_holders(split)
    if per_side == 1:
        notes.append("Un seul joueur par camp : il joue ses 6 personnages, navire compris.")
    elif barreur != lanceur:
        notes.append(
            f"Le Barreur (joueur {barreur}) et le Lanceur (joueur {lanceur}) partagent le "
            "navire : ces deux joueurs choisissent ensemble son double-jeton, son orientation "
            "et l’ordre de résolution."
        )
    else:
        notes.append(
            f"Le joueur {barreur} tient le navire entier : il choisit seul son double-jeton."
        )
    return [french(n) for n in notes]


class TeamSharing(w.VBox):  # type: ignore[misc]
    """Number of players, then each character's player; the annex's advice below."""

    def __init__(self, players: int = 4) -> None:
        self.players = c.dropdown("Nombre de joueurs", PLAYERS, players, "akvo-sharing-players")
        self.holders = {
            ch: c.dropdown(ch.label, [("joueur 1", 1)], 1, f"akvo-sharing-{ch.name.lower()}")
            for ch in CHARACTERS
        }
        self.notes = c.html("akvo-sharing-notes")
        self._syncing = False
        super().__init__()
        self.children = [
            c.panel([self.players, *self.holders.values(), self.notes], "akvo-team-sharing")
        ]
        self.players.observe(self._on_players, names="value")
        for box in self.holders.values():
            box.observe(self._update, names="value")
        self._on_players()

    @property
    def per_side(self) -> int:
        return int(self.players.value) // 2

    def split(self) -> dict[Character, int]:
        return {ch: int(box.value) for ch, box in self.holders.items()}

    def _on_players(self, _change: Any = None) -> None:
        split = default_split(self.per_side)
        with c.syncing(self):
            for ch, box in self.holders.items():
                box.options = [(f"joueur {p}", p) for p in range(1, self.per_side + 1)]
                box.value = split[ch]
                box.disabled = self.per_side == 1
        self._update()

    def _update(self, _change: Any = None) -> None:
        if self._syncing:
            return
        notes = sharing_notes(self.split(), self.per_side)
        self.notes.value = "".join(f'<p class="akvo-sharing-note">{n}</p>' for n in notes)
