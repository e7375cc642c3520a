// One button that opens the system's file chooser and sends the chosen file to the kernel
// as one binary message (no counter, nothing kept in the widget's state). No rule here:
// the kernel checks the bytes.
export default {
  render({ model, el }) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "jupyter-widgets jupyter-button akvo-file-picker-button";
    const input = document.createElement("input");
    input.type = "file";
    input.hidden = true;
    input.tabIndex = -1;
    const update = () => {
      button.textContent = model.get("description");
      input.accept = model.get("accept");
    };
    update();
    button.addEventListener("click", () => {
      input.value = "";  // the same file chosen again is sent again
      input.click();
    });
    input.addEventListener("change", async () => {
      const file = input.files && input.files[0];
      if (!file) return;
      const data = await file.slice(0, model.get("max_bytes") + 1).arrayBuffer();
      model.send({ event: "file" }, undefined, [data]);
    });
    model.on("change:description change:accept", update);
    el.classList.add("akvo-file-picker");
    el.append(button, input);
    return () => model.off("change:description change:accept", update);
  },
};
