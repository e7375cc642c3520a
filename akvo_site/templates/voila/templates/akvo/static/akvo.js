/* The book's page helpers (no rule here: the engine computes every number in Python).
 *
 * 1. The connection-lost notice: when the page's kernel websocket closes (server stopped,
 *    network gone, kernel shut down), or when the server reports that the page's kernel died
 *    (a `restarting` or `dead` status on the open websocket: a restarted kernel has lost
 *    the page's widgets), a French notice with a reload button appears and the widgets are
 *    greyed out, instead of sliders that move while the numbers stay stale. A lost kernel
 *    is lost for good: only a reload brings the page back.
 * 2. Accessible names: a widget control without one (ipywidgets' slider handles, readouts)
 *    takes the text of its widget's label.
 * 3. Placeholders: each output shows « Chargement de l’exemple… » at its final height
 *    (akvo-heights.css) until the front end draws it. Once the output's node is attached,
 *    the placeholder covers it (the output being built is not shown half-drawn) and the
 *    output keeps the reserved height; both go when the output is as tall as reserved, or
 *    when its height has not changed for a while (a reservation out of date).
 */
(function () {
  "use strict";

  var NativeWebSocket = window.WebSocket;
  var leaving = false;
  var kernelLost = false;
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
    offline = offline || kernelLost;
    if (!document.body) return;
    document.body.classList.toggle("akvo-offline", offline);
    notice().hidden = !offline;
  }

  var LOST_STATES = { restarting: true, autorestarting: true, dead: true };
  var decoder = new TextDecoder();

  /* The execution state of a v1 `status` message on iopub, else null. A v1 frame: offset
   * count n (8 bytes, little endian), n offsets (8 bytes each), then channel, header,
   * parent header, metadata, content… Only small frames are looked at (status messages
   * are a few hundred bytes). */
  function statusOf(buffer) {
    if (!(buffer instanceof ArrayBuffer) || buffer.byteLength < 64 || buffer.byteLength > 4096) {
      return null;
    }
    var view = new DataView(buffer);
    var count = view.getUint32(0, true);
    if (count < 6 || count > 64 || 8 * (count + 1) > buffer.byteLength) return null;
    var offsets = [];
    for (var i = 0; i < count; i++) offsets.push(view.getUint32(8 * (i + 1), true));
    function part(index) {
      var start = offsets[index], end = offsets[index + 1];
      if (!(start <= end && end <= buffer.byteLength)) return null;
      return decoder.decode(new Uint8Array(buffer, start, end - start));
    }
    if (part(0) !== "iopub") return null;
    var header = part(1);
    if (!header || header.indexOf('"status"') < 0) return null;
    try {
      if (JSON.parse(header).msg_type !== "status") return null;
      return JSON.parse(part(4)).execution_state || null;
    } catch (error) {
      return null;
    }
  }

  function watchKernelStatus(event) {
    if (kernelLost || leaving) return;
    if (LOST_STATES[statusOf(event.data)]) {
      kernelLost = true;
      setOffline(true);
    }
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
      socket.addEventListener("message", watchKernelStatus);
    }
    return socket;
  }
  BookWebSocket.prototype = NativeWebSocket.prototype;
  ["CONNECTING", "OPEN", "CLOSING", "CLOSED"].forEach(function (key) {
    BookWebSocket[key] = NativeWebSocket[key];
  });
  window.WebSocket = BookWebSocket;

  var CONTROLS = "[role='slider'], input, select, textarea, button, [contenteditable='true']";
  var WIDGET = ".widget-inline-hbox, .jupyter-widgets";

  function hasName(control) {
    if (control.getAttribute("aria-label") || control.getAttribute("aria-labelledby")) return true;
    if (control.labels && control.labels.length && control.labels[0].textContent.trim()) return true;
    return control.tagName === "BUTTON" && control.textContent.trim() !== "";
  }

  function nameControl(control) {
    if (hasName(control) || !control.closest) return;
    var widget = control.closest(WIDGET);
    var label = widget && widget.querySelector(".widget-label");
    var text = (label && label.textContent.trim()) || control.getAttribute("title") || "";
    if (!text) return;
    if (control.classList.contains("widget-readout")) text += " (valeur)";
    control.setAttribute("aria-label", text);
  }

  /* Every unnamed control in ``root`` (an element, or the whole document). */
  function nameControls(root) {
    var scope = root && root.querySelectorAll ? root : document;
    if (scope !== document && scope.matches(CONTROLS)) nameControl(scope);
    scope.querySelectorAll(CONTROLS).forEach(nameControl);
  }

  /* The controls a mutation batch may have left unnamed: those it added, and those of a
   * widget whose label it added or filled in. Only what changed is looked at: a number's
   * update or a board's redraw (on the path from a key press to the number on screen) no
   * longer pays for a query over every control of the page. */
  function nameAdded(records) {
    records.forEach(function (record) {
      var target = record.target;
      record.addedNodes.forEach(function (node) {
        if (node.nodeType === 1) {
          nameControls(node);
          if (node.matches(".widget-label") || node.querySelector(".widget-label")) {
            var widget = node.closest(WIDGET);
            if (widget && widget !== node) nameControls(widget); // the node itself: named above
          }
        } else if (target.nodeType === 1 && target.closest(".widget-label")) {
          var owner = target.closest(WIDGET); // a label's text set after its control
          if (owner) nameControls(owner);
        }
      });
    });
  }

  var SETTLED_MS = 800;
  var FITS_PX = 8; // drawn: the content is this close to the reserved height
  var EMPTY_MS = 15000; // an output that stays empty (nothing to draw)

  function release(child, pending) {
    // The output keeps its key (tests/browser/heights.py measures it).
    child.setAttribute("data-akvo-output", pending.getAttribute("data-akvo-output") || "");
    if (pending.parentNode) pending.parentNode.removeChild(pending);
    child.style.height = "";
    child.classList.remove("akvo-drawing");
  }

  /* How tall the output's content is (the output itself may be stretched to the reserved
   * height: JupyterLab lays an output out as a table cell). */
  function contentHeight(output) {
    var top = output.getBoundingClientRect().top;
    var bottom = top;
    for (var i = 0; i < output.children.length; i++) {
      bottom = Math.max(bottom, output.children[i].getBoundingClientRect().bottom);
    }
    return bottom - top;
  }

  /* The output's node (the front end's renderer) is in place: hold the reserved height
   * (`height` on JupyterLab's table-like output row, which then grows past it if needed)
   * until its content is drawn, checked once a frame. */
  function drawing(child, pending, output) {
    if (child.classList.contains("akvo-drawing")) return;
    var reserved = pending.getBoundingClientRect().height;
    child.classList.add("akvo-drawing");
    child.style.height = reserved + "px";
    var last = -1;
    var since = performance.now();
    function frame(now) {
      var height = contentHeight(output);
      if (height !== last) {
        last = height;
        since = now;
      }
      var waited = now - since;
      if (height >= reserved - FITS_PX || waited > (height > 0 ? SETTLED_MS : EMPTY_MS)) {
        release(child, pending);
      } else {
        window.requestAnimationFrame(frame);
      }
    }
    window.requestAnimationFrame(frame);
  }

  function watchOutputs() {
    new MutationObserver(function (records) {
      records.forEach(function (record) {
        record.addedNodes.forEach(function (node) {
          if (!(node instanceof HTMLElement) || !node.classList.contains("jp-OutputArea-output")) return;
          var child = node.parentElement;
          var pending = child && child.querySelector(":scope > .akvo-pending");
          if (pending) drawing(child, pending, node);
        });
      });
    }).observe(document.body, { childList: true, subtree: true });
  }

  function start() {
    watchOutputs();
    // Named in the observer's callback, before any other task (a click, a screen reader's
    // query) can meet the new control: a timer would leave a gap, and timers are throttled
    // in a page in the background. Setting aria-label is not observed (no loop).
    new MutationObserver(nameAdded).observe(document.body, { childList: true, subtree: true });
    document.addEventListener("focusin", function () { nameControls(); });
    // A safety net for names that come from an attribute set later (not observed): a few
    // passes over the whole page while the widgets arrive, then only mutations.
    var passes = 0;
    var timer = window.setInterval(function () {
      nameControls();
      if (++passes >= 20) window.clearInterval(timer);
    }, 1000);
    nameControls();
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
