"""The front-end files: cached for good when their name carries their content's hash.

Voilà serves the front-end extensions (``/voila/labextensions/…``) with
``Cache-Control: no-cache``: every page a reader opens asks the server again for each of them
(about 20 requests answered "304 Not Modified", in three waves, before the page can draw).
Their bundler names most of them after a hash of their content (``remoteEntry.<hash>.js``,
``<chunk id>.<hash>.js``): a new version of an extension is a new file name, so such a file
may be cached for good. Files without a hash in their name (``package.json``, ``style.js``)
keep Voilà's ``no-cache``.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path
from typing import Any

from jupyter_server.base.handlers import FileFindHandler

#: A file name whose last part before ``.js``/``.css`` is a hex content hash (8+ digits).
HASHED_NAME = re.compile(r"(^|[./])[0-9a-f]{8,}\.(js|css)$")
IMMUTABLE = "public, max-age=31536000, immutable"


def is_hashed(path: str) -> bool:
    """True if ``path``'s file name carries a content hash (``remoteEntry.698dcaf7.js``)."""
    return bool(HASHED_NAME.search(path.rsplit("/", 1)[-1]))


class HashedAssetsHandler(FileFindHandler):
    """Voilà's handler of the extensions' files, content-hashed ones immutable."""

    def set_headers(self) -> None:
        super().set_headers()
        if is_hashed(self.request.path):
            self.set_header("Cache-Control", IMMUTABLE)


# --- Preload hints -------------------------------------------------------------------------
#
# Voilà's page loads the extensions' files in waves: its app runs at the ``load`` event, then
# asks for each extension's ``remoteEntry`` file, then for the chunks of the module that
# entry exposes. ``<link rel="preload">`` hints for those files let the browser fetch them
# while it still parses and runs the app. The list is read from the installed files at
# server start (never written by hand): the entry file named by Voilà's page configuration,
# and the chunks its exposed module asks for, read from the entry's chunk table.

#: ``"./extension":()=>Promise.all([t.e(395),t.e(467)])`` or ``"./style":()=>t.e(747)``.
_EXPOSED = re.compile(r'"(\./[\w-]+)":\(\)=>(Promise\.all\(\[[^\]]*\]\)|\w\.e\(\d+\))')
_CHUNK_ID = re.compile(r"\w\.e\((\d+)\)")
#: The bundler's chunk file names: ``.u=e=>…{87:"2329d3e6…",…}[e]+".js?v="+{…}[e]``.
_CHUNK_NAMES = re.compile(
    r'\.u=\w=>[^{]*\{([0-9]+:"[0-9a-f]+"(?:,[0-9]+:"[0-9a-f]+")*)\}\)?\[\w\]\)?\+"\.js(\?v=)?'
)
#: The chunk loader skips the chunks that only hold fallbacks of shared modules:
#: ``.f.j=(r,t)=>{…else if(/^(395|649|769)$/.test(r))e[r]=0;…``.
_NOT_LOADED = re.compile(r"\.f\.j=.{0,120}?/(\^[0-9|()]*\$)/\.test\(")


def exposed_chunks(entry: str, modules: tuple[str, ...]) -> list[str]:
    """File names (as the entry requests them) of the chunks behind ``modules`` of an entry.

    ``entry`` is the text of a webpack module-federation ``remoteEntry`` file. Chunks it
    does not name in its own table (shared modules resolved at run time) are left out, as
    is everything when the format is not recognised: a missing hint only costs a wave.
    """
    names = _CHUNK_NAMES.search(entry)
    if names is None:
        return []
    table = dict(pair.split(":") for pair in names.group(1).split(","))
    versioned = names.group(2) is not None
    skipped = _NOT_LOADED.search(entry)
    not_loaded = re.compile(skipped.group(1)) if skipped else None
    out: list[str] = []
    for match in _EXPOSED.finditer(entry):
        if match.group(1) not in modules:
            continue
        for chunk in _CHUNK_ID.findall(match.group(2)):
            digest = table.get(chunk, "").strip('"')
            if not_loaded is not None and not_loaded.match(chunk):
                continue
            name = f"{chunk}.{digest}.js" + (f"?v={digest}" if versioned else "")
            if digest and name not in out:
                out.append(name)
    return out


#: The page-configuration key holding a page's preload URLs (read by the ``akvo`` template).
PRELOAD_KEY = "akvoPreload"


class Preloads:
    """The files to hint for a page, from its extensions; entry files read once, cached."""

    def __init__(self, labextension_roots: list[str]) -> None:
        self.roots = [Path(root) for root in labextension_roots]
        self._chunks: dict[str, list[str]] = {}

    def _entry_chunks(self, name: str, load: str, modules: tuple[str, ...]) -> list[str]:
        key = f"{name}/{load}"
        if key not in self._chunks:
            self._chunks[key] = []
            for root in self.roots:
                entry = root / name / load
                if entry.is_file():
                    folder = load.rsplit("/", 1)[0]
                    text = entry.read_text(encoding="utf-8", errors="replace")
                    chunks = exposed_chunks(text, modules)
                    self._chunks[key] = [f"{folder}/{chunk}" for chunk in chunks]
                    break
        return self._chunks[key]

    def urls(self, page_config: dict[str, Any]) -> list[str]:
        """URLs to preload for a page with this Voilà page configuration."""
        base = str(page_config.get("fullLabextensionsUrl", "")).rstrip("/")
        out: list[str] = []
        for extension in page_config.get("federated_extensions", []):
            name, load = extension.get("name"), extension.get("load")
            if not name or not load:
                continue
            modules = tuple(
                str(extension[key])
                for key in ("extension", "mimeExtension", "style")
                if extension.get(key)
            )
            files = [load, *self._entry_chunks(name, load, modules)]
            # As Voilà's URLExt.join does: ``./static/x.js`` → ``static/x.js``.
            out += [f"{base}/{name}/{posixpath.normpath(file)}" for file in files]
        return out

    def hook(self, page_config: dict[str, Any], **_: Any) -> dict[str, Any]:
        """Voilà's ``page_config_hook``: the page's hints under ``akvoPreload`` (the template
        writes them as ``<link rel="preload">``)."""
        return {**page_config, PRELOAD_KEY: self.urls(page_config)}
