// « Revoir un match » opened from a finished online table (?table=ID): fetches that
// table's public record from the book server (a finished match only: the server refuses
// any other) and hands its text to the kernel, which checks it like a file.
const ID = /^[A-Za-z0-9_-]{1,64}$/;

export default {
  render({ model }) {
    const table = new URLSearchParams(window.location.search).get("table");
    if (!table || !ID.test(table)) return;
    const base = window.location.pathname.split("voila/render/")[0] || "/";
    const deliver = (status, body) => {
      model.set("answer", JSON.stringify({ table, status, body }));
      model.save_changes();
    };
    fetch(base + "akvo/api/tables/" + encodeURIComponent(table) + "/replay", {
      headers: { Accept: "application/json" },
      credentials: "same-origin",
    })
      .then(async (response) => deliver(response.status, await response.text()))
      .catch(() => deliver(0, ""));
  },
};
