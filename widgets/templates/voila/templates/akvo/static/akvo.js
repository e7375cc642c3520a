/* The book's page helpers (no rule here: the engine computes every number in Python).
 *
 * 1. The connection-lost notice: when the page's kernel websocket closes (server stopped,
 *    network gone, kernel shut down), a French notice with a reload button appears and the
 *    widgets are greyed out, instead of sliders that move while the numbers stay stale.
 * 2. Accessible names: a widget control without one (ipywidgets' slider handles, readouts)
 *    takes the text of its widget's label.
 */
(function () {
  "use strict";

  var NativeWebSocket = window.WebSocket;
  var leaving = false;
  window.addEventListener("beforeunload", function () { leaving = true; });
  window.addEventListener("pagehide", function () { leaving = true; });

  function notice() {
    var box = document.querySelector(".akvo-connection-lost");
    if (box) return box;
    box = document.createElement("div");
    box.className = "akvo-connection-lost";
    box.setAttribute("role", "alert");
    box.hidden = true;
    var text = document.createElement("p");
    text.textContent = "La connexion au serveur est perdue\u00a0: les résultats ne se mettent plus à jour.";
    var button = document.createElement("button");
    button.type = "button";
    button.textContent = "Recharger la page";
    button.addEventListener("click", function () { window.location.reload(); });
    box.appendChild(text);
    box.appendChild(button);
    document.body.appendChild(box);
    return box;
  }

  function setOffline(offline) {
    if (!document.body) return;
    document.body.classList.toggle("akvo-offline", offline);
    notice().hidden = !offline;
  }

  function isKernelSocket(url) {
    return /\/api\/kernels\/[^/?#]+\/channels/.test(String(url));
  }

  function BookWebSocket(url, protocols) {
    var socket = protocols === undefined
      ? new NativeWebSocket(url)
      : new NativeWebSocket(url, protocols);
    if (isKernelSocket(url)) {
      socket.addEventListener("open", function () { setOffline(false); });
      socket.addEventListener("close", function () {
        if (!leaving) setOffline(true);
      });
    }
    return socket;
  }
  BookWebSocket.prototype = NativeWebSocket.prototype;
  ["CONNECTING", "OPEN", "CLOSING", "CLOSED"].forEach(function (key) {
    BookWebSocket[key] = NativeWebSocket[key];
  });
  window.WebSocket = BookWebSocket;

  var CONTROLS = "[role='slider'], input, select, textarea, button, [contenteditable='true']";

  function hasName(control) {
    if (control.getAttribute("aria-label") || control.getAttribute("aria-labelledby")) return true;
    if (control.labels && control.labels.length && control.labels[0].textContent.trim()) return true;
    return control.tagName === "BUTTON" && control.textContent.trim() !== "";
  }

  function nameControls() {
    document.querySelectorAll(CONTROLS).forEach(function (control) {
      if (hasName(control) || !control.closest) return;
      var widget = control.closest(".widget-inline-hbox, .jupyter-widgets");
      var label = widget && widget.querySelector(".widget-label");
      var text = (label && label.textContent.trim()) || control.getAttribute("title") || "";
      if (!text) return;
      if (control.classList.contains("widget-readout")) text += " (valeur)";
      control.setAttribute("aria-label", text);
    });
  }

  var scheduled = false;
  function schedule() {
    if (scheduled) return;
    scheduled = true;
    window.setTimeout(function () { scheduled = false; nameControls(); }, 150);
  }

  function start() {
    new MutationObserver(schedule).observe(document.body, {
      childList: true, subtree: true, characterData: true,
    });
    document.addEventListener("focusin", nameControls);
    // Widgets keep arriving while the kernel connects: a few extra passes, then only mutations.
    var passes = 0;
    var timer = window.setInterval(function () {
      nameControls();
      if (++passes >= 20) window.clearInterval(timer);
    }, 1000);
    schedule();
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
