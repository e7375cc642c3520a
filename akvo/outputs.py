"""Output files of the command line: checked before any work starts, written whole or not at
all, and never lost.

A command that simulates for minutes must not find out at the end that its ``--out`` cannot
be written: :func:`check_writable` refuses at once a path whose folder is missing (the
command does not create folders: a typo in a folder name should not leave a new folder
behind), is read-only or is a folder. :func:`write_whole` writes a temporary file beside
the target and renames it over the target, so a reader never sees half a file and a failed
write leaves any old file intact. If the write still fails (disk full, folder removed
meanwhile), :func:`save_elsewhere` keeps the text in the temporary folder and the error
names where.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from akvo.errors import AkvoError


class OutputError(AkvoError):
    """An output path that cannot be written (found before any work starts)."""


class OutputNotWritten(AkvoError):
    """The work is done but its output could not be written where asked: the message names
    where it was saved instead; ``unsaved`` holds the text when it could be saved nowhere
    (the command line then prints it). The command line still prints what it computed."""

    def __init__(self, message: str, unsaved: str | None = None) -> None:
        super().__init__(message)
        self.unsaved = unsaved


def check_writable(path: Path, option: str = "--out") -> None:
    """Raise :class:`OutputError` unless ``path`` can be written: its folder exists and
    takes a new file (tried with a temporary file, removed at once), and ``path`` is not
    a folder or a read-only file."""
    folder = path.parent
    if not folder.is_dir():
        reason = "is not a folder" if folder.exists() else "does not exist"
        raise OutputError(
            f"{option} {str(path)!r}: the folder {str(folder)!r} {reason}; "
            "create it first (nothing was run)"
        )
    if path.is_dir():
        raise OutputError(f"{option} {str(path)!r} is a folder; give a file name")
    if path.exists() and not os.access(path, os.W_OK):
        raise OutputError(f"{option} {str(path)!r} is read-only (nothing was run)")
    try:
        handle, probe = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    except OSError as error:
        raise OutputError(
            f"{option} {str(path)!r}: cannot write in {str(folder)!r} "
            f"({error.strerror or error}; nothing was run)"
        ) from None
    os.close(handle)
    os.unlink(probe)


def write_whole(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same folder renamed over
    it: ``path`` holds either its old content or all of ``text``. Raises ``OSError``."""
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
            stream.write(text)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def save_elsewhere(text: str, path: Path) -> Path | None:
    """Keep ``text`` (meant for ``path``) in the temporary folder under a new name with the
    same suffix; the file written, or ``None`` if that fails too."""
    try:
        handle, kept = tempfile.mkstemp(prefix=f"akvo-{path.stem}-", suffix=path.suffix)
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
            stream.write(text)
    except OSError:
        return None
    return Path(kept)


def write_or_keep(path: Path, text: str, what: str) -> None:
    """:func:`write_whole`, or on failure :func:`save_elsewhere` and
    :class:`OutputNotWritten` naming where ``what`` (« the 1000 matches ») went."""
    try:
        write_whole(path, text)
    except OSError as error:
        kept = save_elsewhere(text, path)
        where = f"saved to {kept}" if kept else "printed above (no file could be written)"
        raise OutputNotWritten(
            f"cannot write {str(path)!r} ({error.strerror or error}); {what} {where}",
            None if kept else text,
        ) from None
