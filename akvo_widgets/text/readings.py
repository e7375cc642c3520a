"""The French readings of each rules switch as (label, option) pairs, default first: a view
of :data:`akvo.switches.SWITCHES` (where they are declared) in the shape of a drop-down's
options, for the online tables' form (which must not import a UI library to read them)."""

from __future__ import annotations

from akvo.switches import SWITCHES

#: The readings of each switch, default first, with their French labels.
READINGS: dict[str, tuple[tuple[str, str], ...]] = {
    field: tuple((switch.reading(option), option) for option in switch.options)
    for field, switch in SWITCHES.items()
}
