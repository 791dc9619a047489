// The lobby's new-game form shows only the chosen game's fields (elements with data-for="<game types>").
// Without JavaScript every field shows and works: the server reads only the chosen game's.
(function () {
  "use strict";
  const form = document.getElementById("new-game");
  if (!form) return;
  const game = form.querySelector("#game-type");
  const opponent = form.querySelector("#opponent");

  function show() {
    const chosen = game.value;
    form.querySelectorAll("[data-for]").forEach(function (element) {
      const shown = element.dataset.for.split(" ").includes(chosen);
      if (element.tagName === "OPTION") {
        element.hidden = !shown;
        element.disabled = !shown;
      } else {
        element.hidden = !shown;
      }
    });
    if (opponent.selectedOptions[0] && opponent.selectedOptions[0].disabled) {
      opponent.value = "human"; // Tide of Iron: the server referees two people, there is no bot
    }
  }
  game.addEventListener("change", show);
  show();

  // The matchup hint's decks (the lobby after decks too far apart): a click chooses one in its select.
  document.querySelectorAll("button[data-choose]").forEach(function (button) {
    button.hidden = false;
    button.addEventListener("click", function () {
      const select = document.getElementById(button.dataset.choose);
      select.value = button.dataset.value;
      select.dispatchEvent(new Event("change", {bubbles: true}));
      select.focus();
    });
  });
})();
