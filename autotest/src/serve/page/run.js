// Follows the run: each server-sent update replaces the live part of the
// page; a problem reading the database is shown until the next update.
"use strict";
(function () {
  const live = document.getElementById("live");
  const problem = document.getElementById("problem");
  if (!live || !window.EventSource) {
    return;
  }
  const events = new EventSource("/runs/" + live.dataset.run + "/events");
  events.onmessage = function (e) {
    const update = JSON.parse(e.data);
    live.innerHTML = update.html;
    problem.textContent = "";
  };
  events.addEventListener("problem", function (e) {
    problem.textContent = e.data;
  });
})();
