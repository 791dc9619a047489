// The replay page's keys: ← and → step back and forward, Home and End jump to the start and the end (each
// clicks the step's link, so htmx swaps the board and puts ?ply=N in the address).
(function () {
  const keys = {ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last"};
  document.addEventListener("keydown", (event) => {
    const rel = keys[event.key];
    if (!rel || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target.closest("input, textarea, select, [contenteditable]")) return;
    const link = document.querySelector(`.replay-steps a[rel="${rel}"]`);
    if (!link) return;
    event.preventDefault();
    link.click();
  });
})();
