// « Mes tables »: the seats this browser holds (localStorage, written by the seat page),
// with whose turn it is. The server answers each token with its own seat's summary only;
// the list refreshes every 20 s, the tab's title and an optional notification say when
// it becomes your turn.
"use strict";

(function () {
  const base = document.body.dataset.base || "/";
  const api = base + "akvo/api/tables/mine";
  const $ = (id) => document.getElementById(id);
  const title = document.title;
  const KEY = "akvo-tables";
  let yoursBefore = new Set();

  const el = window.akvoProfile.el;  // profile.js, loaded first on every tables page

  function held() {
    try {
      const list = JSON.parse(localStorage.getItem(KEY) || "[]");
      return Array.isArray(list) ? list.filter((s) => s && typeof s.table === "string" && typeof s.token === "string") : [];
    } catch (error) {
      return [];
    }
  }

  function forget(seat) {
    const kept = held().filter((s) => !(s.table === seat.table && s.token === seat.token));
    localStorage.setItem(KEY, JSON.stringify(kept));
    refresh();
  }

  function state(summary) {
    if (summary.error === "not_found") return ["Table introuvable (effacée du serveur).", "tbl-pending"];
    if (summary.error) return ["Cette place ne répond pas.", "tbl-pending"];
    if (summary.status === "finished") {
      return [summary.result === "draw" ? "Match terminé : match nul." : "Match terminé : victoire du camp " + summary.result + ".", "tbl-done"];
    }
    if (summary.status === "expired") return ["Table expirée faute de coups.", "tbl-pending"];
    if (summary.yours) return ["À vous de jouer (tour " + summary.turn + ").", "tbl-yours"];
    const waiting = summary.waiting ? summary.waiting.charAt(0).toUpperCase() + summary.waiting.slice(1) : "En attente des autres";
    return [waiting + " (tour " + summary.turn + ").", "tbl-waiting-text"];
  }

  function show(seats, summaries) {
    const list = $("mine-list");
    list.replaceChildren();
    $("mine-empty").hidden = seats.length > 0;
    const yours = new Set();
    seats.forEach((seat, i) => {
      const summary = summaries[i] || { error: "unknown" };
      const item = el("li", null, "tbl-mine");
      const link = el("a", (seat.teams || []).join(" contre ") || "Table " + seat.table);
      link.href = base + "akvo/table/" + encodeURIComponent(seat.table) + "#" + encodeURIComponent(seat.token);
      const [text, cls] = state(summary);
      const place = summary.seat || seat.seat || "";
      item.append(el("h2", null, "tbl-mine-title"));
      item.firstChild.append(link);
      item.append(el("p", "Place " + place + (summary.clock ? " · horloge " + summary.clock : ""), "tbl-mine-seat"));
      item.append(el("p", text, "tbl-mine-state " + cls));
      if (summary.status === "finished") {
        const replay = el("a", "Revoir ce match, avec son analyse", "tbl-replay");
        replay.href = base + "voila/render/rejouer-un-match.ipynb?table=" + encodeURIComponent(seat.table);
        item.append(replay);
      }
      if (summary.yours) yours.add(seat.table + seat.token);
      const drop = el("button", "Retirer de la liste", "tbl-mine-forget");
      drop.type = "button";
      drop.addEventListener("click", () => forget(seat));
      item.append(drop);
      list.append(item);
    });
    document.title = (yours.size ? "(" + yours.size + " à vous) " : "") + title;
    const fresh = [...yours].filter((key) => !yoursBefore.has(key));
    if (fresh.length && yoursBefore.size >= 0 && window.Notification && Notification.permission === "granted" && document.hidden) {
      new Notification("Akvolition : à vous de jouer", { body: fresh.length + " table(s) attendent votre décision." });
    }
    yoursBefore = yours;
  }

  async function refresh() {
    const seats = held();
    if (!seats.length) {
      show([], []);
      return;
    }
    try {
      const answer = await fetch(api, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ tokens: seats.slice(0, 50).map((s) => [s.table, s.token]) }),
      });
      const body = await answer.json().catch(() => ({}));
      if (!answer.ok) {
        $("mine-message").textContent = body.message || "Le serveur n’a pas pu répondre.";
        return;
      }
      $("mine-message").textContent = "";
      show(seats.slice(0, 50), body.tables);
    } catch (error) {
      $("mine-message").textContent = "Le serveur ne répond pas : nouvel essai dans un instant.";
    }
  }

  const notify = $("mine-notify");
  if (!window.Notification) notify.hidden = true;
  else if (Notification.permission === "granted") notify.textContent = "Notifications activées ✓";
  notify.addEventListener("click", async () => {
    const answer = await Notification.requestPermission();
    notify.textContent = answer === "granted" ? "Notifications activées ✓" : "Notifications refusées par le navigateur.";
  });

  window.akvoProfile.panel($("mine-profile"));
  refresh();
  setInterval(refresh, 20000);
})();
