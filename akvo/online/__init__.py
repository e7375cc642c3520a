"""Online tables: 2, 4 or 6 people on their own devices around one match (issue 23).

Pure Python, no web framework: the HTTP layer (:mod:`akvo_site.tables.api`) only
routes requests here.

- :mod:`akvo.online.sharing`: who plays which characters (annex « Jeu en équipes »);
- :mod:`akvo.online.seating`: a table's setup and seats, checked from untrusted JSON;
- :mod:`akvo.online.roles`: which characters take each decision of the engine;
- :mod:`akvo.online.table`: a table, the rules of who may act, orders assembled from parts;
- :mod:`akvo.online.views`: what each seat and a spectator see;
- :mod:`akvo.online.clock`: a table's clock (« en direct », « sur plusieurs jours »);
- :mod:`akvo.online.store`: the SQLite store, an append-only action log per table;
- :mod:`akvo.online.store_pg`: the same log on PostgreSQL, for several servers;
- :mod:`akvo.online.service`: open tables, tokens, bots, pushes, presence, takeovers;
- :mod:`akvo.online.ratings`: Glicko-2 ratings of pseudonymous profiles from finished tables.
"""

from akvo.online.seating import Seat, TableRefusal, TableSetup, parse_request
from akvo.online.table import SPECTATOR, Table
from akvo.online.views import PlainLabels, seat_view, view_json

__all__ = [
    "SPECTATOR",
    "PlainLabels",
    "Seat",
    "Table",
    "TableRefusal",
    "TableSetup",
    "parse_request",
    "seat_view",
    "view_json",
]
