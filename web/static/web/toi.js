// Tide of Iron's table (web/toi_table.py): the grid's targets and the report forms. Nothing of the rules is
// here: a target posts the legal action the server listed (its form, by id); the page select only shows
// another page of those targets, and the report select only shows one form. Loaded with each board (htmx
// runs it again after a swap): the listeners are set once, on the document.
(function () {
  function showPage(grid, page) {
    for (const target of grid.querySelectorAll(".target")) {
      const live = target.dataset.page === String(page);
      target.classList.toggle("live", live);
      if (live) {
        target.setAttribute("role", "button");
        target.setAttribute("tabindex", "0");
        target.setAttribute("aria-label", target.dataset.label);
      } else {
        target.removeAttribute("role");
        target.removeAttribute("tabindex");
        target.removeAttribute("aria-label");
      }
    }
  }
  function grid() { return document.querySelector(".toi-decision [data-toi-grid]"); }
  function centreLive() {  // a narrow screen scrolls the grid sideways: bring the live targets into view
    const g = grid(), live = g ? [...g.querySelectorAll(".target.live")] : [];
    if (!live.length) return;
    const boxes = live.map((t) => t.getBoundingClientRect());
    const left = Math.min(...boxes.map((b) => b.left)), right = Math.max(...boxes.map((b) => b.right));
    const wrap = g.parentElement, frame = wrap.getBoundingClientRect();
    const middle = right - left <= wrap.clientWidth ? (left + right) / 2 : left + wrap.clientWidth / 2;
    wrap.scrollLeft += middle - frame.left - wrap.clientWidth / 2;
  }
  // A report's hex may be picked on the drawn board too (a pointer shortcut: the select is the control).
  function hexSelect() {
    return [...document.querySelectorAll(".toi-reports form[data-report]:not([hidden]) select[name=hex]")][0];
  }
  function markHex(name) {
    for (const hex of document.querySelectorAll(".toi-grid .hex.picked")) hex.classList.remove("picked");
    const hex = name && document.querySelector(`.toi-grid .hex[data-hex="${name}"]`);
    if (hex) hex.classList.add("picked");
  }
  function choose(target) {
    const form = document.getElementById(target.dataset.form);
    if (form) form.requestSubmit();
  }
  function showReport(choice) {
    for (const form of document.querySelectorAll(".toi-reports form[data-report]")) {
      form.hidden = form.dataset.report !== choice.value;
    }
  }
  if (window.toiTable) return;
  window.toiTable = true;
  centreLive();  // the first board drawn with the page
  document.addEventListener("click", (event) => {
    const picked = event.target.closest && event.target.closest(".toi-grid .hex[data-hex]");
    const select = picked && hexSelect();
    if (select) { select.value = picked.dataset.hex; markHex(select.value); return; }
    const target = event.target.closest && event.target.closest(".toi-decision g.target");
    if (!target) return;
    if (target.classList.contains("live")) { choose(target); return; }
    const pages = document.querySelector("[data-toi-pages]");  // a target of another page: show its page
    if (pages) { pages.value = target.dataset.page; showPage(grid(), target.dataset.page); centreLive(); }
  });
  document.addEventListener("keydown", (event) => {
    const target = event.target.closest && event.target.closest(".toi-decision g.target.live");
    if (target && (event.key === "Enter" || event.key === " ")) { event.preventDefault(); choose(target); }
  });
  // The stream may redraw the same board (same version) while a report is being filled in: keep what was
  // chosen and typed, the page of targets shown and how far the grid is scrolled sideways (a redraw that
  // lands just after a page was chosen would otherwise show the grid's first columns again). A board of
  // another version starts afresh.
  let kept = null;
  function version() { return document.querySelector("#board .board")?.dataset.version; }
  document.addEventListener("htmx:beforeSwap", () => {
    const fields = {};
    for (const field of document.querySelectorAll(".toi-decision :is(select, input:not([type=hidden]))")) {
      if (field.id) fields[field.id] = field.value;
    }
    kept = {version: version(), fields, scrolled: grid()?.parentElement.scrollLeft};
  });
  document.addEventListener("htmx:afterSwap", () => {
    if (!kept || kept.version !== version()) { kept = null; centreLive(); return; }
    for (const [id, value] of Object.entries(kept.fields)) {
      const field = document.getElementById(id);
      if (field) field.value = value;
    }
    const choice = document.querySelector("[data-toi-report-choice]");
    if (choice) { showReport(choice); markHex(hexSelect()?.value); }
    const pages = document.querySelector("[data-toi-pages]");
    if (pages) showPage(grid(), pages.value);
    if (kept.scrolled !== undefined && grid()) grid().parentElement.scrollLeft = kept.scrolled;
    kept = null;
  });
  document.addEventListener("change", (event) => {
    if (event.target.matches("[data-toi-pages]")) { showPage(grid(), event.target.value); centreLive(); }
    if (event.target.matches("[data-toi-report-choice]")) { showReport(event.target); markHex(hexSelect()?.value); }
    if (event.target.matches(".toi-reports select[name=hex]")) markHex(event.target.value);
  });
})();
