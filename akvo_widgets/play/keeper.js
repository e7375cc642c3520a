// Keeps the match in progress in this browser's localStorage (no rule here: the kernel
// sends the record, checks it on return and decides what to offer). A slot with a
// server_copy route is also sent there under the browser's online profile, if any; the
// server merges and answers the set to keep (no merging here either).
export default {
  render({ model }) {
    const key = () => "akvo-match:" + model.get("key");
    const read = () => {
      try { return window.localStorage.getItem(key()) || ""; } catch (error) { return ""; }
    };
    const stored = read();
    model.set("saved", stored);
    model.save_changes();
    // The server's copy: the profile's key in the body only. On opening, the answer replaces
    // the local set and goes to the kernel; after a change, it replaces the local set unless
    // that changed again meanwhile (the kernel's set is sent, and merged, at the next change).
    const copy = async (sent, hand) => {
      const route = model.get("server_copy");
      let profile = null;
      try {
        profile = JSON.parse(window.localStorage.getItem("akvo-profile") || "null");
      } catch (error) { profile = null; }
      if (!route || !profile || typeof profile.key !== "string") return;
      const base = window.location.pathname.split("voila/render/")[0] || "/";
      const body = sent ? { key: profile.key, mistakes: sent } : { key: profile.key };
      try {
        const answer = await fetch(base + route, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify(body),
          credentials: "same-origin",
        });
        const kept = answer.ok ? (await answer.json()).mistakes : null;
        if (typeof kept !== "string" || !kept || kept === sent || (!hand && read() !== sent)) return;
        window.localStorage.setItem(key(), kept);
        if (hand) { model.set("saved", kept); model.save_changes(); }
      } catch (error) { /* offline or refused: this browser's copy stays as it is */ }
    };
    const store = () => {
      const value = model.get("to_store");
      try {
        if (value) window.localStorage.setItem(key(), value);
        else window.localStorage.removeItem(key());
      } catch (error) { /* storage full or refused: the match simply is not kept */ }
      if (value) copy(value, false);
    };
    copy(stored, true);
    model.on("change:to_store", store);
    const warn = (event) => {
      if (model.get("guard")) { event.preventDefault(); event.returnValue = ""; }
    };
    window.addEventListener("beforeunload", warn);
    return () => {
      model.off("change:to_store", store);
      window.removeEventListener("beforeunload", warn);
    };
  },
};
