// Writes the height of the compact board beside this (invisible) widget as the CSS variable
// --akvo-board-height on their closest .akvo-play box, and that of the decision's sheet
// (.akvo-play-sheet, if the page has one) as --akvo-sheet-height; keeps both up to date.
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
      const sheet = root.querySelector(".akvo-play-sheet");
      observer = new ResizeObserver(() => {
        root.style.setProperty("--akvo-board-height", board.offsetHeight + "px");
        if (sheet) root.style.setProperty("--akvo-sheet-height", sheet.offsetHeight + "px");
      });
      observer.observe(board);
      if (sheet) observer.observe(sheet);
    };
    attach();
    return () => {
      clearTimeout(timer);
      if (observer) observer.disconnect();
    };
  },
};
