// Writes the height of the compact board beside this (invisible) widget as the CSS variable
// --akvo-board-height on their closest .akvo-play box, and keeps it up to date.
export default {
  render({ el }) {
    let observer = null;
    let timer = null;
    let tries = 0;
    const attach = () => {
      const root = el.closest(".akvo-play");
      const board = root && root.querySelector(".akvo-board-compact");
      if (!board) {
        if (tries++ < 600) timer = setTimeout(attach, 50);  // not in the page yet
        return;
      }
      observer = new ResizeObserver(() => {
        root.style.setProperty("--akvo-board-height", board.offsetHeight + "px");
      });
      observer.observe(board);
    };
    attach();
    return () => {
      clearTimeout(timer);
      if (observer) observer.disconnect();
    };
  },
};
