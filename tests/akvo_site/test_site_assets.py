"""The front-end files: content-hashed names are cached for good, others revalidated."""

from __future__ import annotations

import json
import posixpath
import re
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from akvo_site.app import SMALL_POOLS, serve_in_background
from akvo_site.assets import IMMUTABLE, is_hashed

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"


@pytest.mark.parametrize(
    ("name", "hashed"),
    [
        ("static/remoteEntry.698dcaf7.js", True),
        ("static/7.2a0ce575775f5aad.js", True),
        ("static/style.js", False),
        ("package.json", False),
        ("static/981.7a1ccc069cbc4b318b98.js.LICENSE.txt", False),
        ("static/main.js", False),
    ],
)
def test_only_content_hashed_names_are_immutable(name: str, hashed: bool) -> None:
    assert is_hashed(f"/voila/labextensions/bqplot/{name}") is hashed


@pytest.fixture(scope="module")
def book_url() -> Iterator[str]:
    ARTIFACTS.mkdir(exist_ok=True)
    with serve_in_background(ROOT / "book", ARTIFACTS / "voila-assets.log", *SMALL_POOLS) as s:
        yield s.url


def test_the_extension_files_a_page_loads_are_served_immutable(book_url: str) -> None:
    """The entry files a page names (Voilà's page configuration) are cached for good."""
    with urllib.request.urlopen(f"{book_url}/voila/render/index.ipynb", timeout=60) as page:
        html = page.read().decode()
    config = json.loads(
        re.search(
            r'<script id="jupyter-config-data" type="application/json">(.*?)</script>', html, re.S
        ).group(1)  # type: ignore[union-attr]
    )
    entries = [
        f"{config['fullLabextensionsUrl']}/{e['name']}/{posixpath.normpath(e['load'])}"
        for e in config["federated_extensions"]
    ]
    assert any("jupyterlab-manager/static/remoteEntry." in e for e in entries), entries
    for entry in entries:
        with urllib.request.urlopen(f"{book_url}{entry}", timeout=30) as answer:
            assert answer.status == 200
            assert answer.headers["Cache-Control"] == IMMUTABLE
            assert len(answer.read()) > 0


def test_a_file_without_a_hash_keeps_no_cache(book_url: str) -> None:
    url = f"{book_url}/voila/labextensions/bqplot/static/style.js"
    with urllib.request.urlopen(url, timeout=30) as answer:
        assert answer.headers["Cache-Control"] == "no-cache"


@pytest.mark.server
def test_tornado_settings_reach_the_application() -> None:
    """``--Voila.tornado_settings`` set at construction: gzip (``compress_response``) works."""
    ARTIFACTS.mkdir(exist_ok=True)
    gzip = "--Voila.tornado_settings=compress_response=1"
    log = ARTIFACTS / "voila-gzip.log"
    with serve_in_background(ROOT / "book", log, *SMALL_POOLS, gzip) as server:
        request = urllib.request.Request(
            f"{server.url}/voila/static/voila.js", headers={"Accept-Encoding": "gzip"}
        )
        with urllib.request.urlopen(request, timeout=30) as answer:
            assert answer.headers["Content-Encoding"] == "gzip"
