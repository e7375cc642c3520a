// A pseudonymous profile kept in this browser (localStorage « akvo-profile »): its id, name
// and secret key. The server made the key and keeps only its hash; the key travels in
// request bodies only, never in an address. Shared by the tables' pages: window.akvoProfile
// (with el(), the one element helper of their scripts).
"use strict";

(function () {
  const base = document.body.dataset.base || "/";
  const KEY = "akvo-profile";

  function held() {
    try {
      const kept = JSON.parse(localStorage.getItem(KEY) || "null");
      return kept && typeof kept.key === "string" && typeof kept.name === "string" ? kept : null;
    } catch (error) {
      return null;
    }
  }

  async function post(path, body) {
    const answer = await fetch(base + path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    const data = await answer.json().catch(() => ({}));
    if (!answer.ok) throw new Error(data.message || "Le serveur a refusé.");
    return data;
  }

  async function create(name) {
    const made = await post("akvo/api/profiles", { name: name });
    localStorage.setItem(KEY, JSON.stringify({ profile: made.profile, name: made.name, key: made.key }));
    return made;
  }

  function join(tableId, token) {
    const mine = held();
    return post("akvo/api/tables/" + encodeURIComponent(tableId) + "/profile", { token: token, key: mine.key });
  }

  function mine() {
    const kept = held();
    return kept ? post("akvo/api/profiles/me", { key: kept.key }) : Promise.resolve(null);
  }

  function thousands(n) {
    return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, "\u202f");
  }

  // « 1 662 ± 580 » (rating ± 2 RD: 95 % of the time the strength is within), and the karma.
  function rating(p) {
    return thousands(p.rating) + " ± " + thousands(p.high - p.rating);
  }

  function karma(p) {
    if (!p.tables) return "pas encore classé";
    const left = p.leaves ? ", a quitté " + p.leaves + " table" + (p.leaves > 1 ? "s" : "") : "";
    return p.tables + " table" + (p.tables > 1 ? "s" : "") + left + (p.leaves_often ? " ⚠ part souvent" : "");
  }

  function label(p) {
    return p.name + " — " + rating(p) + " (" + karma(p) + ")";
  }

  function el(tag, text, cls) {
    const node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = text;
    if (cls) node.className = cls;
    return node;
  }

  // A small box: the profile of this browser, or a form to make one (name only).
  function panel(box, onChange) {
    box.replaceChildren();
    const kept = held();
    if (kept) {
      const line = el("p", "Votre profil : « " + kept.name + " ».", "tbl-profile-line");
      box.append(line);
      mine().then((p) => { if (p) line.textContent = "Votre profil : " + label(p) + "."; }).catch(() => {});
      const drop = el("button", "Oublier ce profil sur cet appareil", "tbl-profile-forget");
      drop.type = "button";
      drop.addEventListener("click", () => {
        if (!window.confirm("Sans sa clé, ce profil ne pourra plus jouer ici. L’oublier ?")) return;
        localStorage.removeItem(KEY);
        panel(box, onChange);
        if (onChange) onChange(null);
      });
      box.append(drop);
      return;
    }
    const form = el("form", null, "tbl-profile-form");
    const id = "profile-name-" + Math.random().toString(36).slice(2, 8);
    const name = el("input");
    name.type = "text";
    name.id = id;
    name.maxLength = 24;
    name.autocomplete = "nickname";
    const text = el("label", "Un pseudonyme pour être classé (facultatif, sans e-mail)");
    text.htmlFor = id;
    const go = el("button", "Créer mon profil");
    go.type = "submit";
    const say = el("p", "", "tbl-message");
    say.setAttribute("role", "alert");
    const row = el("div", null, "tbl-link-row");
    row.append(name, go);
    form.append(text, row, el("p", "Une clé secrète reste dans ce navigateur : le serveur n’en garde qu’une empreinte.", "tbl-profile-note"), say);
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      go.disabled = true;
      try {
        const made = await create(name.value);
        panel(box, onChange);
        if (onChange) onChange(made);
      } catch (error) {
        say.textContent = error.message;
      } finally {
        go.disabled = false;
      }
    });
    box.append(form);
  }

  window.akvoProfile = { held, create, join, mine, rating, karma, label, panel, el };
})();
