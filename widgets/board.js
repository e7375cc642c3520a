// The live board's browser side. It holds no rule: Python sends ready-made SVG and HTML
// (traits svg, overlay, status, details, selected_key) and decides what each button does;
// this module inserts them and reports which button was activated (click, Enter or Space).

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
  el.append(status, figure, details);

  // Focus follows an element across redraws by its data-key.
  function focusedKey() {
    const active = document.activeElement;
    return active && el.contains(active) ? active.getAttribute("data-key") : null;
  }
  function refocus(key) {
    if (!key) return;
    const again = el.querySelector(`[data-key="${CSS.escape(key)}"]`);
    if (again) again.focus();
  }
  function markSelected() {
    const key = model.get("selected_key");
    for (const unit of figure.querySelectorAll(".akvo-board-unit[data-hit]")) {
      unit.setAttribute("aria-pressed", String(unit.getAttribute("data-key") === key));
    }
  }
  function drawOverlay() {
    const key = focusedKey();
    const layer = figure.querySelector(".akvo-board-overlay");
    if (layer) layer.innerHTML = model.get("overlay");
    details.innerHTML = model.get("details");
    markSelected();
    refocus(key);
  }
  function drawBoard() {
    const key = focusedKey();
    figure.innerHTML = model.get("svg");
    status.innerHTML = model.get("status");
    drawOverlay();
    refocus(key);
  }

  function report(target) {
    const hit = target.closest("[data-hit]");
    if (!hit || !el.contains(hit)) return false;
    model.send({
      kind: hit.getAttribute("data-hit"),
      key: hit.getAttribute("data-key"),
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
      model.send({ kind: "escape" });
    }
  };
  el.addEventListener("click", onClick);
  el.addEventListener("keydown", onKey);
  model.on("change:svg", drawBoard);
  model.on("change:status", () => { status.innerHTML = model.get("status"); });
  model.on("change:overlay", drawOverlay);
  model.on("change:details", () => { details.innerHTML = model.get("details"); });
  model.on("change:selected_key", markSelected);
  drawBoard();
  return () => {
    el.removeEventListener("click", onClick);
    el.removeEventListener("keydown", onKey);
  };
}

export default { render };
