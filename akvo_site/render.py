"""Page templates compiled once per server, not once per page view.

Voilà renders a page whose pre-heated pool is empty with a new exporter, hence a new Jinja
environment that parses and compiles the template files again: about 0.55 s of the server's
single thread per view (a profile of ten readers of « Les dés » on spare kernels: 5.4 s of
7.7 s), and the readers of a burst wait for each other's compilations. The exporter here
gives every environment one shared cache of compiled templates (Jinja's bytecode cache: a
template is compiled again only when its source changes), and keeps the HTML of each
markdown cell (the second cost in that profile, 12 %: every view converted the chapter's
prose again). Voilà also builds the page's front-end configuration for every view, reading
every extension's metadata from disk (8 % of the server's time in a burst over the
chapters): it depends only on the server's settings, so it is built once.
"""

from __future__ import annotations

import copy
from types import CodeType
from typing import Any

from jinja2 import BytecodeCache, pass_context
from jinja2.bccache import Bucket
from voila import handler, notebook_renderer, voila_kernel_manager  # type: ignore[import-untyped]
from voila.exporter import VoilaExporter  # type: ignore[import-untyped]
from voila.utils import get_page_config  # type: ignore[import-untyped]


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


#: (base URL, settings, Voilà configuration) → the page configuration built for them.
PAGE_CONFIGS: dict[tuple[str, int, int], dict[str, Any]] = {}


def page_config_once(
    base_url: str, settings: dict[str, Any], log: Any, voila_configuration: Any
) -> dict[str, Any]:
    """Voilà's ``get_page_config``, built once per server (a copy each time: Voilà's page
    config hook may change what it is given)."""
    key = (base_url, id(settings), id(voila_configuration))
    if key not in PAGE_CONFIGS:
        PAGE_CONFIGS[key] = get_page_config(
            base_url=base_url, settings=settings, log=log, voila_configuration=voila_configuration
        )
    return copy.deepcopy(PAGE_CONFIGS[key])


def share_compiled_templates() -> None:
    """Make Voilà's page renderer (pools and page views alike) use :class:`BookExporter`, and
    its page handler and pools :func:`page_config_once`."""
    notebook_renderer.VoilaExporter = BookExporter
    handler.get_page_config = page_config_once
    voila_kernel_manager.get_page_config = page_config_once
