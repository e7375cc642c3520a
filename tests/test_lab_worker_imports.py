"""A lab worker plays its chunk of matches without importing scipy.stats (seconds of import
on a loaded machine, and memory in every worker): the statistics are the client's job."""

from __future__ import annotations

import json
import subprocess
import sys

WORKER = """
import json, sys, warnings
warnings.simplefilter("ignore")
from akvo.config import RulesConfig
from akvo.lab.play import MatchSpec, play_chunk
from akvo.teams import preset_team

teams = (preset_team("perrockiss"), preset_team("fish-tank"))
for bots, options in ((("greedy", "random"), ()), (("search", "greedy"), (("budget", 1),))):
    spec = MatchSpec(*teams, bots, RulesConfig(weather="coin"), 3, options)
    rows = play_chunk(spec, 0, 1)
played = "scipy.stats" in sys.modules
from akvo.lab.stats import proportion
proportion(1, 2)  # the client's summary: scipy.stats comes with it
print(json.dumps({"rows": len(rows), "worker": played, "summary": "scipy.stats" in sys.modules}))
"""


def test_a_worker_chunk_does_not_import_scipy_stats() -> None:
    done = subprocess.run(
        [sys.executable, "-c", WORKER], capture_output=True, text=True, timeout=600, check=True
    )
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen == {"rows": 1, "worker": False, "summary": True}
