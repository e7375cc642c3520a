"""Valid exercise sets made fast for the tests of « Vos erreurs » (issue 34.7): positions of a
real match, each with legal answers, without an analysis (a review takes seconds)."""

from __future__ import annotations

from typing import Any

from akvo.coach.exercises import Exercise, exercise_id
from akvo.match.state import replay


def valid_exercises(record: dict[str, Any], count: int, start: int = 2) -> tuple[Exercise, ...]:
    """``count`` exercises from the positions after ``start``, ``start + 1``… actions of
    ``record`` that offer two options at least (the first named the mistake, the second
    the right answer): what :func:`akvo.coach.exercises.import_json` accepts."""
    out: list[Exercise] = []
    for done in range(start, len(record["actions"])):
        prefix = {**record, "actions": record["actions"][:done]}
        position = replay(prefix, log=False)
        legal = sorted(position.legal)
        if len(legal) < 2:
            continue
        coup = done + 1
        out.append(
            Exercise(
                exercise_id(prefix, coup),
                coup,
                position.player,
                "erreur",
                prefix,
                legal[0],
                legal[1],
                (legal[1],),
                "Trouvez une meilleure option.",
                "Une autre option faisait mieux.",
            )
        )
        if len(out) == count:
            break
    return tuple(out)
