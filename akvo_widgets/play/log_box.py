"""A match's log that folds away on a phone: « Afficher le journal » / « Masquer le journal ».

On a phone the compact board and the decision's sheet take most of the screen; the running
log under them is long and rarely read, so it starts folded there and a button (a real
``<button>``: Tab, then Entrée or Espace) shows it. On a wider screen the log has room: it
is always shown and the button is hidden (:data:`LOG_STYLE`). The fold is the kernel's
state, so a redraw of the log never opens or closes it.
"""

from __future__ import annotations

from typing import Final

import ipywidgets as widgets

SHOW: Final = "Afficher le journal"
HIDE: Final = "Masquer le journal"
#: The width under which the log folds (the phone layout of :data:`.game.STYLE`).
LOG_STYLE: Final = """
.akvo-play .akvo-play-log-toggle { display: none; }
@media (max-width: 640px) {
  .akvo-play .akvo-play-log-toggle { display: inline-flex; width: auto; }
  .akvo-play .akvo-play-logbox.akvo-log-folded > .akvo-play-log { display: none; }
}
"""


class LogBox(widgets.VBox):  # type: ignore[misc]
    """The toggle and the log (``events``: the page's HTML widget, which it keeps filling)."""

    def __init__(self, events: widgets.HTML) -> None:
        self.events = events
        self.toggle = widgets.ToggleButton(value=False, description=SHOW)
        self.toggle.add_class("akvo-play-log-toggle")
        self.toggle.observe(lambda _change: self._fold(), "value")
        super().__init__([self.toggle, events])
        self.add_class("akvo-play-logbox")
        self._fold()

    @property
    def folded(self) -> bool:
        return not self.toggle.value

    def _fold(self) -> None:
        self.toggle.description = SHOW if self.folded else HIDE
        self.toggle.tooltip = "Le journal du match, du plus récent au plus ancien"
        if self.folded:
            self.add_class("akvo-log-folded")
        else:
            self.remove_class("akvo-log-folded")
