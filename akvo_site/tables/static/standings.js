// « Classement »: the rated profiles, best first by the low end of their 95 % interval
// (a newcomer's wide margin does not put them on top), with their karma.
"use strict";

(function () {
  const base = document.body.dataset.base || "/";
  const $ = (id) => document.getElementById(id);
  const profile = window.akvoProfile;
  const el = profile.el;

  async function refresh() {
    try {
      const answer = await fetch(base + "akvo/api/standings");
      const body = await answer.json();
      const list = $("standings-list");
      list.replaceChildren();
      const me = profile.held();
      body.profiles.forEach((p, rank) => {
        const item = el("li", null, "tbl-standing" + (p.leaves_often ? " tbl-leaver" : ""));
        item.append(el("span", rank + 1 + ".", "tbl-standing-rank"));
        const name = el("span", p.name + (me && me.name === p.name ? " (vous)" : ""), "tbl-standing-name");
        const value = el("span", profile.rating(p), "tbl-standing-rating");
        value.title = "Entre " + p.low + " et " + p.high + " (95 %)";
        item.append(name, value, el("span", profile.karma(p), "tbl-standing-karma"));
        list.append(item);
      });
      $("standings-empty").hidden = body.profiles.length > 0;
      $("standings-message").textContent = "";
    } catch (error) {
      $("standings-message").textContent = "Le serveur ne répond pas : nouvel essai dans un instant.";
    }
  }

  profile.panel($("standings-profile"), refresh);
  refresh();
})();
