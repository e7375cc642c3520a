"""The server process never loads a widget library: import every akvo_site module in a clean
interpreter and look at what came in (the layer test reads the sources; this runs them)."""

from __future__ import annotations

import json
import pkgutil
import subprocess
import sys

import akvo_site

#: Modules that run in a kernel, not in the server.
KERNEL_SIDE = ("ipywidgets", "bqplot", "anywidget", "ipykernel")


def test_importing_the_server_loads_no_widget_library() -> None:
    modules = [
        m.name
        for m in pkgutil.walk_packages(akvo_site.__path__, "akvo_site.")
        if m.name != "akvo_site.__main__"
    ]
    code = (
        "import importlib, json, sys\n"
        f"for name in {['akvo_site', *modules]!r}:\n"
        "    importlib.import_module(name)\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = json.loads(out.stdout)
    assert [m for m in loaded if m.split(".")[0] in KERNEL_SIDE] == []
    book = {m for m in loaded if m.startswith("akvo_widgets.")}
    assert book and all(m.startswith(("akvo_widgets.text", "akvo_widgets.board")) for m in book)
    assert "akvo_widgets.board.widget" not in book
    assert {"akvo_site.app", "akvo_site.kernels.spares", "akvo_site.tables.api"} <= set(loaded)
