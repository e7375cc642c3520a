// The live board's browser side. It holds no rule: Python sends ready-made SVG and HTML
// (traits svg, overlay, status, details, selected_key, legend, and `choices`: the selection
// layer and details of every mage that may be clicked) and decides what each button does. This
// module inserts them and reports which button was activated (click, Enter or Space).
// A click on a mage shows its precomputed choice at once; Python then confirms it.

function render({ model, el }) {
  el.classList.add("akvo-board");
  const status = document.createElement("div");
  status.className = "akvo-board-status";
  status.setAttribute("aria-live", "polite");
  const figure = document.createElement("div");
  figure.className = "akvo-board-figure";
  const details = document.createElement("div");
  details.className = "akvo-board-details";
  details.setAttribute("aria-live", "polite");
  // The legend: a native <details> toggle (keyboard-reachable), filled when first opened
  // (a closed legend adds nothing to the page).
  const legend = document.createElement("details");
  legend.className = "akvo-board-legend";
  const summary = document.createElement("summary");
  summary.textContent = "Légende";
  const legendBody = document.createElement("div");
  const fillLegend = () => {
    if (legend.open) legendBody.innerHTML = model.get("legend");
  };
  legend.addEventListener("toggle", fillLegend);
  legend.append(summary, legendBody);
  el.append(status, figure, details, legend);
  let shownOverlay = null;
  let shownDetails = null;

  // Focus follows an element across redraws by its data-key.
  function focusedKey() {
    const active = document.activeElement;
    return active && el.contains(active) ? active.getAttribute("data-key") : null;
  }
  function refocus(key) {
    if (!key) return;
    const again = el.querySelector(`[data-key="${CSS.escape(key)}"]`);
    if (again && again !== document.activeElement) again.focus();
  }
  function markSelected(key) {
    for (const unit of figure.querySelectorAll(".akvo-board-unit[data-hit]")) {
      unit.setAttribute("aria-pressed", String(unit.getAttribute("data-key") === key));
    }
  }
  function show(overlay, text) {
    const key = focusedKey();
    const layer = figure.querySelector(".akvo-board-overlay");
    if (layer && overlay !== shownOverlay) {
      layer.innerHTML = overlay;
      shownOverlay = overlay;
    }
    if (text !== shownDetails) {
      details.innerHTML = text;
      shownDetails = text;
    }
    refocus(key);
  }
  function drawSelection() {
    show(model.get("overlay"), model.get("details"));
    markSelected(model.get("selected_key"));
    el.setAttribute("data-selected", model.get("selected_key")); // as Python has it
  }
  function drawBoard() {
    const key = focusedKey();
    figure.innerHTML = model.get("svg");
    shownOverlay = null;
    status.innerHTML = model.get("status");
    drawSelection();
    refocus(key);
  }
  function preview(key) {
    const choice = (model.get("choices") || {})[key];
    if (!choice) return;
    show(choice.overlay, choice.details);
    markSelected(key);
  }

  function report(target) {
    const hit = target.closest("[data-hit]");
    if (!hit || !el.contains(hit)) return false;
    const kind = hit.getAttribute("data-hit");
    const key = hit.getAttribute("data-key");
    if (kind === "unit") preview(key);
    model.send({
      kind,
      key,
      side: hit.getAttribute("data-side"),
      character: hit.getAttribute("data-character"),
    });
    return true;
  }
  const onClick = (event) => {
    if (report(event.target)) event.preventDefault();
  };
  const onKey = (event) => {
    if (event.key === "Enter" || event.key === " ") {
      if (report(event.target)) event.preventDefault();
    } else if (event.key === "Escape") {
      preview("");
      model.send({ kind: "escape" });
    }
  };
  el.addEventListener("click", onClick);
  el.addEventListener("keydown", onKey);
  model.on("change:svg", drawBoard);
  model.on("change:status", () => { status.innerHTML = model.get("status"); });
  model.on("change:overlay", drawSelection);
  model.on("change:details", drawSelection);
  model.on("change:selected_key", drawSelection);
  model.on("change:legend", fillLegend);
  drawBoard();
  return () => {
    el.removeEventListener("click", onClick);
    el.removeEventListener("keydown", onKey);
    legend.removeEventListener("toggle", fillLegend);
  };
}

export default { render };
