"""``python -m akvo``: the command line of :mod:`akvo.cli`."""

from akvo.cli import main

raise SystemExit(main())
