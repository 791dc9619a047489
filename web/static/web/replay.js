// The replay page's steps: a click on a step's link, or the keys ← → (back, forward) and Home End (the start,
// the end), swap in that step's board (htmx.ajax: the server renders it) and put ?ply=N in the address, so a
// position can be linked and reloaded. Without JavaScript the links are plain page loads of ?ply=N.
// The analysis graph (issue 41): a click on a point or a flagged move goes to its ply the same way, and the
// point of the position shown is marked "current" after every swap (the board's data-step).
(function () {
  const keys = {ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last"};
  let busy = false;
  function go(link) {
    if (busy) return;  // one step at a time: the next key or click waits for this board
    busy = true;
    const url = link.getAttribute("href");
    htmx.ajax("GET", url, {target: "#board", swap: "innerHTML"})
      .then(() => history.pushState({ply: url}, "", url))
      .finally(() => { busy = false; });
  }
  function markCurrent() {
    const board = document.querySelector(".board-replay");
    if (!board) return;
    document.querySelectorAll(".analysis-graph .point").forEach((point) => {
      point.classList.toggle("current", point.dataset.ply === board.dataset.step);
    });
  }
  document.addEventListener("htmx:afterSwap", markCurrent);
  document.addEventListener("click", (event) => {
    const link = event.target.closest(".replay-steps a[rel], .analysis a[data-ply]");
    if (!link || !window.htmx || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey) return;
    event.preventDefault();
    go(link);
  });
  document.addEventListener("keydown", (event) => {
    const rel = keys[event.key];
    if (!rel || event.altKey || event.ctrlKey || event.metaKey || !window.htmx) return;
    if (event.target.closest("input, textarea, select, [contenteditable]")) return;
    const link = document.querySelector(`.replay-steps a[rel="${rel}"]`);
    if (!link) return;
    event.preventDefault();
    go(link);
  });
  // back and forward in the browser's history: the address's position again
  window.addEventListener("popstate", () => {
    if (window.htmx) htmx.ajax("GET", location.pathname + location.search, {target: "#board", swap: "innerHTML"});
  });
})();
