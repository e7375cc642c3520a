"""Spare kernels (akvo_site/kernels/spares.py), the kernel manager's use of them
(akvo_site/kernels/manager.py) and the shared compiled templates (akvo_site/render.py),
without a server: stand-ins for Voilà's kernel manager, exact counts and orders."""

from __future__ import annotations

import ast
import asyncio
import json
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import jinja2
import pytest
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from voila.exporter import VoilaExporter  # type: ignore[import-untyped]

from akvo_site import render as site_render
from akvo_site.kernels import spares as site_spares
from akvo_site.kernels.manager import PREHEAT_VARIABLE, WIDGET_ECHO_VARIABLE, BookKernelManager
from akvo_site.kernels.pools import BookPools, DemandPools, PoolBudgetError
from akvo_site.kernels.spares import (
    BOOK_IMPORTS,
    ENGINE_PREPARATION,
    SpareConfigError,
    SpareKernels,
    retry_delay,
    warm_code,
)
from akvo_site.render import BookExporter, SharedTemplateCache
from akvo_widgets import _LAZY as PAGE_MODULES
from tests.akvo_site.kernels.test_site_pools import FakeManager
from tests.akvo_site.test_site_security import ROOT, run


class Kernel:
    def __init__(self) -> None:
        self.alive = True
        self.last_activity: Any = None

    async def is_alive(self) -> bool:
        return self.alive


class Kernels:
    """What SpareKernels uses of the kernel manager, and a start that warms its kernel."""

    def __init__(self, fail: int = 0) -> None:
        self.kernels: dict[str, Kernel] = {}
        self.stopped: list[str] = []
        self.started = 0
        self.fail = fail  # how many of the next starts fail their warm-up

    def __contains__(self, kernel_id: object) -> bool:
        return kernel_id in self.kernels

    def get_kernel(self, kernel_id: str) -> Kernel:
        return self.kernels[kernel_id]

    async def shutdown_kernel(self, kernel_id: str) -> None:
        self.kernels.pop(kernel_id, None)
        self.stopped.append(kernel_id)

    async def start(
        self, kernel_name: str, path: str, warm: Callable[[str], Awaitable[None]]
    ) -> str:
        self.started += 1
        kernel_id = f"s{self.started}"
        self.kernels[kernel_id] = Kernel()
        await warm(kernel_id)
        return kernel_id

    async def warm(self, kernel_id: str) -> None:
        await asyncio.sleep(0)
        if self.fail:
            self.fail -= 1
            await self.shutdown_kernel(kernel_id)
            raise site_spares.SpareWarmError(f"kernel {kernel_id} did not warm up")


async def settle() -> None:
    for _ in range(10):
        await asyncio.sleep(0)


async def filled(size: int, kernels: Kernels | None = None) -> tuple[Kernels, SpareKernels]:
    """``size`` spares started on ``kernels`` (new stand-ins by default), their starts done."""
    kernels = kernels or Kernels()
    spares = SpareKernels(kernels, size, kernels.start, warm=kernels.warm)
    spares.fill()
    await settle()
    return kernels, spares


def test_spares_are_handed_out_oldest_first_and_replaced() -> None:
    async def scenario() -> None:
        kernels = Kernels()
        spares = SpareKernels(kernels, 2, kernels.start, warm=kernels.warm)
        spares.fill()
        assert spares.held() == 0  # the starts are tasks: nothing ready yet
        await settle()
        assert spares.ready == ["s1", "s2"] and spares.held() == 2 and "s1" in spares
        assert await spares.take("python3", "") == "s1"
        assert kernels.kernels["s1"].last_activity is not None  # not culled at once
        assert "s1" not in spares
        await settle()
        assert spares.ready == ["s2", "s3"]  # the one handed out is replaced
        assert await spares.take(None, None) == "s2"  # Voilà's defaults: the book folder
        await settle()
        assert kernels.started == 4 and spares.held() == 2

    asyncio.run(scenario())


def test_a_page_wanting_another_kernel_or_folder_gets_no_spare() -> None:
    async def scenario() -> None:
        kernels, spares = await filled(1)
        assert await spares.take("julia", "") is None
        assert await spares.take("python3", "autre-dossier") is None
        assert spares.ready == ["s1"] and kernels.started == 1

    asyncio.run(scenario())


def test_a_dead_or_vanished_spare_is_skipped_and_a_dead_one_shut_down() -> None:
    async def scenario() -> None:
        kernels, spares = await filled(3)
        kernels.kernels["s1"].alive = False
        del kernels.kernels["s2"]  # shut down behind the spares' back (e.g. by hand)
        assert await spares.take("python3", "") == "s3"
        await settle()
        assert kernels.stopped == ["s1"] and not spares._dead  # the shutdown done, let go
        assert spares.ready == ["s4", "s5", "s6"]

    asyncio.run(scenario())


def test_a_failed_start_is_tried_again_later_with_a_growing_delay(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert [retry_delay(n) for n in range(1, 7)] == [5.0, 10.0, 20.0, 40.0, 60.0, 60.0]

    async def scenario() -> None:
        kernels, spares = await filled(2, Kernels(fail=1))
        assert spares.ready == ["s2"] and spares.failures == 1 and kernels.stopped == ["s1"]
        assert spares._retry is not None
        wait = spares._retry.when() - asyncio.get_running_loop().time()
        assert 4.5 < wait <= 5.0
        spares._retry.cancel()
        monkeypatch.setattr(site_spares, "retry_delay", lambda failed: 0.01)
        kernels.fail = 1
        spares._retry = None
        spares.fill()  # s3 fails again: retried after 0.01 s with s4
        await settle()
        await asyncio.sleep(0.05)
        await settle()
        assert spares.ready == ["s2", "s4"] and spares.failures == 2
        assert spares._failed_in_a_row == 0

    asyncio.run(scenario())


@pytest.mark.parametrize("size", [-1, True, 1.5, "2"])
def test_a_bad_number_of_spares_is_refused(size: Any) -> None:
    kernels = Kernels()
    with pytest.raises(SpareConfigError, match="number of spare kernels"):
        SpareKernels(kernels, size, kernels.start)


def test_spares_take_their_room_in_the_memory_budget() -> None:
    assert BookPools(memory_mb=450, kernel_mb=45, spares=4).split_budget() == (6, 4)
    assert BookPools(memory_mb=450, kernel_mb=45).split_budget() == (10, 0)
    for spares in (11, -1):
        with pytest.raises(PoolBudgetError, match=f"budget of 10 kernels.*not {spares}"):
            BookPools(memory_mb=450, kernel_mb=45, spares=spares).split_budget()


def test_the_warm_up_cell_imports_and_prepares_and_leaves_no_name_behind() -> None:
    namespace: dict[str, Any] = {}
    exec(warm_code(["json", "fractions"], ["gc.collect"]), namespace)
    assert [name for name in namespace if not name.startswith("__")] == []  # a warning
    # raised while importing may leave Python's own __warningregistry__
    for names, calls, words in (
        (["os; import sys"], [], "not a dotted Python name"),
        (["json"], ["print"], "must name its module"),
        ([3], [], "not a dotted Python name"),
    ):
        with pytest.raises(SpareConfigError, match=words):
            warm_code(names, calls)  # type: ignore[arg-type]


def _notebook_imports() -> set[str]:
    """Every module a notebook imports; a page class taken from the facade (``from
    akvo_widgets import Lab``) counts as the module that defines it."""
    modules: set[str] = set()
    for notebook in sorted((ROOT / "book").glob("*.ipynb")):
        for cell in json.loads(notebook.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] != "code":
                continue
            source = "".join(cell["source"])
            lines = [line for line in source.splitlines() if not line.lstrip().startswith("%")]
            for node in ast.walk(ast.parse("\n".join(lines))):
                if isinstance(node, ast.Import):
                    modules.update(alias.name for alias in node.names)
                elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                    modules.add(node.module)
                    if node.module == "akvo_widgets":  # page classes: their modules
                        modules.update(PAGE_MODULES[alias.name] for alias in node.names)
    return modules


def test_a_warmed_spare_has_imported_every_module_the_book_imports() -> None:
    wanted = _notebook_imports()
    assert {"akvo_widgets.chapters", "akvo_widgets.play.game"} <= wanted  # the scan works
    probe = (
        f"{warm_code(BOOK_IMPORTS, ENGINE_PREPARATION)}"
        "import sys, json\n"
        "from akvo import dice\n"
        f"print(json.dumps([sorted(set({sorted(wanted)!r}) - set(sys.modules)),"
        " dice._threshold_batch.cache_info().currsize]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-W", "ignore", "-c", probe],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
        cwd=ROOT / "book",
    )
    missing, tables = json.loads(done.stdout.strip().splitlines()[-1])
    assert missing == []
    assert tables == 8  # 1 to 8 dice, the default rules (R13 « four »)


class Spares:
    """A stand-in for SpareKernels as the kernel manager sees it."""

    def __init__(self, handed: list[str | None]) -> None:
        self.handed = handed
        self.asked: list[tuple[Any, Any]] = []

    def __contains__(self, kernel_id: object) -> bool:
        return kernel_id == "spare"

    async def take(self, kernel_name: Any, path: Any) -> str | None:
        self.asked.append((kernel_name, path))
        return self.handed.pop(0)


def _record_starts(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    started: list[dict[str, Any]] = []

    async def start(self: AsyncMappingKernelManager, *args: Any, **kwargs: Any) -> str:
        started.append(kwargs)
        return f"k{len(started)}"

    monkeypatch.setattr(AsyncMappingKernelManager, "start_kernel", start)
    return started


def test_a_reader_gets_a_spare_a_pool_never_does(monkeypatch: pytest.MonkeyPatch) -> None:
    started = _record_starts(monkeypatch)

    async def scenario() -> list[str]:
        manager = BookKernelManager()
        manager.spare_kernels = Spares(["spare", None])  # type: ignore[assignment]
        got = [
            await manager.start_kernel(kernel_name="python3", path="", env={}),
            await manager.start_kernel(kernel_name="python3", path="", env={}),  # none left
            await manager.start_kernel(env={PREHEAT_VARIABLE: "True"}),
        ]
        assert manager.spare_kernels.asked == [("python3", ""), ("python3", "")]  # type: ignore[union-attr]
        return got

    assert run(scenario(), 30) == ["spare", "k1", "k2"]
    assert [kwargs["env"].get(PREHEAT_VARIABLE) for kwargs in started] == [None, "True"]


def test_a_spare_starts_after_the_renders_and_is_shut_down_if_its_warm_up_fails(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    started = _record_starts(monkeypatch)
    stopped: list[str] = []

    async def shutdown(self: AsyncMappingKernelManager, kernel_id: str, now: bool = False) -> None:
        stopped.append(kernel_id)

    monkeypatch.setattr(AsyncMappingKernelManager, "shutdown_kernel", shutdown)

    async def fails(kernel_id: str) -> None:
        raise site_spares.SpareWarmError(f"kernel {kernel_id} failed the book's imports")

    async def fine(kernel_id: str) -> None:
        return None

    async def scenario() -> None:
        manager = BookKernelManager(pool_hold_s=5.0)
        manager.pages_rendering(2)
        spare = asyncio.ensure_future(manager.start_spare("python3", "", fine))
        await asyncio.sleep(0.05)
        assert started == []  # held while readers' pages are rendered
        manager.pages_rendering(0)
        assert await spare == "k1"
        kwargs = started[0]
        assert kwargs["kernel_name"] == "python3" and kwargs["path"] == ""
        assert kwargs["env"][PREHEAT_VARIABLE] == "False"
        assert kwargs["env"][WIDGET_ECHO_VARIABLE] == "0"
        with pytest.raises(site_spares.SpareWarmError, match="k2 failed"):
            await manager.start_spare("python3", "", fails)
        assert stopped == ["k2"]
        # a render that never ends holds a start pool_hold_s at most
        manager = BookKernelManager(pool_hold_s=0.05)
        manager.pages_rendering(1)
        assert await manager.start_spare("python3", "", fine) == "k3"

    run(scenario(), 30)


def test_the_culler_leaves_the_spares_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    culled: list[str] = []

    async def cull(self: AsyncMappingKernelManager, kernel_id: str) -> None:
        culled.append(kernel_id)

    monkeypatch.setattr(AsyncMappingKernelManager, "cull_kernel_if_idle", cull)

    async def scenario() -> None:
        manager = BookKernelManager()
        await manager.cull_kernel_if_idle("spare")  # no spares configured: culled
        manager.spare_kernels = Spares([])  # type: ignore[assignment]
        await manager.cull_kernel_if_idle("spare")
        await manager.cull_kernel_if_idle("k9")

    run(scenario(), 30)
    assert culled == ["spare", "k9"]


def test_with_a_spare_ready_a_pool_hands_out_only_kernels_done_starting() -> None:
    async def scenario() -> None:
        manager = FakeManager()
        DemandPools(manager, budget=10, most=4, idle_s=60.0, clock=lambda: 0.0)
        pool = manager._pools["equipes.ipynb"]  # configured empty
        starting: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        pool.append(starting)  # a kernel still starting (Voilà hands out the first)
        assert manager.get_pool_size("equipes.ipynb") == 1  # no spares: Voilà's count
        assert pool == [starting]  # the pool grew to 1: nothing to add
        manager.spare_kernels = Spares([])  # type: ignore[attr-defined]
        manager.spare_kernels.ready = ["spare"]  # type: ignore[attr-defined]
        assert manager.get_pool_size("equipes.ipynb") == 0  # the reader takes the spare
        assert len(pool) == 2 and pool[0] is starting  # grown to 2: one more, done
        assert manager.get_pool_size("equipes.ipynb") == 1
        assert pool[0].done() and pool[1] is starting  # the done one first
        starting.cancel()

    asyncio.run(scenario())


def _environment(folder: Path, cache: SharedTemplateCache, **options: Any) -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(folder)), bytecode_cache=cache, **options
    )


def test_compiled_templates_are_shared_and_compiled_again_when_their_source_changes(
    tmp_path: Path,
) -> None:
    page = tmp_path / "page.html"
    page.write_text("<h1>{{ title }}</h1>", encoding="utf-8")
    cache = SharedTemplateCache()
    compiled: list[str] = []

    def counting(environment: jinja2.Environment) -> jinja2.Environment:
        compile_ = environment.compile

        def compile_and_count(source: Any, *args: Any, **kwargs: Any) -> Any:
            compiled.append(str(source))
            return compile_(source, *args, **kwargs)

        environment.compile = compile_and_count  # type: ignore[method-assign]
        return environment

    first = counting(_environment(tmp_path, cache))
    assert first.get_template("page.html").render(title="Les dés") == "<h1>Les dés</h1>"
    second = counting(_environment(tmp_path, cache))  # a new exporter's environment
    assert second.get_template("page.html").render(title="Le vent") == "<h1>Le vent</h1>"
    assert len(compiled) == 1 and len(cache) == 1
    page.write_text("<h2>{{ title }}</h2>", encoding="utf-8")
    third = counting(_environment(tmp_path, cache))
    assert third.get_template("page.html").render(title="Les runes") == "<h2>Les runes</h2>"
    assert len(compiled) == 2
    asynchronous = counting(_environment(tmp_path, cache, enable_async=True))
    asynchronous.get_template("page.html")
    assert len(compiled) == 3 and len(cache) == 2  # async code kept apart
    cache.clear()
    assert len(cache) == 0


def test_a_markdown_cell_is_converted_once_unless_it_has_attachments(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    converted: list[str] = []

    def convert(self: Any, context: Any, source: str) -> str:
        converted.append(source)
        return f"<p>{source}</p>"

    monkeypatch.setattr(VoilaExporter, "markdown2html", convert)
    monkeypatch.setattr(site_render, "MARKDOWN", {})
    exporter = BookExporter()
    plain, attached = {"cell": {}}, {"cell": {"attachments": {"vent.png": {}}}}
    for _ in range(3):
        assert exporter.markdown2html(plain, "Les **dés**") == "<p>Les **dés**</p>"
        assert exporter.markdown2html(attached, "![vent](attachment:vent.png)")
    assert converted == ["Les **dés**"] + ["![vent](attachment:vent.png)"] * 3
    monkeypatch.setattr(site_render, "MARKDOWN_KEPT", 2)
    for source in ("a", "b", "c"):
        exporter.markdown2html(plain, source)
    assert [source for source, _ in site_render.MARKDOWN] == ["b", "c"]  # full at « b »: emptied


def test_the_page_configuration_is_built_once_and_each_view_gets_its_own_copy(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    built: list[str] = []

    def build(base_url: str, settings: Any, log: Any, voila_configuration: Any) -> dict[str, Any]:
        built.append(base_url)
        return {"baseUrl": base_url, "federated_extensions": [{"name": "bqplot"}]}

    monkeypatch.setattr(site_render, "get_page_config", build)
    monkeypatch.setattr(site_render, "PAGE_CONFIGS", {})
    settings, configuration = {}, object()
    first = site_render.page_config_once("/", settings, None, configuration)
    first["federated_extensions"].append({"name": "changed by a hook"})
    second = site_render.page_config_once("/", settings, None, configuration)
    assert second == {"baseUrl": "/", "federated_extensions": [{"name": "bqplot"}]}
    site_render.page_config_once("/livre/", settings, None, configuration)
    assert built == ["/", "/livre/"]


class Stream:
    def on_recv(self, callback: Callable[[list[bytes]], None]) -> None:
        self.callback = callback


class WatchedKernel:
    def __init__(self, session: Any) -> None:
        self.session = session
        self.execution_state = "starting"
        self.last_activity: Any = None
        self.stream = Stream()

    def connect_iopub(self) -> Stream:
        return self.stream


def test_kernel_activity_is_recorded_as_jupyter_server_records_it() -> None:
    """The same IOPub messages through jupyter_server's watch and the book's: the same
    execution states and the same messages counted as activity; a forged one is ignored."""
    from jupyter_client.session import Session

    key = b"secret"
    kernel_session = Session(key=key)
    manager = BookKernelManager()
    theirs, ours = WatchedKernel(Session(key=key)), WatchedKernel(Session(key=key))
    manager._kernels = {"theirs": theirs, "ours": ours}
    AsyncMappingKernelManager.start_watching_activity(manager, "theirs")
    manager.start_watching_activity("ours")
    execute = kernel_session.msg("execute_request", {})
    comm = kernel_session.msg("comm_msg", {})
    sequence = [
        ("status", {"execution_state": "starting"}, None),
        ("status", {"execution_state": "idle"}, None),  # after starting: idle
        ("status", {"execution_state": "busy"}, execute),
        ("stream", {"name": "stdout", "text": "Les dés"}, execute),
        ("display_data", {"data": {}, "metadata": {}}, execute),
        ("status", {"execution_state": "idle"}, execute),
        ("status", {"execution_state": "busy"}, comm),
        ("comm_msg", {"comm_id": "x", "data": {}}, comm),
        ("status", {"execution_state": "idle"}, comm),
        ("execute_result", {"data": {}}, None),
    ]
    for msg_type, content, parent in sequence:
        message = kernel_session.msg(msg_type, content, parent=parent or {})
        frames = kernel_session.serialize(message)
        seen = []
        for kernel in (theirs, ours):
            kernel.last_activity = None
            kernel.stream.callback(list(frames))
            seen.append((kernel.execution_state, kernel.last_activity is not None))
        assert seen[0] == seen[1], (msg_type, parent and parent["header"]["msg_type"], seen)
    assert ours.execution_state == "idle"
    forged = kernel_session.serialize(kernel_session.msg("status", {"execution_state": "busy"}))
    forged[1] = b"0" * len(forged[1])  # [delimiter, signature, header, …]
    ours.last_activity = None
    ours.stream.callback(list(forged))
    assert ours.execution_state == "idle" and ours.last_activity is None
