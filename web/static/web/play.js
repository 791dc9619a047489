// The play page follows the game's event stream (same origin: the session authenticates it) and reloads
// the board fragment whenever an entry arrives; the server renders it, so the page shows only the seat's view.
// The clocks: the server's remaining times (computed at its time) are drawn with each board; the running one
// ticks down here and is replaced by the server's again at every redraw, so the server stays the authority.
(function () {
  const board = document.getElementById("board");
  if (!board) return;
  function refresh() {
    // the fields picked so far in the decision's steps stay picked (the server drops them if they no longer fit,
    // or if the game moved on from the version they were picked at: `at`)
    const pick = board.querySelector(".decision [data-pick]")?.dataset.pick;
    const at = board.querySelector(".board")?.dataset.version || "";
    const url = pick ? `${board.dataset.board}?pick=${encodeURIComponent(pick)}&at=${encodeURIComponent(at)}`
      : board.dataset.board;
    if (window.htmx) htmx.ajax("GET", url, {target: "#board", swap: "innerHTML"});
  }

  function clockText(ms) {
    const seconds = Math.floor(Math.max(0, ms) / 1000);
    if (seconds >= 86400) {
      return `${Math.floor(seconds / 86400)}d ${String(Math.floor((seconds % 86400) / 3600)).padStart(2, "0")}h`;
    }
    const h = Math.floor(seconds / 3600), m = Math.floor((seconds % 3600) / 60), s = seconds % 60;
    const mm = h ? String(m).padStart(2, "0") : String(m);
    return `${h ? h + ":" : ""}${mm}:${String(s).padStart(2, "0")}`;
  }
  let drawnAt = performance.now();
  let flagAsked = false;
  function syncClocks() { drawnAt = performance.now(); flagAsked = false; tick(); }
  function tick() {
    for (const clock of board.querySelectorAll(".clock[data-running='1']")) {
      const left = Number(clock.dataset.remainingMs) - (performance.now() - drawnAt);
      const time = clock.querySelector(".time");
      const text = clockText(left);
      if (time.textContent !== text) time.textContent = text;
      if (left <= 0 && !flagAsked && board.dataset.board) {
        flagAsked = true;  // the flag fell here: the server decides (it ends the game on time) and redraws
        setTimeout(refresh, 300);
      }
    }
  }
  setInterval(tick, 250);
  // an open "Resign…" fold stays open across a redraw (a stream entry arriving while the player confirms)
  let resignOpen = false;
  document.body.addEventListener("htmx:beforeSwap", (event) => {
    if (event.target === board) resignOpen = Boolean(board.querySelector("details.resign")?.open);
  });
  document.body.addEventListener("htmx:afterSwap", (event) => {
    if (event.target !== board) return;
    const resign = board.querySelector("details.resign");
    if (resign && resignOpen) resign.open = true;
    syncClocks();
  });

  if (!window.EventSource || !board.dataset.stream) return;
  let last = Number(board.querySelector(".board")?.dataset.lastSeq || 0);
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
