"""A match in progress kept in the reader's own browser (issue 19.5).

:class:`MatchKeeper` is an invisible anywidget: the page sends it the record of the match
in progress after each decision, and its script stores it in ``localStorage`` (so only
this browser, this reader, can read it back: nothing is kept on the server); on a reload,
the back button or a reopened tab it hands the stored record back, which the kernel checks
like any file (:func:`.records.load_record`: a tampered or foreign record gets the French
refusal). While a match is in progress, leaving the page asks first (``beforeunload``).
The page « Exercices » keeps its score in a slot of its own the same way (:mod:`.kept_score`).
A slot with a ``server_copy`` route (« Vos erreurs », :func:`.mistakes.mistakes_keeper`) is
also sent there with the key of the browser's online profile (localStorage « akvo-profile »),
when it has one, on opening and after each change; the server's answer (the two sets
merged) is kept in its place, and handed to the kernel on opening.
"""

from __future__ import annotations

from pathlib import Path

import anywidget
import traitlets

HERE = Path(__file__).resolve().parent


class MatchKeeper(anywidget.AnyWidget):  # type: ignore[misc]
    _esm = HERE / "keeper.js"
    key = traitlets.Unicode("match").tag(sync=True)  # one slot per page
    saved = traitlets.Unicode("").tag(sync=True)  # what the browser held on opening
    to_store = traitlets.Unicode("").tag(sync=True)  # the record to keep ("" forgets it)
    guard = traitlets.Bool(False).tag(sync=True)  # ask before leaving the page
    server_copy = traitlets.Unicode("").tag(sync=True)  # the route keeping a profile's copy
