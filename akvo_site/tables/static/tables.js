// A seat's page of an online table (akvo_site.tables.api). It knows no rule: it shows
// the view the server sends (on every change, by server-sent events) and posts the action
// the player picks from the view's legal list. The seat's token is the link's fragment
// (#…), which the browser never sends to a server.
"use strict";

(function () {
  const base = document.body.dataset.base || "/";
  const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
  const token = decodeURIComponent(location.hash.replace(/^#/, ""));
  const api = base + "akvo/api/tables/" + encodeURIComponent(tableId);
  const $ = (id) => document.getElementById(id);
  let current = null;
  let source = null;
  let sending = false;
  const title = document.title;

  const el = window.akvoProfile.el;  // profile.js, loaded first on every tables page

  function say(text) {
    $("tbl-message").textContent = text || "";
  }

  function connection(text) {
    const box = $("tbl-connection");
    box.hidden = !text;
    box.textContent = text || "";
  }

  function sideLabel(side) {
    return "camp " + side;
  }

  function renderYou(view) {
    const you = view.you;
    const team = (side) => view.teams[side === "A" ? 0 : 1].name || "équipe " + side;
    if (you.role === "spectator") {
      $("tbl-you").textContent = "Vous regardez en spectateur : les ordres de chaque camp restent cachés jusqu’à leur révélation.";
      return;
    }
    const chars = you.character_labels.join(", ");
    $("tbl-you").textContent = "Vous êtes " + you.name + " (" + sideLabel(you.side) + ", " + team(you.side) + ") : " + chars + ".";
  }

  function renderStatus(view) {
    const m = view.match;
    const scores = m.scores;
    let score = "Tour " + view.turn + " · palier " + view.tier + " · score A " + scores[0] + " – " + scores[1] + " B";
    if (m.favoured) score += " · la météo favorise " + m.favoured;
    $("tbl-score").textContent = score;
    $("tbl-clock").hidden = !view.clock;
    $("tbl-clock").textContent = view.clock ? "Horloge : " + view.clock.label + "." : "";
    let prompt = view.prompt;
    if (view.status === "finished") {
      prompt = view.result === "draw" ? "Match terminé : match nul." : "Match terminé : victoire du camp " + view.result + ".";
    }
    $("tbl-prompt").textContent = prompt;
    // Once one's part is sent, say what the side still waits for, not « À vous ».
    const yours = $("tbl-yours");
    const waiting = view.status === "playing" ? view.decision.waiting : null;
    if (view.decision.yours && !view.decision.sent) {
      yours.textContent = "À vous de décider";
      yours.className = "tbl-yours";
    } else if (waiting) {
      yours.textContent = waiting.charAt(0).toUpperCase() + waiting.slice(1) + ".";
      yours.className = "tbl-yours tbl-waiting";
    }
    yours.hidden = !((view.decision.yours && !view.decision.sent) || waiting);
    if (view.status === "expired") {
      yours.textContent = "Cette table a expiré faute de coups : elle reste lisible.";
      yours.className = "tbl-yours tbl-waiting";
      yours.hidden = false;
    }

    const programmed = $("tbl-programmed");
    programmed.replaceChildren();
    if (view.programmed) {
      for (const side of ["A", "B"]) {
        const done = view.programmed[side];
        programmed.append(el("li", "Camp " + side + " : " + (done ? "ordres programmés ✓" : "programmation en cours…"), done ? "tbl-done" : "tbl-pending"));
      }
    }
    // Orders as the server labels them: one's own, the other side's once revealed.
    const lines = [];
    for (const side of ["A", "B"]) {
      const label = view.orders_labels[side];
      if (!label) continue;
      const whose = side === view.you.side ? "Vos ordres" : "Camp " + side;
      lines.push(whose + " : " + label + ".");
    }
    const orders = lines.join(" ");
    $("tbl-orders").textContent = orders.trim();

    const team = $("tbl-team");
    team.replaceChildren();
    if (view.team) {
      // The server says each part in words (« Léa — Barreur : … »), never ids.
      const parts = view.team.parts_text || [];
      if (parts.length) {
        const list = el("ul", null, "tbl-parts");
        for (const line of parts) list.append(el("li", line));
        team.append(list);
      }
      if (view.team.ship) team.append(el("p", "Double-jeton du navire convenu.", "tbl-done"));
      if (view.team.offer) team.append(el("p", view.team.offer.text + ".", "tbl-offer"));
    }
  }

  function renderDecision(view) {
    const box = $("tbl-decision");
    const legal = view.legal || [];
    box.hidden = legal.length === 0;
    const fields = $("tbl-fields");
    const list = $("tbl-field-list");
    // A push (the other side programmed, say) re-renders: keep what the player has picked.
    const picked = {};
    for (const select of list.querySelectorAll("select")) picked[select.name] = select.value;
    list.replaceChildren();
    fields.hidden = view.fields.length === 0;
    for (const field of view.fields) {
      const id = "field-" + field.key;
      const wrap = el("div", null, "tbl-field");
      const label = el("label", field.label);
      label.htmlFor = id;
      const select = el("select");
      select.id = id;
      select.name = field.key;
      for (const option of field.options) {
        const node = el("option", option.label);
        node.value = option.value;
        select.append(node);
      }
      if (field.options.some((option) => option.value === picked[field.key])) select.value = picked[field.key];
      wrap.append(label, select);
      list.append(wrap);
    }
    const buttons = $("tbl-actions");
    buttons.replaceChildren();
    const suggested = view.coach ? view.coach.suggestion : [];
    for (const entry of legal) {
      if (entry.choices) continue;  // chosen through the fields above
      const button = el("button", entry.label, "tbl-action");
      button.type = "button";
      button.dataset.action = entry.action;
      if (entry.coach) button.append(el("span", entry.coach, "tbl-coach-value"));
      if (suggested.includes(entry.action)) {
        button.classList.add("tbl-suggested");
        button.append(el("span", "conseillé", "tbl-coach-mark"));
      }
      button.addEventListener("click", () => send(entry.action));
      buttons.append(button);
    }
  }

  function chosenOrders() {
    // The legal entry whose choices match every field: a lookup in the server's list.
    const picked = {};
    for (const select of $("tbl-field-list").querySelectorAll("select")) picked[select.name] = select.value;
    for (const entry of current.legal) {
      if (!entry.choices) continue;
      if (Object.keys(entry.choices).every((key) => entry.choices[key] === picked[key])) return entry.action;
    }
    return null;
  }

  function renderLog(view) {
    const log = $("tbl-log");
    log.replaceChildren();
    const shown = view.log.slice(-40).reverse();
    for (const line of shown) log.append(el("li", line));
  }

  function timeLeft(deadline) {
    // The seat's time, from the server's deadline (UNIX seconds) and this device's clock.
    const seconds = Math.max(0, Math.round(deadline - Date.now() / 1000));
    if (seconds >= 3600) return Math.floor(seconds / 3600) + " h " + String(Math.floor((seconds % 3600) / 60)).padStart(2, "0");
    return Math.floor(seconds / 60) + " min " + String(seconds % 60).padStart(2, "0");
  }

  function levelChoice(id) {
    const choice = el("select", null, "tbl-level");
    choice.id = id;
    choice.setAttribute("aria-label", "Niveau du bot");
    for (const level of levels) {
      const option = el("option", level);
      option.value = level;
      choice.append(option);
    }
    choice.value = levels.includes("normal") ? "normal" : levels[0] || "";
    return choice;
  }

  function renderSeats(view) {
    const seats = $("tbl-seats");
    // Keep the levels picked in the hand-over choices across pushes.
    const picked = {};
    for (const choice of seats.querySelectorAll("select")) picked[choice.id] = choice.value;
    const focusedId = document.activeElement && seats.contains(document.activeElement) ? document.activeElement.id : null;
    seats.replaceChildren();
    const mine = view.you.role === "player" ? view.you.name : null;
    const offered = view.decision.offered || [];
    for (const seat of view.seats) {
      const item = el("li", null, "tbl-seat");
      const name = seat.person ? seat.person + " (" + seat.name + ")" : seat.name;
      item.append(el("span", name + (seat.name === mine ? " — vous" : ""), "tbl-seat-name"));
      let who;
      if (seat.bot) who = "bot « " + seat.bot + " »";
      else if (seat.played_by) who = "joué par le bot « " + seat.played_by + " »" + (seat.reclaiming ? ", reprise au prochain tour" : "");
      else who = seat.presence === "present" ? "présent" : "absent";
      const state = el("span", who, "tbl-presence tbl-" + (seat.bot || seat.played_by ? "bot" : seat.presence));
      item.append(state, el("span", seat.character_labels.join(", "), "tbl-seat-chars"));
      if (seat.profile) {
        const p = seat.profile;
        item.append(el("span", "« " + p.name + " » " + window.akvoProfile.rating(p) + (p.leaves_often ? " ⚠ part souvent" : ""), "tbl-seat-profile" + (p.leaves_often ? " tbl-leaver" : "")));
      }
      if (view.decision.seats.includes(seat.seat)) {
        item.append(el("span", seat.deadline ? "à décider, reste " + timeLeft(seat.deadline) : "à décider", "tbl-seat-deciding"));
      }
      // An offered seat (out of time, its player away) to any player; one's own at any time.
      const handable = offered.includes(seat.name) || seat.name === mine;
      if (view.status === "playing" && handable && !seat.played_by && !seat.bot) {
        const row = el("div", null, "tbl-hand-over");
        const choice = levelChoice("level-" + seat.name);
        if (picked[choice.id]) choice.value = picked[choice.id];
        const button = el("button", "Confier " + (seat.name === mine ? "ma place" : "la place de " + (seat.person || seat.name)) + " à un bot", "tbl-hand-over-button");
        button.type = "button";
        button.id = "hand-over-" + seat.name;
        button.addEventListener("click", () => control("hand-over", { seat: seat.name, bot: choice.value }));
        row.append(choice, button);
        item.append(row);
      }
      if (view.status === "playing" && seat.name === mine && seat.handed && !seat.reclaiming) {
        const back = el("button", "Reprendre ma place", "tbl-take-back");
        back.type = "button";
        back.id = "take-back";
        back.addEventListener("click", () => control("take-back", {}));
        item.append(back);
      }
      seats.append(item);
    }
    if (focusedId && $(focusedId)) $(focusedId).focus();
  }

  async function control(what, fields) {
    // Hand a seat to a bot, or take one's own back: the server checks who may.
    try {
      const answer = await fetch(api + "/" + what, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(Object.assign({ token: token }, fields)),
      });
      const body = await answer.json().catch(() => ({}));
      if (answer.ok) render(body);
      else $("tbl-seats-message").textContent = body.message || "Le serveur a refusé.";
    } catch (error) {
      $("tbl-seats-message").textContent = "Le serveur ne répond pas : vérifiez la connexion, puis réessayez.";
    }
  }

  function renderCoach(view) {
    // The coach's advice comes whole from the server (akvo.coach): shown, never computed.
    const box = $("tbl-coach");
    if (!view.coach) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    box.replaceChildren(el("h2", "Le coach"));
    if (view.coach.labels.length) {
      box.append(el("p", "Le bot « normal » choisirait : " + view.coach.labels.join(" ; ") + ".", "tbl-coach-suggestion"));
    }
    box.append(el("p", view.coach.note, "tbl-coach-note"));
  }

  // Playing one's own seat under the profile of this browser (rated at the end).
  let profileShown = "";
  function renderProfile(view) {
    const box = $("tbl-profile");
    const profile = window.akvoProfile;
    const own = view.you.role === "player" ? view.seats.find((s) => s.name === view.you.name) : null;
    const open = own && !own.profile && view.status === "playing";
    box.hidden = !open;
    const kept = profile.held();
    const key = open ? (kept ? kept.key : "none") : "";
    if (key === profileShown) return;  // a push changes nothing here: keep the focus
    profileShown = key;
    box.replaceChildren();
    if (!open) return;
    if (!kept) {
      profile.panel(box, () => { profileShown = ""; renderProfile(current); });
      return;
    }
    const join = el("button", "Jouer cette place sous « " + kept.name + " » (classée)", "tbl-profile-join");
    join.type = "button";
    join.id = "profile-join";
    const say = el("p", "", "tbl-message");
    join.addEventListener("click", async () => {
      join.disabled = true;
      try {
        render(await profile.join(tableId, token));
      } catch (error) {
        say.textContent = error.message;
        join.disabled = false;
      }
    });
    box.append(el("p", "Sans profil, cette place joue en invitée : elle n’est pas classée.", "tbl-profile-note"), join, say);
  }

  async function download() {
    // The engine's record of the finished match, as the replay page reads it.
    const answer = await fetch(api + "/record?token=" + encodeURIComponent(token));
    const body = await answer.json().catch(() => ({}));
    if (!answer.ok) {
      say(body.message || "L’enregistrement n’est pas disponible.");
      return;
    }
    const blob = new Blob([JSON.stringify(body.match, null, 1)], { type: "application/json" });
    const link = el("a");
    link.href = URL.createObjectURL(blob);
    link.download = "akvo-match-" + tableId + ".json";
    document.body.append(link);
    link.click();
    link.remove();
  }

  function focusedControl() {
    // The decision control that has the focus, as a selector that finds it again after a
    // re-render (the buttons are rebuilt on every push).
    const focused = document.activeElement;
    if (!focused || !focused.closest || !focused.closest("#tbl-decision")) return null;
    if (focused.dataset.action) return '[data-action="' + CSS.escape(focused.dataset.action) + '"]';
    return focused.id ? "#" + CSS.escape(focused.id) : null;
  }

  function render(view) {
    const wasMine = current ? current.decision.yours : null;
    const keep = focusedControl();
    current = view;
    document.body.dataset.phase = view.phase;
    document.body.dataset.status = view.status;
    renderYou(view);
    renderStatus(view);
    renderDecision(view);
    renderCoach(view);
    $("tbl-download").hidden = view.status !== "finished";
    $("tbl-replay").hidden = view.status !== "finished";
    $("tbl-replay-link").href = base + "voila/render/rejouer-un-match.ipynb?table=" + encodeURIComponent(tableId);
    $("tbl-board").innerHTML = view.board;  // the engine's SVG of the public board
    renderLog(view);
    renderSeats(view);
    renderProfile(view);
    remember(view);
    const turnNow = view.decision.yours && !view.decision.sent && view.status === "playing";
    document.title = (turnNow ? "(À vous) " : "") + title;
    const again = keep ? $("tbl-decision").querySelector(keep) : null;
    if (again) again.focus();  // the player's place survives a push
    else if (view.decision.yours && wasMine === false) $("tbl-prompt").focus();  // not on load
  }

  async function send(action) {
    if (sending || !action) return;
    sending = true;
    say("");
    for (const button of document.querySelectorAll("#tbl-decision button")) button.disabled = true;
    try {
      const answer = await fetch(api + "/actions", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ token: token, action: action }),
      });
      const body = await answer.json().catch(() => ({}));
      if (answer.ok) render(body);
      else say(body.message || "Le serveur a refusé ce coup.");
    } catch (error) {
      say("Le serveur ne répond pas : vérifiez la connexion, puis réessayez.");
    } finally {
      sending = false;
      for (const button of document.querySelectorAll("#tbl-decision button")) button.disabled = false;
    }
  }

  async function explainFailure() {
    // EventSource hides the status: ask once, and show the server's French message.
    try {
      const answer = await fetch(api + "?token=" + encodeURIComponent(token));
      if (answer.ok) return false;
      const body = await answer.json().catch(() => ({}));
      connection(body.message || "Cette table ne répond pas.");
      return answer.status !== 429 && answer.status < 500;
    } catch (error) {
      return false;
    }
  }

  function listen() {
    source = new EventSource(api + "/events?token=" + encodeURIComponent(token));
    source.onmessage = (event) => {
      connection("");
      render(JSON.parse(event.data));
    };
    source.onerror = async () => {
      if (source.readyState === EventSource.CLOSED) {
        const final = await explainFailure();
        if (!final) setTimeout(listen, 3000);
      } else {
        connection("Connexion perdue : reconnexion en cours…");
      }
    };
  }

  function remember(view) {
    // « Mes tables »: the seats this browser holds, kept on this device only.
    if (view.you.role !== "player") return;
    try {
      const held = JSON.parse(localStorage.getItem("akvo-tables") || "[]").filter((s) => s.table !== tableId || s.token !== token);
      held.unshift({ table: tableId, token: token, seat: view.you.name, teams: view.teams.map((t) => t.name), seen: Date.now() });
      localStorage.setItem("akvo-tables", JSON.stringify(held.slice(0, 50)));
    } catch (error) {
      // Storage refused (private browsing): the page works without the list.
    }
  }

  let levels = [];
  fetch(api.replace(/\/[^/]*$/, "") + "/options")
    .then((answer) => answer.json())
    .then((options) => {
      levels = options.bots.map((b) => b.key);
      if (current) renderSeats(current);
    })
    .catch(() => {});

  // Deadlines count down between pushes.
  setInterval(() => {
    if (current && current.status === "playing" && current.seats.some((s) => s.deadline)) renderSeats(current);
  }, 1000);

  $("tbl-download-button").addEventListener("click", download);

  $("tbl-fields").addEventListener("submit", (event) => {
    event.preventDefault();
    const action = chosenOrders();
    if (action) send(action);
    else say("Cette combinaison n’est pas proposée : choisissez-en une autre.");
  });

  // Another seat's link opened in this tab changes only the fragment: start again.
  window.addEventListener("hashchange", () => location.reload());

  if (!tableId || !token) {
    $("tbl-you").textContent = "Ce lien est incomplet : il lui manque le jeton de votre place (la partie après « # »).";
  } else {
    listen();
  }
})();
