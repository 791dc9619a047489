// The play page follows the game's event stream (same origin: the session authenticates it) and reloads
// the board fragment whenever an entry arrives; the server renders it, so the page shows only the seat's view.
(function () {
  const board = document.getElementById("board");
  if (!board || !window.EventSource) return;
  let last = Number(board.querySelector(".board")?.dataset.lastSeq || 0);
  function refresh() {
    if (window.htmx) htmx.ajax("GET", board.dataset.board, {target: "#board", swap: "innerHTML"});
  }
  function follow() {
    const stream = new EventSource(`${board.dataset.stream}?since=${last}`);
    stream.onmessage = (event) => {
      last = Number(event.lastEventId) || last;
      // the board drawn after a click may already show this entry: redraw only when it is newer
      const shown = Number(board.querySelector(".board")?.dataset.lastSeq || 0);
      if (last > shown) refresh();
    };
    stream.addEventListener("end", () => { stream.close(); refresh(); });
    stream.addEventListener("timeout", () => { stream.close(); follow(); });
    stream.onerror = () => { stream.close(); setTimeout(follow, 3000); };
  }
  follow();
})();
