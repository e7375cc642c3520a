"""``python -m akvo_site``: serve the book (see :mod:`akvo_site.app`)."""

from akvo_site.app import main

main()
