"""A button that opens one file and hands its bytes to the kernel, without a counter.

ipywidgets' ``FileUpload`` writes how many files it holds into its label (« Charger (0) »),
keeps the file in the widget's state and titles itself "null" without a tooltip.
:class:`FilePicker` is a real ``<button>`` (Tab, Enter and Space work) that says only what
it does; its script (``file_picker.js``) sends the chosen file once, as a binary message.
The kernel checks the bytes like any file: the browser is a client that may be hostile.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import anywidget
import traitlets

HERE = Path(__file__).resolve().parent


class FilePicker(anywidget.AnyWidget):  # type: ignore[misc]
    """``FilePicker("Ouvrir un match", accept=".json")``; :meth:`on_file` gets the bytes.

    A file longer than ``max_bytes`` arrives cut to ``max_bytes + 1`` bytes: enough for the
    reader of the bytes to refuse it as too big, without carrying all of it to the kernel."""

    _esm = HERE / "file_picker.js"
    description = traitlets.Unicode("").tag(sync=True)
    accept = traitlets.Unicode("").tag(sync=True)
    max_bytes = traitlets.Int(1_000_000).tag(sync=True)

    def __init__(self, description: str, *, accept: str = "", max_bytes: int = 1_000_000) -> None:
        super().__init__(description=description, accept=accept, max_bytes=max_bytes)
        self._handlers: list[Callable[[bytes], None]] = []
        self.on_msg(self._received)

    def on_file(self, handler: Callable[[bytes], None]) -> None:
        """Call ``handler(data)`` with the bytes of each file the reader opens."""
        self._handlers.append(handler)

    def _received(self, _widget: Any, content: Any, buffers: Any) -> None:
        if not isinstance(content, dict) or content.get("event") != "file":
            return  # not a message of this widget's script
        data = bytes(buffers[0]) if buffers and len(buffers) == 1 else b""
        for handler in self._handlers:
            handler(data[: self.max_bytes + 1])
