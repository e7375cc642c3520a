"""Guards of the book server against hostile or careless clients (no game logic here).

- :class:`GuardedKernelWebsocketHandler`: the kernel websocket speaks only Jupyter's v1
  binary protocol and checks every frame's offset table before anything parses it. Voilà
  0.5.13 reads every outgoing binary frame as v1, even on a legacy (no subprotocol)
  connection, where the legacy header makes it count ~10¹⁸ offsets on the event loop: one
  crafted client froze the whole site. jupyter_server parses incoming v1 frames the same
  unchecked way.
- :func:`host_allowed`: the Host header must name a loopback address, ``localhost`` or one
  of the configured public names (DNS-rebinding protection; Voilà disables jupyter_server's
  own check with ``allow_remote_access=True``).
- :func:`log_request` and :func:`redacted_path`: the access log names the path only, with
  any segment long enough to be a seat token masked (a query or a pasted link may hold one);
  :func:`mask_log_secrets` masks what other log lines quote (Voilà's 404 names the file
  asked for, Tornado's warnings the whole URI).
"""

from __future__ import annotations

import ipaddress
import itertools
import json
import logging
import re
from collections.abc import Iterable
from typing import Any

from tornado import log as tornado_log
from tornado import web
from voila.tornado.kernel_websocket_handler import (  # type: ignore[import-untyped]
    VoilaKernelWebsocketHandler,
)

#: The only kernel websocket protocol the site speaks (what JupyterLab's and Voilà's
#: front ends request).
V1_PROTOCOL = "v1.kernel.websocket.jupyter.org"
#: A v1 frame is channel + header, parent header, metadata, content and a few buffers;
#: more offsets than this is not a widget message.
MAX_OFFSETS = 64

_WORD = 8


def v1_offsets(frame: bytes) -> list[int] | None:
    """The offset table of a v1 frame, or None if the frame is not a well-formed v1 frame.

    Layout: offset count n (8 bytes, little endian), then n offsets (8 bytes each), then the
    parts; offsets start after the table, never decrease and stay inside the frame. At least
    channel, header, parent header, metadata and content (n ≥ 6).
    """
    if len(frame) < _WORD:
        return None
    count = int.from_bytes(frame[:_WORD], "little")
    table_end = _WORD * (count + 1)
    if not 6 <= count <= MAX_OFFSETS or table_end > len(frame):
        return None
    offsets = [
        int.from_bytes(frame[_WORD * (i + 1) : _WORD * (i + 2)], "little") for i in range(count)
    ]
    if offsets[0] != table_end or offsets[-1] > len(frame):
        return None
    if any(later < earlier for earlier, later in itertools.pairwise(offsets)):
        return None
    return offsets


def _v1_part(frame: bytes, offsets: list[int], index: int) -> dict[str, Any] | None:
    """Part ``index`` of a v1 frame decoded as a JSON object (1 header, 4 content), else None."""
    try:
        part = json.loads(frame[offsets[index] : offsets[index + 1]].decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None
    return part if isinstance(part, dict) else None


def v1_header(frame: bytes) -> dict[str, Any] | None:
    """The decoded message header of a well-formed v1 frame, else None."""
    offsets = v1_offsets(frame)
    return None if offsets is None else _v1_part(frame, offsets, 1)


def hidden_from_visitors(frame: bytes) -> bool:
    """True for kernel output a visitor must not get: echoed code, errors, stderr.

    ``execute_input`` echoes the page's code (Voilà hides it too); ``error`` messages and
    the ``stderr`` stream carry tracebacks with server paths (e.g. a failing comm handler).
    A frame that is not well-formed v1 is hidden as well.
    """
    offsets = v1_offsets(frame)
    header = None if offsets is None else _v1_part(frame, offsets, 1)
    if offsets is None or header is None:
        return True
    kind = header.get("msg_type")
    if kind in ("execute_input", "error"):
        return True
    if kind == "stream":
        content = _v1_part(frame, offsets, 4)
        return content is None or content.get("name") != "stdout"
    return False


class GuardedKernelWebsocketHandler(VoilaKernelWebsocketHandler):
    """Voilà's kernel websocket, for v1 clients only, with every frame checked.

    A client that does not offer the v1 subprotocol is refused before the upgrade (HTTP
    400); a text frame or a malformed binary frame closes the connection (code 1003).
    Voilà's message-type filter (clients may send only comm messages, kernel info and
    shutdown) stays; on the way out, code echoes, errors and stderr are withheld
    (:func:`hidden_from_visitors`).
    """

    async def get(self, *args: Any, **kwargs: Any) -> None:
        offered = self.request.headers.get("Sec-WebSocket-Protocol", "")
        if V1_PROTOCOL not in (p.strip() for p in offered.split(",")):
            self.set_status(400)
            self.finish("This websocket speaks only " + V1_PROTOCOL)
            return
        await super().get(*args, **kwargs)

    async def open(self, *args: Any, **kwargs: Any) -> None:
        # Widget messages are small writes: without TCP_NODELAY, Nagle's algorithm holds a
        # write back until the browser's delayed ACK (~40 ms) — most of a round trip.
        if self.connection is None:  # the client left before the upgrade finished
            return
        self.set_nodelay(True)
        await super().open(*args, **kwargs)

    def select_subprotocol(self, subprotocols: list[str]) -> str | None:
        return V1_PROTOCOL if V1_PROTOCOL in subprotocols else None

    def on_message(self, ws_message: str | bytes) -> None:
        if not isinstance(ws_message, bytes) or v1_offsets(ws_message) is None:
            self.log.warning("Closing a kernel websocket that sent a malformed frame")
            self.close(1003, "malformed frame")
            return
        super().on_message(ws_message)

    def write_message(self, message: bytes | str | dict[str, Any], binary: bool = False) -> Any:
        if isinstance(message, bytes) and hidden_from_visitors(message):
            self.log.debug("Kernel output withheld from a visitor (code, error or stderr)")
            return None
        # Skip Voilà's override (its unchecked v1 parser is the bug this class fixes).
        return super(VoilaKernelWebsocketHandler, self).write_message(message, binary)


_HOST_PORT = re.compile(r"^(?P<host>\[[^\]]*\]|[^:]*)(?::\d+)?$")


def host_allowed(host_header: str, public_hosts: Iterable[str]) -> bool:
    """True if ``host_header`` names a loopback address, ``localhost`` or a public host.

    The port is ignored; names compare case-insensitively; a public name starting with a
    dot (``.example.org``) allows its subdomains too.
    """
    match = _HOST_PORT.match(host_header.strip())
    if match is None:
        return False
    host = match.group("host").strip("[]").lower().rstrip(".")
    if not host:
        return False
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        pass
    if host == "localhost":
        return True
    for name in public_hosts:
        name = name.lower().rstrip(".")
        if host == name or (name.startswith(".") and host.endswith(name)):
            return True
    return False


#: A path segment this long may be a secret (seat tokens are 43 characters; table ids 16).
SECRET_LENGTH = 32


def redacted_path(path: str) -> str:
    """``path`` (no query) with every segment of :data:`SECRET_LENGTH` characters or more
    masked: a token pasted in the wrong place never reaches a log."""
    return "/".join("…" if len(part) >= SECRET_LENGTH else part for part in path.split("/"))


#: A word this long in a log line may be a token (seat tokens: 43 characters; a UUID, 36,
#: stays readable).
_SECRET_WORD = re.compile(r"(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{40,}")
_TOKEN_ARGUMENT = re.compile(r"(token=)[^&\s'\"]*")


def masked(text: str) -> str:
    """``text`` with ``token=…`` values and token-long words masked."""
    return _SECRET_WORD.sub("…", _TOKEN_ARGUMENT.sub(r"\1…", text))


def mask_log_secrets() -> None:
    """Every log record of this process is formatted with :func:`masked` (a record
    factory: whatever logger or handler, no line quotes a seat token). Idempotent."""
    factory = logging.getLogRecordFactory()
    if getattr(factory, "akvo_masking", False):
        return

    def masking(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = factory(*args, **kwargs)
        try:
            message = record.getMessage()
        except Exception:  # a malformed record stays as it was: logging reports it
            return record
        record.msg, record.args = masked(message), None
        return record

    masking.akvo_masking = True  # type: ignore[attr-defined]
    logging.setLogRecordFactory(masking)


def request_summary(handler: web.RequestHandler) -> str:
    """``GET /path`` as logs may show it: no query, no headers, no long segment."""
    return f"{handler.request.method} {redacted_path(handler.request.path)}"


def log_request(handler: web.RequestHandler) -> None:
    """The server's access log line (Tornado's ``log_function``): status, method, redacted
    path, time; never the query, whose ``token=`` would otherwise reach the log on a 404 or
    a refused Host."""
    status = handler.get_status()
    if status < 400:
        level = tornado_log.access_log.info
    elif status < 500:
        level = tornado_log.access_log.warning
    else:
        level = tornado_log.access_log.error
    took = 1000.0 * handler.request.request_time()
    level("%d %s %.2fms", status, request_summary(handler), took)


class RefusedHostHandler(web.RequestHandler):
    """Any request whose Host header is not allowed: 403, in French, nothing else."""

    def _request_summary(self) -> str:
        return request_summary(self)

    def prepare(self) -> None:
        self.set_status(403)
        self.set_header("Content-Type", "text/plain; charset=utf-8")
        self.finish("Hôte non autorisé.\n")
