// The console's only script: conveniences over pages that work without it.
// It checks DynamoDB JSON before a form is sent (the server checks again),
// and refreshes the stream view. No framework, no build step.
"use strict";

const TYPES = new Set(["S", "N", "B", "BOOL", "NULL", "SS", "NS", "BS", "L", "M"]);

// ddbError returns what is wrong with a DynamoDB JSON value, or "".
function ddbError(v, path) {
  if (v === null || typeof v !== "object" || Array.isArray(v)) {
    return path + ": want an object such as {\"S\": \"text\"}";
  }
  const keys = Object.keys(v);
  if (keys.length !== 1 || !TYPES.has(keys[0])) {
    return path + ": want exactly one of S, N, B, BOOL, NULL, SS, NS, BS, L, M";
  }
  const t = keys[0], x = v[t];
  switch (t) {
    case "S": case "B":
      return typeof x === "string" ? "" : path + ": " + t + " takes a string";
    case "N":
      return typeof x === "string" && /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(x) ? "" : path + ": N takes a number written as a string";
    case "BOOL": case "NULL":
      return typeof x === "boolean" ? "" : path + ": " + t + " takes true or false";
    case "SS": case "NS": case "BS":
      if (!Array.isArray(x) || x.some((e) => typeof e !== "string")) return path + ": " + t + " takes a list of strings";
      return "";
    case "L":
      if (!Array.isArray(x)) return path + ": L takes a list";
      for (let i = 0; i < x.length; i++) { const e = ddbError(x[i], path + "[" + i + "]"); if (e) return e; }
      return "";
    case "M":
      return itemError(x, path + ".");
  }
  return "";
}

function itemError(obj, prefix) {
  if (obj === null || typeof obj !== "object" || Array.isArray(obj)) return (prefix || "item") + ": want a JSON object of attributes";
  for (const [name, v] of Object.entries(obj)) {
    const e = ddbError(v, (prefix || "") + name);
    if (e) return e;
  }
  return "";
}

for (const form of document.querySelectorAll("form[data-ddbjson]")) {
  form.addEventListener("submit", (ev) => {
    // namedItem: form.elements["item"] would be the collection's item method.
    const field = form.elements.namedItem(form.dataset.ddbjson);
    const out = form.querySelector(".error[hidden], #item-error");
    let msg = "";
    if (field && field.value.trim() !== "") {
      try { msg = itemError(JSON.parse(field.value)); } catch (e) { msg = "not JSON: " + e.message; }
    }
    if (msg) {
      ev.preventDefault();
      if (out) { out.textContent = msg; out.hidden = false; }
    }
  });
}

const poll = document.querySelector("[data-poll]");
if (poll) {
  setInterval(async () => {
    const resp = await fetch(poll.dataset.poll, { credentials: "same-origin" });
    if (resp.ok) poll.innerHTML = await resp.text();
  }, 2000);
}
