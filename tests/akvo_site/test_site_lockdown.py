"""Visitors cannot change how the site looks, and near-miss page addresses land cleanly.

- ``?template=…`` and ``?theme=…`` are ignored (the book's template and theme, French, no
  CDN script), a hostile value gets the page, never a 500;
- ``allow_template_override`` / ``allow_theme_override`` are off in ``book/voila.json`` and
  forced off by the server;
- ``/voila/render/des`` (no ``.ipynb``) and trailing slashes are redirected to the page, or get
  the French 404 page;
- ``python -m akvo_site . --template=NAME`` serves that template (the operator's
  choice), as its docstring says.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from akvo_site import app as site
from akvo_site.app import SMALL_POOLS, RunningServer, serve_in_background

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
PAGE = "des.ipynb"


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def fetch(url: str, *, follow: bool = True) -> tuple[int, str, str]:
    """Status, body and ``Location`` header of a GET."""
    opener = urllib.request.build_opener(*(() if follow else (_NoRedirect(),)))
    try:
        with opener.open(url, timeout=90) as response:
            return response.status, response.read().decode(), response.headers.get("Location", "")
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(), error.headers.get("Location", "")


@pytest.fixture(scope="module")
def server() -> Iterator[RunningServer]:
    ARTIFACTS.mkdir(exist_ok=True)
    with serve_in_background(ROOT / "book", ARTIFACTS / "voila-lockdown.log", *SMALL_POOLS) as s:
        yield s


def test_overrides_are_off_in_the_configuration() -> None:
    config = json.loads((ROOT / "book" / "voila.json").read_text())["VoilaConfiguration"]
    assert config["allow_template_override"] == "NO"
    assert config["allow_theme_override"] == "NO"


@pytest.mark.parametrize(
    "query",
    [
        "template=reveal&theme=dark",
        "template=classic",
        "template=../../etc",
        "theme=JupyterLab%20Dark",
        "template=%00%ff&theme=../x",
    ],
)
def test_the_look_cannot_be_changed_from_the_address_bar(server: RunningServer, query: str) -> None:
    status, html, _ = fetch(f"{server.url}/voila/render/{PAGE}?{query}")
    assert status == 200, query
    assert '<html lang="fr">' in html
    assert 'data-akvo-page="des"' in html, "the book's own template"
    assert "/voila/templates/akvo/static/akvo.css" in html
    assert "cdn.jsdelivr.net" not in html and "reveal" not in html.lower()
    assert "theme-dark" not in html and '"jupyterLabTheme": "light"' in html


@pytest.mark.parametrize("path", ["des", "des/", "des.ipynb/", "des.ipynb//"])
def test_near_miss_addresses_reach_the_page(server: RunningServer, path: str) -> None:
    status, _, location = fetch(f"{server.url}/voila/render/{path}", follow=False)
    assert status == 301, path
    assert location == f"/voila/render/{PAGE}"


@pytest.mark.parametrize("path", ["absente", "absente/", ".cachee", "../voila", "des.txt/"])
def test_near_misses_without_a_page_get_the_french_404(server: RunningServer, path: str) -> None:
    status, html, _ = fetch(f"{server.url}/voila/render/{path}", follow=False)
    assert status == 404, path
    assert "Page introuvable" in html and '<html lang="fr">' in html


def test_the_operator_may_choose_the_template(monkeypatch: pytest.MonkeyPatch) -> None:
    launched: list[list[str]] = []
    monkeypatch.setattr(site.BookServer, "launch_instance", lambda argv: launched.append(argv))
    site.main([".", "--port=1"])
    site.main([".", "--template=lab"])
    assert launched == [["--template=akvo", ".", "--port=1"], [".", "--template=lab"]]
