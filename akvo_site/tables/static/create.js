// The page that opens an online table (akvo_site.tables.api): a form built from the
// server's options, a creation request, then each seat's link as text and as a QR code.
// Every check is the server's: a refusal comes back as a French message shown here.
"use strict";

(function () {
  const base = document.body.dataset.base || "/";
  const api = base + "akvo/api/tables";
  const $ = (id) => document.getElementById(id);

  function el(tag, text, cls) {
    const node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = text;
    if (cls) node.className = cls;
    return node;
  }

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
    const bots = $("bots");
    const botOptions = [["", "des personnes"], ...options.bots.map((b) => [b.key, "un bot « " + b.label + " »"])];
    for (const side of ["A", "B"]) bots.append(labelled("Camp " + side + " joué par", select("bot-" + side, botOptions, "")));
    const rules = $("rules");
    for (const [name, readings] of Object.entries(options.rules)) {
      rules.append(labelled(readings[0].label.split(" : ")[0], select("rule-" + name, readings.map((r) => [r.value, r.label]), readings[0].value)));
    }
    $("create-form").dataset.ready = "true";
  }

  function request() {
    const players = Number(document.querySelector("input[name=players]:checked").value);
    const bots = {};
    for (const side of ["A", "B"]) {
      const value = $("bot-" + side).value;
      if (value) bots[side] = value;
    }
    const rules = {};
    for (const node of $("rules").querySelectorAll("select")) rules[node.id.replace(/^rule-/, "")] = node.value;
    return { teams: [team("A"), team("B")], players: players, bots: bots, rules: rules, coach: $("coach").checked };
  }

  function showLinks(made) {
    const list = $("links");
    list.replaceChildren();
    const entries = made.seats.filter((s) => s.token).map((s) => ({
      title: "Place " + s.name + " — " + s.character_labels.join(", "),
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

  fetch(api + "/options")
    .then((answer) => answer.json())
    .then(build)
    .catch(() => {
      $("create-message").textContent = "Impossible de charger les choix de la table : rechargez la page.";
    });
})();
