"""A client of the online tables' HTTP API, and a seat played by a script through it.

Only the public API (README, « Jouer en ligne : l'API »), so that any program can join a
table the way this one does: read the seat's view, wait for pushes (server-sent events),
send one of the legal actions the view lists. Used by the tests and the load benchmark::

    python -m akvo.online.client http://127.0.0.1:8866 TABLE_ID TOKEN --seed 3

plays that seat at random until the match ends (accepting a partner's offer when there
is one, so that team play moves on).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from akvo.extras import optional

if TYPE_CHECKING:
    import httpx

API = "akvo/api/tables"


class ApiRefusal(Exception):
    """A 4xx/5xx answer: its status, the refusal code and the French message."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message


def _checked(answer: httpx.Response) -> dict[str, Any]:
    if answer.status_code >= 400:
        try:
            body = answer.json()
        except ValueError:
            body = {}
        raise ApiRefusal(answer.status_code, body.get("error", ""), body.get("message", ""))
    data: dict[str, Any] = answer.json()
    return data


async def create_table(
    http: httpx.AsyncClient, base_url: str, request: dict[str, Any]
) -> dict[str, Any]:
    """``POST akvo/api/tables``: the table id, its seats (with tokens) and the spectator's."""
    return _checked(await http.post(f"{base_url.rstrip('/')}/{API}", json=request))


@dataclass
class SeatClient:
    """One seat of one table, through the API."""

    http: httpx.AsyncClient
    base_url: str
    table: str
    token: str

    @property
    def url(self) -> str:
        return f"{self.base_url.rstrip('/')}/{API}/{self.table}"

    async def view(self) -> dict[str, Any]:
        return _checked(await self.http.get(self.url, params={"token": self.token}))

    async def act(self, action: str) -> dict[str, Any]:
        """Send one action; the new view, or :class:`ApiRefusal`."""
        body = {"token": self.token, "action": action}
        return _checked(await self.http.post(f"{self.url}/actions", json=body))

    async def record(self) -> dict[str, Any]:
        return _checked(await self.http.get(f"{self.url}/record", params={"token": self.token}))

    async def pushes(self) -> AsyncIterator[str]:
        """The seat's view on every change, as the server sends it (JSON text), the first at
        once; ends when the server closes the stream."""
        params = {"token": self.token}
        timeout = optional("httpx").Timeout(10.0, read=None)
        async with self.http.stream(
            "GET", f"{self.url}/events", params=params, timeout=timeout
        ) as answer:
            if answer.status_code >= 400:
                await answer.aread()
                _checked(answer)
            async for line in answer.aiter_lines():
                if line.startswith("data: "):
                    yield line[6:]


def choose(view: dict[str, Any], rng: random.Random) -> str | None:
    """A script's pick among the view's legal actions: a partner's offer accepted, else at
    random; ``None`` when the seat has nothing to decide."""
    actions: list[str] = [str(entry["action"]) for entry in view["legal"]]
    if not actions:
        return None
    accept = [a for a in actions if a.startswith("accept ")]
    return accept[0] if accept else rng.choice(actions)


@dataclass
class SeatLog:
    """What a scripted seat saw: its accepted actions with the time each was acknowledged,
    each push with the time it arrived, refusals (a race with a partner is one)."""

    acted: list[tuple[float, str]] = field(default_factory=list)
    pushes: list[tuple[float, str]] = field(default_factory=list)
    refused: list[ApiRefusal] = field(default_factory=list)
    final: dict[str, Any] = field(default_factory=dict)


async def play_seat(
    seat: SeatClient,
    seed: int = 0,
    *,
    pick: Callable[[dict[str, Any], random.Random], str | None] = choose,
    think: float = 0.0,
    log: SeatLog | None = None,
) -> SeatLog:
    """Play ``seat`` until the match ends: on each push, if the seat may act, wait ``think``
    seconds, then send ``pick(view)``. Returns what it saw (kept in ``log`` as it goes, if
    given: it survives an error that ends the game early, such as a server gone)."""
    rng = random.Random(seed)
    log = SeatLog() if log is None else log
    async for text in seat.pushes():
        log.pushes.append((time.perf_counter(), text))
        view = json.loads(text)
        if view["status"] != "playing":
            log.final = view
            break
        action = pick(view, rng)
        if action is None:
            continue
        if think:
            await asyncio.sleep(think)
        try:
            await seat.act(action)
        except ApiRefusal as refusal:
            if refusal.status != 409:  # 409: the position moved on meanwhile
                raise
            log.refused.append(refusal)
        else:
            log.acted.append((time.perf_counter(), action))
    return log


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Play one seat of an online table at random.")
    parser.add_argument("base_url", help="the book server, e.g. http://127.0.0.1:8866")
    parser.add_argument("table")
    parser.add_argument("token")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--think", type=float, default=0.5, help="seconds before each move")
    args = parser.parse_args(argv)

    async def run() -> SeatLog:
        async with optional("httpx").AsyncClient() as http:
            seat = SeatClient(http, args.base_url, args.table, args.token)
            return await play_seat(seat, args.seed, think=args.think)

    log = asyncio.run(run())
    result = log.final.get("result")
    print(f"{len(log.acted)} coups joués ; résultat : {result}")


if __name__ == "__main__":
    main()
