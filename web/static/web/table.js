// The table (issue 39), on the play, watch and replay pages: one card open large at a time (Escape closes
// it); a card the pending decision offers (lit) is picked by a click on it, which clicks the decision's
// control for that card: the server's step, sent as the control itself would (nothing of the rules here).
(function () {
  document.addEventListener("toggle", (event) => {
    const opened = event.target;
    if (!opened.matches || !opened.matches("details.card") || !opened.open) return;
    document.querySelectorAll("details.card[open]").forEach((d) => { if (d !== opened) d.open = false; });
  }, true);
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    const open = document.querySelector("details.card[open]");
    if (open) {
      open.open = false;
      open.querySelector("summary").focus();
      return;
    }
    const back = document.querySelector(".decision .step-nav a.back");
    if (back && !event.target.closest("input, textarea, select")) back.click();
  });
  document.addEventListener("click", (event) => {
    const summary = event.target.closest("details.card.lit > summary");
    if (!summary) return;
    const id = summary.parentElement.dataset.card;
    const controls = [...document.querySelectorAll(".decision button[data-card]")].filter((b) => b.dataset.card === id);
    if (controls.length !== 1) return;  // the card names no control, or several: it opens large instead
    const control = controls[0];
    event.preventDefault();
    control.click();
  });
})();
