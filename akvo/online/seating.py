"""A table's setup and its seats, checked from untrusted JSON (a creation request or a
stored row).

Every refusal is a :class:`TableRefusal` with a French message for the player (the
table's clients are people, in French) and a short English ``code`` for programs.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any, Final

from akvo.bots import BOTS
from akvo.config import DEFAULT_RULES, RulesConfig
from akvo.errors import AkvoError, RulesError, TeamError
from akvo.match.board import CHAR_LABELS, CHAR_NAMES, SIDE_NAMES
from akvo.online.clock import LIVE, MODE_LABELS, MODE_OF, UNITS, ClockSetup
from akvo.online.sharing import PLAYER_COUNTS, SharingError, check_split, default_split
from akvo.rules import CHARACTERS, PRESET_TEAMS
from akvo.teams import Team, parse_team, preset_team

#: Seeds are 63-bit (JSON numbers and SQLite integers hold them exactly).
SEED_LIMIT: Final = 1 << 63
#: The longest team text accepted (a list with separators is about 35 characters).
TEAM_TEXT_LIMIT: Final = 200
#: French names of the bots (``akvo.bots.BOTS``) accepted as well as the engine's names.
BOT_NAMES: Final = {**{key: key for key in BOTS}, **{label: key for key, label in BOTS.items()}}
_KEYS: Final = frozenset(
    ("teams", "rules", "players", "seed", "bots", "sharing", "coach", "clock", "names")
)
#: The longest name a player may give their seat.
NAME_LIMIT: Final = 24


class TableRefusal(AkvoError):
    """A refused request: ``code`` for programs, the message (French) for players.

    ``cause`` keeps the engine's own error when there is one (a team list, rules), so that
    a front end can say more (e.g. where a team list goes wrong).
    """

    def __init__(self, code: str, message: str, cause: AkvoError | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.cause = cause


def refuse(code: str, message: str, cause: AkvoError | None = None) -> TableRefusal:
    return TableRefusal(code, message, cause)


@dataclass(frozen=True, slots=True)
class Seat:
    """One player's place: their side, their number in the side (1-based), the characters
    (indexes 0–5, lane order) they program and activate, and the bot playing it, if any."""

    index: int
    side: int
    player: int
    characters: tuple[int, ...]
    bot: str | None
    person: str | None = None

    @property
    def name(self) -> str:
        """``A1``, ``B2``…"""
        return f"{SIDE_NAMES[self.side]}{self.player}"

    @property
    def called(self) -> str:
        """What the other players call this seat: its player's name, else ``A1``…"""
        return self.person or self.name

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.index,
            "name": self.name,
            "side": SIDE_NAMES[self.side],
            "player": self.player,
            "characters": [CHAR_NAMES[c] for c in self.characters],
            "character_labels": [CHAR_LABELS[c] for c in self.characters],
            "bot": BOTS.get(self.bot, self.bot) if self.bot else None,
            "person": self.person,
        }


@dataclass(frozen=True, slots=True)
class TableSetup:
    """What a table plays: two teams, the rules, 2/4/6 players and their sharing of the
    characters, the chance seed, the bots of empty sides (engine names), whether the
    players' pages show the coach, the bots of single seats (by seat index), the clock and
    the players' names (by seat index)."""

    teams: tuple[Team, Team]
    rules: RulesConfig
    players: int
    seed: int
    bots: tuple[str | None, str | None]
    sharing: tuple[tuple[int, ...], tuple[int, ...]]
    coach: bool = True
    seat_bots: tuple[tuple[int, str], ...] = ()
    clock: ClockSetup | None = None
    names: tuple[tuple[int, str], ...] = ()

    @property
    def per_side(self) -> int:
        return self.players // 2

    def seats(self) -> tuple[Seat, ...]:
        """Seats in order A1, A2, (A3), B1, B2, (B3)."""
        seats = []
        seat_bots, names = dict(self.seat_bots), dict(self.names)
        for side in (0, 1):
            for player in range(1, self.per_side + 1):
                chars = tuple(c for c in range(6) if self.sharing[side][c] == player)
                index = side * self.per_side + player - 1
                bot = self.bots[side] or seat_bots.get(index)
                seats.append(Seat(index, side, player, chars, bot, names.get(index)))
        return tuple(seats)

    def seat_name(self, index: int) -> str:
        """``A1``, ``B2``… of a seat index."""
        side, player = divmod(index, self.per_side)
        return f"{SIDE_NAMES[side]}{player + 1}"

    def to_dict(self) -> dict[str, Any]:
        """JSON data that :meth:`from_dict` reads back (the store's row)."""
        return {
            "teams": [str(t) for t in self.teams],
            "team_names": [t.name for t in self.teams],
            "rules": self.rules.to_dict(),
            "players": self.players,
            "seed": self.seed,
            "bots": {
                **{SIDE_NAMES[s]: self.bots[s] for s in (0, 1) if self.bots[s]},
                **{self.seat_name(i): bot for i, bot in self.seat_bots},
            },
            "sharing": {
                SIDE_NAMES[s]: {CHAR_NAMES[c]: self.sharing[s][c] for c in range(6)} for s in (0, 1)
            },
            **({"clock": self.clock.to_dict()} if self.clock else {}),
            **({"names": {self.seat_name(i): n for i, n in self.names}} if self.names else {}),
        }

    @classmethod
    def from_dict(cls, data: object) -> TableSetup:
        """A stored setup (:meth:`to_dict`), checked as strictly as a request."""
        if not isinstance(data, dict) or not isinstance(data.get("team_names"), list):
            raise refuse("setup", "La configuration enregistrée de la table est illisible.")
        names = data["team_names"]
        if len(names) != 2 or not all(isinstance(n, str) for n in names):
            raise refuse("setup", "La configuration enregistrée de la table est illisible.")
        request = {k: v for k, v in data.items() if k != "team_names"}
        setup = parse_request(request, seed=None)
        a, b = setup.teams
        teams = (Team(a.groups, a.bonus, names[0]), Team(b.groups, b.bonus, names[1]))
        return cls(
            teams,
            setup.rules,
            setup.players,
            setup.seed,
            setup.bots,
            setup.sharing,
            setup.coach,
            setup.seat_bots,
            setup.clock,
            setup.names,
        )


def parse_request(data: object, seed: int | None = None) -> TableSetup:
    """The setup asked for by a creation request (JSON already decoded).

    ``{"teams": [A, B], "rules": {...}?, "players": 2|4|6?, "seed": n?, "bots": {"B":
    "normal", "A2": "fort"}?, "sharing": {"A": {"pedalair": 1, …}}?, "coach": true?, "clock":
    {"mode": "en direct", "minutes": 3}?, "names": {"A1": "Léa"}?}``. A team is a preset key
    (``perrockiss``) or a team list (R27); a bot takes a whole side (``"B"``) or one seat
    (``"A2"``). Without a seed, ``seed`` is used (or a random one is drawn).
    """
    if not isinstance(data, dict):
        raise refuse("request", "La demande doit être un objet JSON.")
    unknown = sorted(str(k)[:20] for k in data if k not in _KEYS)
    if unknown:
        raise refuse("request", f"Champ inconnu dans la demande\u00a0: « {unknown[0]} ».")
    teams = _teams(data.get("teams"))
    rules = _rules(data.get("rules", {}))
    players = data.get("players", 2)
    if isinstance(players, bool) or not isinstance(players, int) or players not in PLAYER_COUNTS:
        raise refuse("players", "Le nombre de joueurs est 2, 4 ou 6.")
    given = data.get("seed")
    if given is None:
        given = secrets.randbelow(SEED_LIMIT) if seed is None else seed
    if isinstance(given, bool) or not isinstance(given, int) or not 0 <= given < SEED_LIMIT:
        raise refuse("seed", "La graine est un entier positif (moins de 2⁶³).")
    bots, seat_bots = _bots(data.get("bots", {}), players // 2)
    sharing = _sharing(data.get("sharing", {}), players // 2, bots)
    clock = parse_clock(data.get("clock"))
    names = _names(data.get("names", {}), players // 2)
    coach = data.get("coach", True)
    if not isinstance(coach, bool):
        raise refuse(
            "coach", "Le coach s’affiche ou non\u00a0: «\u00a0coach\u00a0» vaut true ou false."
        )
    return TableSetup(teams, rules, players, given, bots, sharing, coach, seat_bots, clock, names)


def _teams(value: object) -> tuple[Team, Team]:
    if not isinstance(value, list) or len(value) != 2:
        raise refuse("teams", "Il faut deux équipes («\u00a0teams\u00a0»\u00a0: [A, B]).")
    teams = []
    for side, text in zip(SIDE_NAMES, value, strict=True):
        if not isinstance(text, str) or not 0 < len(text) <= TEAM_TEXT_LIMIT:
            raise refuse(
                "teams", f"L’équipe {side} est un nom d’équipe du livret ou une liste de lettres."
            )
        key = text.strip().lower()
        try:
            team = preset_team(key) if key in PRESET_TEAMS else parse_team(text)
        except TeamError as error:
            raise refuse(
                "teams", f"La liste de l’équipe {side} n’est pas valide (R27).", error
            ) from None
        teams.append(team)
    return teams[0], teams[1]


def _rules(value: object) -> RulesConfig:
    if value == {}:
        return DEFAULT_RULES
    try:
        return RulesConfig.from_dict(value)
    except RulesError as error:
        raise refuse("rules", "Une variante de règles est inconnue.", error) from None


def _seat_index(name: object, per_side: int) -> int | None:
    """The seat index of ``A1``, ``B2``… at a table of ``per_side`` players per side."""
    if not isinstance(name, str) or len(name) != 2 or name[0] not in SIDE_NAMES:
        return None
    if not name[1].isdigit() or not 1 <= int(name[1]) <= per_side:
        return None
    return SIDE_NAMES.index(name[0]) * per_side + int(name[1]) - 1


def _bots(
    value: object, per_side: int
) -> tuple[tuple[str | None, str | None], tuple[tuple[int, str], ...]]:
    """The bots of whole sides (``"B"``) and of single seats (``"A2"``)."""
    if not isinstance(value, dict):
        raise refuse(
            "bots", 'Les bots se donnent par camp ou par place, par exemple {"B": "normal"}.'
        )
    bots: list[str | None] = [None, None]
    seat_bots: dict[int, str] = {}
    for place, name in value.items():
        index = _seat_index(place, per_side)
        if place not in SIDE_NAMES and index is None:
            raise refuse(
                "bots",
                "Un bot prend un camp («\u00a0A\u00a0», «\u00a0B\u00a0») ou une place de la "
                f"table («\u00a0A1\u00a0» à «\u00a0B{per_side}\u00a0»).",
            )
        if not isinstance(name, str) or name not in BOT_NAMES:
            shown = ", ".join(BOTS.values())
            raise refuse("bots", f"Bot inconnu\u00a0; au choix\u00a0: {shown}.")
        if index is None:
            bots[SIDE_NAMES.index(place)] = BOT_NAMES[name]
        elif per_side == 1:
            bots[index] = BOT_NAMES[name]
        else:
            seat_bots[index] = BOT_NAMES[name]
    if bots[0] and bots[1]:
        raise refuse("bots", "Il faut au moins un camp joué par des personnes.")
    people = [i for i in range(2 * per_side) if not bots[i // per_side] and i not in seat_bots]
    if not people:
        raise refuse("bots", "Il faut au moins une place jouée par une personne.")
    seat_bots = {i: b for i, b in seat_bots.items() if not bots[i // per_side]}
    return (bots[0], bots[1]), tuple(sorted(seat_bots.items()))


def parse_clock(value: object) -> ClockSetup | None:
    """A request's ``clock``: ``{"mode": "en direct", "minutes": 3}`` or ``{"mode": "sur
    plusieurs jours", "hours": 24}`` (``live`` / ``days`` too); ``None``: no clock."""
    if value is None:
        return None
    mode = value.get("mode") if isinstance(value, dict) else None
    mode = MODE_OF.get(mode) if isinstance(mode, str) else None
    if mode is None or not isinstance(value, dict) or set(value) != {"mode", UNITS[mode][0]}:
        raise refuse(
            "clock",
            'L’horloge est {"mode": "en direct", "minutes": 1 à 60} ou '
            '{"mode": "sur plusieurs jours", "hours": 1 à 168}.',
        )
    unit, low, high, _ = UNITS[mode]
    amount = value[unit]
    if isinstance(amount, bool) or not isinstance(amount, int) or not low <= amount <= high:
        what = "minutes par décision" if mode == LIVE else "heures par tour"
        raise refuse(
            "clock", f"Horloge «\u00a0{MODE_LABELS[mode]}\u00a0»\u00a0: de {low} à {high} {what}."
        )
    return ClockSetup(mode, amount)


def _names(value: object, per_side: int) -> tuple[tuple[int, str], ...]:
    """The players' names by seat (``{"A1": "Léa"}``), shown to the others."""
    if not isinstance(value, dict):
        raise refuse("names", 'Les noms se donnent par place\u00a0: {"A1": "Léa"}.')
    names: dict[int, str] = {}
    for place, name in value.items():
        index = _seat_index(place, per_side)
        if index is None:
            raise refuse(
                "names",
                f"Place inconnue pour un nom («\u00a0A1\u00a0» à «\u00a0B{per_side}\u00a0»).",
            )
        text = name.strip() if isinstance(name, str) else ""
        if not 0 < len(text) <= NAME_LIMIT or not text.isprintable() or set(text) & set("<>&"):
            raise refuse(
                "names",
                f"Un nom a de 1 à {NAME_LIMIT} caractères, sans «\u00a0<\u00a0», "
                "«\u00a0>\u00a0» ni «\u00a0&\u00a0».",
            )
        names[index] = text
    return tuple(sorted(names.items()))


def _sharing(
    value: object, per_side: int, bots: tuple[str | None, str | None]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    if not isinstance(value, dict) or not set(value) <= set(SIDE_NAMES):
        raise refuse("sharing", 'Le partage se donne par camp\u00a0: {"A": {"pedalair": 1, …}}.')
    shares = []
    for side, name in enumerate(SIDE_NAMES):
        given = value.get(name)
        if given is None or per_side == 1 or bots[side]:
            split = default_split(per_side)
        else:
            if not isinstance(given, dict) or set(given) != set(CHAR_NAMES):
                raise refuse(
                    "sharing", f"Camp {name}\u00a0: donnez un joueur à chacun des 6 personnages."
                )
            try:
                split = check_split(
                    {CHARACTERS[CHAR_NAMES.index(k)]: v for k, v in given.items()}, per_side
                )
            except SharingError as error:
                raise refuse(
                    "sharing",
                    f"Camp {name}\u00a0: chaque joueur tient au moins un personnage et le "
                    "partage est aussi équitable que possible (annexe « Jeu en équipes »).",
                    error,
                ) from None
        shares.append(tuple(split[ch] for ch in CHARACTERS))
    return shares[0], shares[1]
