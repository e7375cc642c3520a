"""The live board: the widget and its JavaScript and CSS (:mod:`.widget`), the SVG renderer
(:mod:`.svg`, which the server's online tables read too), the legend, the reserved height and
the pages' board view.

Deliberately empty: importing :mod:`akvo_widgets.board.svg` must not import the widget.
"""
