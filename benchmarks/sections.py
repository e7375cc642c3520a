"""Write one section of a results file and keep the others: several benchmarks record into
``results/coach.md``, each under its own ``## `` heading, and none may erase another's."""

from __future__ import annotations

from pathlib import Path


def replace_section(text: str, heading: str, lines: list[str]) -> str:
    """``text`` with the section that starts at the line ``heading`` (up to the next line
    starting with ``## ``, or the end) replaced by ``lines``; appended when absent."""
    body = "\n".join(lines).rstrip("\n") + "\n"
    old = text.splitlines(keepends=True)
    start = next((i for i, line in enumerate(old) if line.rstrip("\n") == heading), None)
    if start is None:
        joined = "".join(old).rstrip("\n")
        return (joined + "\n\n" if joined else "") + body
    end = next((i for i in range(start + 1, len(old)) if old[i].startswith("## ")), len(old))
    tail = "".join(old[end:])
    return "".join(old[:start]) + body + ("\n" + tail if tail else "")


def write_section(path: Path, heading: str, lines: list[str]) -> None:
    """Record ``lines`` (starting with ``heading``) as that section of ``path``."""
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(replace_section(text, heading, lines), encoding="utf-8")


def show_and_record(path: Path, heading: str, lines: list[str], *, record: bool) -> int:
    """Print ``lines`` and, unless ``record`` is false (a trial run), record them as their
    section of ``path``; the benchmark's exit status (0) for ``main`` to return."""
    print("\n".join(lines))
    if record:
        write_section(path, heading, lines)
    return 0
