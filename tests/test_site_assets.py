"""The front-end files: immutable caching of content-hashed names, and the preload hints."""

from __future__ import annotations

import re
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from voila.utils import get_voila_labextensions_path  # type: ignore[import-untyped]

from akvo_widgets.site import SMALL_POOLS, serve_in_background
from akvo_widgets.site_assets import IMMUTABLE, Preloads, exposed_chunks, is_hashed

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "test-artifacts"

#: A webpack remoteEntry in the shape the installed extensions ship (bqplot's, shortened):
#: "./extension" needs chunks 395 (shared-module fallback, never fetched) and 467.
ENTRY = (
    '"./index":()=>Promise.all([t.e(649),t.e(147)]).then((()=>()=>t(1568))),'
    '"./extension":()=>Promise.all([t.e(395),t.e(467)]).then((()=>()=>t(4467)))'
    ';j.u=e=>e+"."+{147:"995621b367d712db6a42",395:"58724eeac47dfa95920e",'
    '467:"4caeb68b3b052790671a"}[e]+".js?v="+{147:"995621b367d712db6a42"}[e],'
    "j.f.j=(r,t)=>{var n=j.o(e,r)?e[r]:void 0;if(0!==n)if(n)t.push(n[2]);"
    "else if(/^(395|649|769)$/.test(r))e[r]=0;else{}}"
)


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


def test_exposed_chunks_are_read_from_the_entry_table() -> None:
    assert exposed_chunks(ENTRY, ("./extension",)) == [
        "467.4caeb68b3b052790671a.js?v=4caeb68b3b052790671a"
    ]
    assert exposed_chunks(ENTRY, ("./index",)) == [
        "147.995621b367d712db6a42.js?v=995621b367d712db6a42"
    ]
    assert exposed_chunks("var x = 1;", ("./extension",)) == []


def test_every_hint_of_the_installed_extensions_is_a_file() -> None:
    roots = get_voila_labextensions_path()
    config = {
        "fullLabextensionsUrl": "/voila/labextensions",
        "federated_extensions": [
            {
                "name": "bqplot",
                "load": "static/remoteEntry.e01ddc1715812041a9e5.js",
                "extension": "./extension",
            },
        ],
    }
    found = [root for root in roots if (Path(root) / "bqplot").is_dir()]
    if not found:
        pytest.skip("bqplot's front end is not installed")
    load = next((Path(found[0]) / "bqplot" / "static").glob("remoteEntry.*.js"))
    config["federated_extensions"][0]["load"] = f"static/{load.name}"  # type: ignore[index]
    urls = Preloads(roots).urls(config)
    assert urls[0] == f"/voila/labextensions/bqplot/static/{load.name}"
    assert len(urls) >= 2  # the entry and the chunk of its "./extension"
    for url in urls:
        file = url.removeprefix("/voila/labextensions/").split("?")[0]
        assert (Path(found[0]) / file).is_file(), url


@pytest.fixture(scope="module")
def book_url() -> Iterator[str]:
    ARTIFACTS.mkdir(exist_ok=True)
    with serve_in_background(ROOT / "book", ARTIFACTS / "voila-assets.log", *SMALL_POOLS) as s:
        yield s.url


def test_a_page_hints_its_extension_files_served_immutable(book_url: str) -> None:
    with urllib.request.urlopen(f"{book_url}/voila/render/index.ipynb", timeout=60) as page:
        html = page.read().decode()
    hints = re.findall(r'<link rel="preload" href="([^"]+)" as="script" />', html)
    # The widget manager's entry file and its first chunk, at least.
    assert any("jupyterlab-manager/static/remoteEntry." in h for h in hints), hints
    assert len(hints) >= 5
    for hint in hints:
        with urllib.request.urlopen(f"{book_url}{hint}", timeout=30) as answer:
            assert answer.status == 200
            assert answer.headers["Cache-Control"] == IMMUTABLE
            assert len(answer.read()) > 0


def test_a_file_without_a_hash_keeps_no_cache(book_url: str) -> None:
    url = f"{book_url}/voila/labextensions/bqplot/static/style.js"
    with urllib.request.urlopen(url, timeout=30) as answer:
        assert answer.headers["Cache-Control"] == "no-cache"
