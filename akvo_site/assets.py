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

import re

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
