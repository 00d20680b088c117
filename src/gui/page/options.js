// The engine's options panel: every option the engine declares, as the
// server lists them (GET /api/options) with their values now; a change is
// sent as `setoption` would set it (POST /api/options), for the searches
// that start after, and the server's report line is shown (a value out of
// range is clamped and said so; a refused one is shown as an error). The
// `Search` option is also offered beside the analysis (`#search`), from
// the same listing.
"use strict";

function optionInput(o) {
  const tags = { button: "button", combo: "select" };
  const input = document.createElement(tags[o.type] || "input");
  input.dataset.option = o.name;
  if (o.type === "combo") {
    for (const c of o.choices) input.append(new Option(c, c, false, c === o.value));
    return input;
  }
  if (o.type === "spin") {
    Object.assign(input, { type: "number", min: o.min, max: o.max, value: o.value });
  } else if (o.type === "check") {
    Object.assign(input, { type: "checkbox", checked: o.value });
  } else if (o.type === "string") {
    Object.assign(input, { type: "text", value: o.value, spellcheck: false });
  } else {
    Object.assign(input, { type: "button", textContent: o.name });
  }
  return input;
}

function showOptions(list) {
  showSearch(list.find((o) => o.name === "Search"));
  const box = $("options-list");
  box.replaceChildren();
  for (const o of list) {
    const row = document.createElement("label");
    row.className = "option";
    const input = optionInput(o);
    if (o.type !== "button") row.append(o.name + " ");
    row.append(input);
    box.append(row);
    input.addEventListener(o.type === "button" ? "click" : "change", () => setOption(o, input));
  }
}

// Answers can arrive out of order (the listing asked for when the panel
// opens can cross a change sent at once): a listing is shown only if it
// was asked for after the one shown last, so a stale one never replaces a
// newer one.
let optionsAsked = 0;
let optionsShown = 0;

async function askOptions(method, body) {
  const n = ++optionsAsked;
  const r = await api(method, "/api/options", body);
  if (r.ok && n > optionsShown) {
    optionsShown = n;
    showOptions(r.data.options);
  }
  return r;
}

async function setOption(o, input) {
  const body = { name: o.name };
  if (o.type === "check") body.value = input.checked;
  else if (o.type !== "button") body.value = input.value;
  const r = await askOptions("POST", body);
  const report = $("options-report");
  report.classList.toggle("error", !r.ok);
  report.textContent = r.ok ? r.data.report : r.error;
  if (!r.ok) loadOptions();
}

// The search picked beside the analysis: the `Search` option's choices
// and value.
function showSearch(o) {
  const select = $("search");
  select.replaceChildren(...o.choices.map((c) => new Option(c, c, false, c === o.value)));
}

async function setSearch() {
  const r = await askOptions("POST", { name: "Search", value: $("search").value });
  if (!r.ok) {
    say(r.error, true);
    return loadOptions();
  }
  say(r.data.report + (S.analysing ? "; the analysis starts again with it." : ", for the engine's next search."));
  restartAnalysis();
}

async function loadOptions() {
  const r = await askOptions("GET");
  if (!r.ok) $("options-report").textContent = r.error;
}

$("options").addEventListener("toggle", () => {
  if ($("options").open) loadOptions();
});
$("search").addEventListener("change", setSearch);
loadOptions();
