"""Shared test configuration: a deterministic hypothesis profile for CI, and the lanes.

Two markers sort the suite into lanes (``make check`` runs neither; ``make test`` runs all):

- ``browser``: drives the site in headless Chromium (every test under ``tests/browser/``);
- ``server``: starts a book server. Given here to every test that uses a server fixture
  (:data:`SERVER_FIXTURES`); a test that starts one itself carries the marker explicitly.
  ``make check`` sets ``AKVO_NO_SERVERS=1``, under which
  :func:`akvo_site.app.serve_in_background` refuses to start: an unmarked test that
  starts a server fails the fast lane instead of slowing it down.
"""

import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", max_examples=100, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

#: Fixtures that start a book server: a test using one is in the ``server`` lane.
SERVER_FIXTURES = frozenset({"server", "book_url", "base_url"})


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if SERVER_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.server)
