"""akvo_site — the book's server: Voilà made safe for public readers, and the online tables.

Runs in the Tornado server process, never in a kernel: it imports :mod:`akvo`,
:mod:`akvo_widgets.text` and :mod:`akvo_widgets.board.svg`, never ipywidgets. Started with
``python -m akvo_site`` (:func:`akvo_site.app.main`).
"""
