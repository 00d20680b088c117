// The engine's options panel: every option the engine declares, as the
// server lists them (GET /api/options) with their values now; a change is
// sent as `setoption` would set it (POST /api/options), for the searches
// that start after, and the server's report line is shown (a value out of
// range is clamped and said so; a refused one is shown as an error).
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

async function setOption(o, input) {
  const body = { name: o.name };
  if (o.type === "check") body.value = input.checked;
  else if (o.type !== "button") body.value = input.value;
  const r = await api("POST", "/api/options", body);
  const report = $("options-report");
  report.classList.toggle("error", !r.ok);
  report.textContent = r.ok ? r.data.report : r.error;
  if (r.ok) showOptions(r.data.options);
  else loadOptions();
}

async function loadOptions() {
  const r = await api("GET", "/api/options");
  if (r.ok) showOptions(r.data.options);
  else $("options-report").textContent = r.error;
}

$("options").addEventListener("toggle", () => {
  if ($("options").open) loadOptions();
});
