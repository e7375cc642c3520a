// Keeps the match in progress in this browser's localStorage (no rule here: the kernel
// sends the record, checks it on return and decides what to offer).
export default {
  render({ model }) {
    const key = () => "akvo-match:" + model.get("key");
    let stored = "";
    try { stored = window.localStorage.getItem(key()) || ""; } catch (error) { stored = ""; }
    model.set("saved", stored);
    model.save_changes();
    const store = () => {
      const value = model.get("to_store");
      try {
        if (value) window.localStorage.setItem(key(), value);
        else window.localStorage.removeItem(key());
      } catch (error) { /* storage full or refused: the match simply is not kept */ }
    };
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
