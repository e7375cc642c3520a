"""Online tables, the store and the service: tokens, the append-only log, rebuilding a
table from it, tampered files, finished tables kept, bots off the event loop."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from akvo.match import Phase
from akvo.online import TableRefusal
from akvo.online.service import TableService, token_hash
from akvo.online.store import TableStore
from tests.tables_play import PRESETS, run_async


def _service(path: Path) -> TableService:
    service = TableService(TableStore(path))
    service.load()
    return service


def _play(service: TableService, made: dict[str, Any], moves: int, seed: int = 0) -> int:
    """Random legal moves by the table's human seats, through tokens; how many played."""
    rng = random.Random(seed)
    tokens = [s["token"] for s in made["seats"] if s["token"]]
    played = 0
    for _ in range(moves):
        choices = [
            (token, entry["action"])
            for token in tokens
            for entry in service.view(made["table"], token)["legal"]
        ]
        if not choices:
            break
        service.act(made["table"], *rng.choice(choices))
        played += 1
    return played


def test_every_accepted_action_is_logged_and_a_table_rebuilds_from_its_log(
    tmp_path: Path,
) -> None:
    path = tmp_path / "tables.sqlite"
    service = _service(path)
    made = [
        service.create({"teams": PRESETS, "players": players, "bots": bots})
        for players, bots in ((2, {}), (4, {"B": "normal"}), (6, {}))
    ]
    for index, table in enumerate(made):
        assert _play(service, table, 120, seed=index) == 120
    states = {m["table"]: service.table(m["table"]).state.to_json() for m in made}
    views = {m["table"]: service.view(m["table"], m["spectator"]["token"]) for m in made}
    for m in made:
        rows = service.table(m["table"]).rows
        assert service.store.count_rows(m["table"]) == len(rows) >= 120
    service.store.close()
    again = _service(path)
    assert again.broken == {} and again.open_count() == 3
    for m in made:
        assert again.table(m["table"]).state.to_json() == states[m["table"]]
        assert again.view(m["table"], m["spectator"]["token"]) == views[m["table"]]
    mode = sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"


def test_tokens_are_long_random_and_never_stored(tmp_path: Path) -> None:
    path = tmp_path / "tables.sqlite"
    service = _service(path)
    made = service.create({"teams": PRESETS, "players": 4, "bots": {"A": "facile"}})
    tokens = [s["token"] for s in made["seats"]]
    assert tokens[:2] == [None, None]  # bots' seats have no token
    humans = [t for t in tokens if t] + [made["spectator"]["token"]]
    assert len(set(humans)) == 3 and all(len(t) == 43 for t in humans)  # 32 bytes: 256 bits
    service.store.close()
    stored = b"".join(p.read_bytes() for p in tmp_path.iterdir())
    assert all(t.encode() not in stored for t in humans)
    assert all(token_hash(t).encode() in stored for t in humans)


@pytest.mark.parametrize("token", [None, "", 3, ["x"], "x" * 43, "y" * 10_000, "\udcff", "é" * 43])
def test_a_wrong_or_missing_token_opens_nothing(tmp_path: Path, token: object) -> None:
    service = _service(tmp_path / "t.sqlite")
    made = service.create({"teams": PRESETS})
    for call in (service.view, service.record):
        with pytest.raises(TableRefusal) as refused:
            call(made["table"], token)
        assert refused.value.code == "forbidden"
    with pytest.raises(TableRefusal) as refused:
        service.act(made["table"], token, "orders AAAA AA")
    assert refused.value.code == "forbidden"
    assert service.table(made["table"]).rows == []


def test_a_token_opens_only_its_own_table_and_a_spectator_only_watches(tmp_path: Path) -> None:
    service = _service(tmp_path / "t.sqlite")
    one, two = (service.create({"teams": PRESETS}) for _ in range(2))
    with pytest.raises(TableRefusal) as refused:
        service.view(two["table"], one["seats"][0]["token"])
    assert refused.value.code == "forbidden"
    with pytest.raises(TableRefusal) as refused:
        service.act(one["table"], one["spectator"]["token"], "orders AAAA AA")
    assert refused.value.code == "spectator"
    with pytest.raises(TableRefusal) as refused:
        service.view("no-such-table", "x")
    assert refused.value.code == "not_found"
    assert service.store.count_rows(one["table"]) == 0


def test_a_refused_action_logs_nothing_and_a_failed_commit_applies_nothing(
    tmp_path: Path,
) -> None:
    service = _service(tmp_path / "t.sqlite")
    made = service.create({"teams": PRESETS})
    token = made["seats"][0]["token"]
    with pytest.raises(TableRefusal):
        service.act(made["table"], token, "activate navire")
    assert service.store.count_rows(made["table"]) == 0
    before = service.table(made["table"]).state.to_json()
    service.store.close()  # the disk is gone: nothing may be acknowledged
    with pytest.raises(TableRefusal) as refused:
        service.act(made["table"], token, "orders AAAA AA")
    assert refused.value.code == "store"
    assert service.table(made["table"]).state.to_json() == before
    assert service.table(made["table"]).rows == []


def test_the_log_is_append_only(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    service = _service(path)
    made = service.create({"teams": PRESETS})
    service.act(made["table"], made["seats"][0]["token"], "orders AAAA AA")
    with pytest.raises(sqlite3.IntegrityError):
        service.store.append(made["table"], 0, 1, "orders TTTT TT")  # the same number twice
    db = sqlite3.connect(path)
    for change in ("UPDATE actions SET action = 'orders TTTT TT'", "DELETE FROM actions"):
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            db.execute(change)


def _tamper(path: Path, *statements: str) -> None:
    db = sqlite3.connect(path)
    db.execute("DROP TRIGGER actions_no_update")
    for statement in statements:
        db.execute(statement)
    db.commit()
    db.close()


@pytest.mark.parametrize(
    ("statement", "reason"),
    [
        (
            "UPDATE actions SET action = 'activate navire' WHERE seq = 1",
            "Ligne 1 du journal refusée",
        ),
        ("UPDATE actions SET action = 'rm -rf /' WHERE seq = 0", "Ligne 0 du journal refusée"),
        ("UPDATE actions SET seat = 9 WHERE seq = 0", "place inconnue"),
        ("UPDATE actions SET seq = 5 WHERE seq = 1", "hors de son ordre"),
        ("UPDATE tables SET setup = '{\"teams\": 3}' WHERE id = '{id}'", "illisible"),
        ("UPDATE tables SET setup = 'not json' WHERE id = '{id}'", "illisible"),
        ("UPDATE tables SET credentials = '{}' WHERE id = '{id}'", "illisibles"),
    ],
)
def test_a_tampered_table_is_broken_and_the_others_load(
    tmp_path: Path, statement: str, reason: str
) -> None:
    path = tmp_path / "t.sqlite"
    service = _service(path)
    bad, good = (service.create({"teams": PRESETS}) for _ in range(2))
    for made in (bad, good):
        service.act(made["table"], made["seats"][0]["token"], "orders AAAA AA")
        service.act(made["table"], made["seats"][1]["token"], "orders TTTT TT")
    service.store.close()
    _tamper(
        path,
        statement.replace("{id}", bad["table"]).replace(
            "WHERE seq", f"WHERE table_id = '{bad['table']}' AND seq"
        ),
    )
    again = _service(path)
    assert list(again.broken) == [bad["table"]] and reason in again.broken[bad["table"]]
    with pytest.raises(TableRefusal) as refused:
        again.view(bad["table"], bad["seats"][0]["token"])
    assert refused.value.code == "broken" and "endommagée" in refused.value.message
    assert len(again.table(good["table"]).rows) == 2


def test_finished_tables_are_kept_with_their_record(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    service = _service(path)
    made = service.create({"teams": PRESETS, "bots": {"B": "normal"}, "seed": 4})
    token = made["seats"][0]["token"]
    with pytest.raises(TableRefusal) as refused:
        service.record(made["table"], token)
    assert refused.value.code == "playing"
    _play(service, made, 2_000)
    table = service.table(made["table"])
    assert table.finished and service.open_count() == 0
    record = service.record(made["table"], made["spectator"]["token"])
    assert record["setup"]["seed"] == 4 and record["match"] == table.state.record()
    service.store.close()
    again = _service(path)
    assert again.open_count() == 0  # finished tables are not loaded at start…
    assert again.view(made["table"], token)["status"] == "finished"  # …but on demand
    assert json.loads(again.store.record(made["table"]) or "{}")["rows"] == record["rows"]


def test_the_creation_answer_names_seats_and_says_the_seed_only_if_given(
    tmp_path: Path,
) -> None:
    service = _service(tmp_path / "t.sqlite")
    made = service.create({"teams": PRESETS, "players": 6, "seed": 5})
    assert made["seed"] == 5 and made["players"] == 6
    assert [s["name"] for s in made["seats"]] == ["A1", "A2", "A3", "B1", "B2", "B3"]
    assert made["seats"][1]["characters"] == ["barreur", "lanceur"]
    assert service.create({"teams": PRESETS})["seed"] is None
    assert "seed" not in json.dumps(service.view(made["table"], made["seats"][0]["token"]))


def test_a_slow_bot_decides_off_the_event_loop(tmp_path: Path) -> None:
    service = _service(tmp_path / "t.sqlite")

    async def scenario() -> tuple[str, str]:
        service.attach(asyncio.get_running_loop())  # as the web server does
        made = service.create({"teams": PRESETS, "bots": {"B": "fort"}})
        view = service.act(made["table"], made["seats"][0]["token"], "orders AAAA AA")
        before = view["phase"]  # answered before the bot has decided
        for _ in range(600):
            await asyncio.sleep(0.05)
            if service.table(made["table"]).state.phase != Phase.ORDERS:
                break
        return before, service.table(made["table"]).state.phase_name()

    before, after = run_async(scenario())
    assert before == "orders" and after != "orders"
    service.close()
