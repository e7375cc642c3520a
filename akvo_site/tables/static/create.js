// The page that opens an online table (akvo_site.tables.api): a form built from the
// server's options, a creation request, then each seat's link as text and as a QR code.
// Every check is the server's: a refusal comes back as a French message shown here.
"use strict";

(function () {
  const base = document.body.dataset.base || "/";
  const api = base + "akvo/api/tables";
  const $ = (id) => document.getElementById(id);

  const el = window.akvoProfile.el;  // profile.js, loaded first on every tables page

  function labelled(text, control) {
    const wrap = el("div", null, "tbl-field");
    const label = el("label", text);
    label.htmlFor = control.id;
    wrap.append(label, control);
    return wrap;
  }

  function select(id, options, value) {
    const node = el("select");
    node.id = id;
    for (const [optionValue, text] of options) {
      const option = el("option", text);
      option.value = optionValue;
      node.append(option);
    }
    if (value !== undefined) node.value = value;
    return node;
  }

  function teamChoice(side, teams, preset) {
    const box = $("team-" + side);
    const options = teams.map((t) => [t.key, t.name]);
    options.push(["", "Liste personnalisée…"]);
    const picker = select("team-" + side + "-preset", options, preset);
    const custom = el("input");
    custom.id = "team-" + side + "-list";
    custom.type = "text";
    custom.autocomplete = "off";
    custom.spellcheck = false;
    custom.placeholder = "LEGS/VUNF/JACK/ZBIM/PYTH/DROX+QW";
    const customField = labelled("Liste de l’équipe " + side, custom);
    customField.hidden = true;
    picker.addEventListener("change", () => {
      customField.hidden = picker.value !== "";
    });
    box.append(labelled("Équipe " + side, picker), customField);
  }

  function team(side) {
    const preset = $("team-" + side + "-preset").value;
    return preset || $("team-" + side + "-list").value;
  }

  function build(options) {
    teamChoice("A", options.teams, options.teams[0].key);
    teamChoice("B", options.teams, options.teams[options.teams.length > 1 ? 1 : 0].key);
    const radios = $("players");
    for (const count of options.players) {
      const id = "players-" + count;
      const input = el("input");
      input.type = "radio";
      input.name = "players";
      input.id = id;
      input.value = String(count);
      input.checked = count === 2;
      const label = el("label", count + " joueurs" + (count === 2 ? " (1 contre 1)" : count === 4 ? " (2 contre 2)" : " (3 contre 3)"));
      label.htmlFor = id;
      const wrap = el("div", null, "tbl-radio");
      wrap.append(input, label);
      radios.append(wrap);
    }
    botOptions = [["", "une personne"], ...options.bots.map((b) => [b.key, "un bot « " + b.label + " »"])];
    for (const radio of radios.querySelectorAll("input")) radio.addEventListener("change", seatChoices);
    seatChoices();
    const clocks = $("clock");
    const modes = [["", "sans horloge"], ...options.clocks.map((c) => [c.mode, c.mode])];
    const mode = select("clock-mode", modes, "");
    const amount = el("input");
    amount.id = "clock-amount";
    amount.type = "number";
    const amountField = labelled("", amount);
    amountField.hidden = true;
    mode.addEventListener("change", () => {
      const clock = options.clocks.find((c) => c.mode === mode.value);
      amountField.hidden = !clock;
      if (!clock) return;
      amount.min = clock.min;
      amount.max = clock.max;
      amount.value = clock.unit === "minutes" ? 3 : 24;
      amountField.querySelector("label").textContent = clock.unit === "minutes" ? "Minutes par décision (" + clock.min + " à " + clock.max + ")" : "Heures par tour (" + clock.min + " à " + clock.max + ")";
      amount.dataset.unit = clock.unit;
    });
    clocks.append(labelled("Horloge", mode), amountField);
    const rules = $("rules");
    for (const [name, readings] of Object.entries(options.rules)) {
      rules.append(labelled(readings[0].label.split(" : ")[0], select("rule-" + name, readings.map((r) => [r.value, r.label]), readings[0].value)));
    }
    $("create-form").dataset.ready = "true";
  }

  let botOptions = [];

  function players() {
    return Number(document.querySelector("input[name=players]:checked").value);
  }

  function seatChoices() {
    // One row per seat: who plays it (a person or a bot of any level) and a name.
    const box = $("bots");
    const kept = {};
    for (const node of box.querySelectorAll("select, input")) kept[node.id] = node.value;
    box.replaceChildren();
    const perSide = players() / 2;
    for (const side of ["A", "B"]) {
      for (let n = 1; n <= perSide; n++) {
        const seat = side + n;
        const row = el("div", null, "tbl-seat-choice");
        const who = select("bot-" + seat, botOptions, kept["bot-" + seat] || "");
        const name = el("input");
        name.id = "name-" + seat;
        name.type = "text";
        name.maxLength = 24;
        name.autocomplete = "off";
        name.value = kept["name-" + seat] || "";
        name.placeholder = "facultatif";
        row.append(labelled("Place " + seat + " jouée par", who), labelled("Nom du joueur " + seat, name));
        who.addEventListener("change", () => {
          name.parentElement.hidden = who.value !== "";
        });
        name.parentElement.hidden = who.value !== "";
        box.append(row);
      }
    }
  }

  function request() {
    const count = players();
    const bots = {};
    const names = {};
    for (const node of $("bots").querySelectorAll("select")) {
      const seat = node.id.replace(/^bot-/, "");
      const name = $("name-" + seat).value.trim();
      if (node.value) bots[seat] = node.value;
      else if (name) names[seat] = name;
    }
    const rules = {};
    for (const node of $("rules").querySelectorAll("select")) rules[node.id.replace(/^rule-/, "")] = node.value;
    const made = { teams: [team("A"), team("B")], players: count, bots: bots, names: names, rules: rules, coach: $("coach").checked };
    const mode = $("clock-mode").value;
    if (mode) {
      const amount = $("clock-amount");
      made.clock = { mode: mode };
      made.clock[amount.dataset.unit] = Number(amount.value);
    }
    return made;
  }

  function showLinks(made) {
    const list = $("links");
    list.replaceChildren();
    const entries = made.seats.filter((s) => s.token).map((s) => ({
      title: "Place " + s.name + (s.person ? " (" + s.person + ")" : "") + " — " + s.character_labels.join(", "),
      link: s.link,
      token: s.token,
      cls: "tbl-link-seat",
    }));
    entries.push({ title: "Spectateurs (regarder sans jouer)", link: made.spectator.link, token: made.spectator.token, cls: "tbl-link-spectator" });
    for (const entry of entries) {
      const item = el("li", null, "tbl-link " + entry.cls);
      item.append(el("h3", entry.title));
      const text = el("input", null, "tbl-link-text");
      text.type = "text";
      text.readOnly = true;
      text.value = entry.link;
      text.setAttribute("aria-label", "Lien : " + entry.title);
      text.addEventListener("focus", () => text.select());
      const open = el("a", "Ouvrir ce lien", "tbl-link-open");
      open.href = entry.link;
      open.target = "_blank";
      open.rel = "noopener noreferrer";
      const copy = el("button", "Copier", "tbl-copy");
      copy.type = "button";
      copy.addEventListener("click", async () => {
        try {
          await navigator.clipboard.writeText(entry.link);
          copy.textContent = "Copié ✓";
        } catch (error) {
          text.focus();
          copy.textContent = "Sélectionné : copiez-le";
        }
      });
      const qr = el("img", null, "tbl-qr");
      qr.alt = "QR code du lien : " + entry.title;
      qr.width = 180;
      qr.height = 180;
      qr.src = api + "/" + encodeURIComponent(made.table) + "/qr?token=" + encodeURIComponent(entry.token);
      const row = el("div", null, "tbl-link-row");
      row.append(text, copy);
      item.append(row, open, qr);
      const kept = window.akvoProfile.held();
      if (kept && entry.cls === "tbl-link-seat") {  // the creator's own seat, rated
        const join = el("button", "C’est ma place : la jouer sous « " + kept.name + " »", "tbl-profile-join");
        join.type = "button";
        join.addEventListener("click", async () => {
          join.disabled = true;
          try {
            await window.akvoProfile.join(made.table, entry.token);
            join.textContent = "Place jouée sous « " + kept.name + " » ✓";
          } catch (error) {
            join.textContent = error.message;
            join.disabled = false;
          }
        });
        item.append(join);
      }
      list.append(item);
    }
    $("create-links").hidden = false;
    $("links-title").focus();
  }

  $("create-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const button = $("create-submit");
    button.disabled = true;
    $("create-message").textContent = "";
    try {
      const answer = await fetch(api, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(request()),
      });
      const body = await answer.json().catch(() => ({}));
      if (answer.ok) showLinks(body);
      else $("create-message").textContent = body.message || "Le serveur a refusé cette table.";
    } catch (error) {
      $("create-message").textContent = "Le serveur ne répond pas : vérifiez la connexion, puis réessayez.";
    } finally {
      button.disabled = false;
    }
  });

  window.akvoProfile.panel($("create-profile"));
  fetch(api + "/options")
    .then((answer) => answer.json())
    .then(build)
    .catch(() => {
      $("create-message").textContent = "Impossible de charger les choix de la table : rechargez la page.";
    });
})();
