"""Page templates compiled once per server, not once per page view.

Voilà renders a page whose pre-heated pool is empty with a new exporter, hence a new Jinja
environment that parses and compiles the template files again: about 0.55 s of the server's
single thread per view (a profile of ten readers of « Les dés » on spare kernels: 5.4 s of
7.7 s), and the readers of a burst wait for each other's compilations. The exporter here
gives every environment one shared cache of compiled templates (Jinja's bytecode cache: a
template is compiled again only when its source changes), and keeps the HTML of each
markdown cell (the second cost in that profile, 12 %: every view converted the chapter's
prose again).
"""

from __future__ import annotations

from types import CodeType
from typing import Any

from jinja2 import BytecodeCache, pass_context
from jinja2.bccache import Bucket
from voila import notebook_renderer  # type: ignore[import-untyped]
from voila.exporter import VoilaExporter  # type: ignore[import-untyped]


class SharedTemplateCache(BytecodeCache):
    """Compiled templates in memory, shared by environments alike in sync or async mode
    (Jinja's key is the template's name and file; the compiled code differs by mode)."""

    def __init__(self) -> None:
        self._code: dict[tuple[str, bool], tuple[str, CodeType]] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        entry = self._code.get((bucket.key, bucket.environment.is_async))
        if entry is not None and entry[0] == bucket.checksum:
            bucket.code = entry[1]

    def dump_bytecode(self, bucket: Bucket) -> None:
        if bucket.code is not None:
            self._code[(bucket.key, bucket.environment.is_async)] = (bucket.checksum, bucket.code)

    def clear(self) -> None:
        self._code.clear()

    def __len__(self) -> int:
        return len(self._code)


#: The one cache of this server process.
TEMPLATES = SharedTemplateCache()


#: Most markdown conversions kept (the book has about 600 markdown cells).
MARKDOWN_KEPT = 4096

#: A markdown cell's source (and the anchor text) → its HTML, for cells without attachments.
#: Images a cell links to are inlined on the first conversion: an image file edited while the
#: server runs shows its new version after a restart (or an edit of the cell).
MARKDOWN: dict[tuple[str, str], str] = {}


class BookExporter(VoilaExporter):  # type: ignore[misc]
    """Voilà's exporter with the shared cache of compiled templates and of markdown."""

    def _create_environment(self) -> Any:
        environment = super()._create_environment()
        environment.bytecode_cache = TEMPLATES
        return environment

    @pass_context
    def markdown2html(self, context: Any, source: str) -> str:
        if context["cell"].get("attachments"):
            return str(super().markdown2html(context, source))
        key = (source, str(self.anchor_link_text))
        html = MARKDOWN.get(key)
        if html is None:
            if len(MARKDOWN) >= MARKDOWN_KEPT:
                MARKDOWN.clear()
            html = MARKDOWN[key] = str(super().markdown2html(context, source))
        return html


def share_compiled_templates() -> None:
    """Make Voilà's page renderer (pools and page views alike) use :class:`BookExporter`."""
    notebook_renderer.VoilaExporter = BookExporter
