// The replay page's steps: a click on a step's link, or the keys ← → (back, forward) and Home End (the start,
// the end), swap in that step's board (htmx.ajax: the server renders it) and put ?ply=N in the address, so a
// position can be linked and reloaded. Without JavaScript the links are plain page loads of ?ply=N.
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
  document.addEventListener("click", (event) => {
    const link = event.target.closest(".replay-steps a[rel]");
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
