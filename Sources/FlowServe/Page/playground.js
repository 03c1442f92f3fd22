// The flow playground: an editor beside the diagrams the engine computes.
// Everything shown is computed by `flow serve` (POST /api/render); this
// page only draws it and sends back what the learner does.
"use strict";

const COLUMN = 28;            // SVGDiagram.columnWidth, in the picture's units
const REDRAW_AFTER_MS = 250;  // a pause in typing

const $ = (id) => document.getElementById(id);
const editor = $("editor");
const state = { path: null, dirty: false, last: null, timer: null, generation: 0, socket: null, followed: null, live: null };

async function api(path, options = {}) {
  const response = await fetch(path, options);
  const body = await response.json().catch(() => ({ error: "the server answered " + response.status }));
  if (!response.ok) throw new Error(body.error || ("the server answered " + response.status));
  return body;
}

function status(text) { $("status").textContent = text; }

// ---- files and operators ------------------------------------------------

async function start() {
  const files = await api("/api/files");
  const list = $("files");
  for (const path of files.scripts) {
    const item = document.createElement("li");
    item.textContent = path;
    item.dataset.path = path;
    item.onclick = () => open(path);
    list.appendChild(item);
  }
  if (files.single) $("files-section").hidden = true;
  const families = await api("/api/operators");
  for (const family of families) {
    const group = document.createElement("details");
    const summary = document.createElement("summary");
    summary.textContent = family.family;
    group.appendChild(summary);
    for (const name of family.operators) {
      const link = document.createElement("a");
      link.textContent = name;
      link.onclick = () => openDoc(name);
      group.appendChild(link);
    }
    $("operators").appendChild(group);
  }
  const wanted = new URLSearchParams(location.search).get("path") || files.single || files.scripts[0];
  if (wanted) await open(wanted); else await openDoc("map");
}

async function open(path) {
  if (state.dirty && !confirm("Leave " + (state.path || "this example") + " without saving?")) return;
  const file = await api("/api/file?path=" + encodeURIComponent(path));
  state.path = path;
  setText(file.text, false);
  $("title").textContent = path;
  for (const item of document.querySelectorAll("#files li")) item.classList.toggle("current", item.dataset.path === path);
  watch(path);
  history.replaceState(null, "", "?path=" + encodeURIComponent(path));
  render();
}

async function openDoc(name) {
  if (state.dirty && !confirm("Leave " + (state.path || "this example") + " without saving?")) return;
  const page = await api("/api/doc?name=" + encodeURIComponent(name));
  state.path = null;
  watch(null);
  setText("# " + page.doc.split("\n")[0] + "\n# (an example: edit it freely; it is not saved)\n" + page.example, false);
  $("title").textContent = "operator " + page.name;
  render();
}

// The file on disk is the source of truth: a change there reloads it.
function watch(path) {
  if (state.socket) state.socket.close();
  state.socket = null;
  if (!path) return;
  const socket = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws?path=" + encodeURIComponent(path));
  socket.onmessage = async () => {
    if (!state.dirty) { await reload(); return; }
    const notice = $("notice");
    notice.hidden = false;
    notice.textContent = path + " changed on disk. ";
    const button = document.createElement("button");
    button.textContent = "Load it";
    button.onclick = () => { notice.hidden = true; reload(); };
    notice.appendChild(button);
  };
  state.socket = socket;
}

async function reload() {
  const file = await api("/api/file?path=" + encodeURIComponent(state.path));
  if (file.text !== editor.value) { setText(file.text, false); render(); }
}

async function save() {
  if (!state.path) return;
  try {
    await api("/api/file?path=" + encodeURIComponent(state.path), { method: "PUT", body: editor.value });
    state.dirty = false;
    updateButtons();
    status("saved " + state.path);
  } catch (error) { status("not saved: " + error.message); }
}

// ---- the editor ---------------------------------------------------------

function setText(text, dirty) {
  editor.value = text;
  state.dirty = dirty;
  updateGutter([]);
  updateButtons();
}

function updateButtons() {
  $("save").disabled = !state.path || !state.dirty;
  $("export-svg").disabled = !(state.last && state.last.svg);
  $("export-html").disabled = !(state.last && state.last.svg);
}

function updateGutter(badLines) {
  const count = editor.value.split("\n").length;
  const bad = new Set(badLines);
  const gutter = $("gutter");
  gutter.textContent = "";
  for (let line = 1; line <= count; line++) {
    const span = document.createElement("span");
    span.textContent = line + "\n";
    if (bad.has(line)) span.className = "bad";
    gutter.appendChild(span);
  }
  gutter.scrollTop = editor.scrollTop;
}

editor.addEventListener("input", () => {
  stopLive();
  state.dirty = true;
  updateButtons();
  updateGutter([]);
  clearTimeout(state.timer);
  state.timer = setTimeout(render, REDRAW_AFTER_MS);
});
editor.addEventListener("scroll", () => { $("gutter").scrollTop = editor.scrollTop; });
// The dialect: as the script imports, or one library's semantics; kept for the next visit.
$("dialect").value = localStorage.getItem("flow.dialect") || "";
$("dialect").addEventListener("change", () => {
  localStorage.setItem("flow.dialect", $("dialect").value);
  if (!state.live) render();
});
document.addEventListener("keydown", (event) => {
  if ((event.ctrlKey || event.metaKey) && event.key === "s") { event.preventDefault(); save(); }
});

function offsetOf(line, column) {
  const lines = editor.value.split("\n");
  let offset = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) offset += lines[i].length + 1;
  return offset + Math.max(0, column - 1);
}

// ---- drawing what the engine computed ----------------------------------

async function render() {
  const generation = ++state.generation;
  status("drawing…");
  let result;
  try {
    result = await api("/api/render", { method: "POST", body: JSON.stringify({ text: editor.value, name: scriptName(), dialect: $("dialect").value }) });
  } catch (error) { status(error.message); return; }
  if (generation !== state.generation || state.live) return; // a newer edit, or a live run, is being drawn
  show(result);
}

function scriptName() { return state.path || "example.flow"; }

function show(result) {
  showErrors(result.errors);
  $("run-live").hidden = !result.live;
  if (!result.ok) {
    // The last good diagram stays until the script compiles again.
    $("diagram").classList.add("stale");
    status(result.errors.length + (result.errors.length === 1 ? " error" : " errors"));
    return;
  }
  state.last = result;
  $("diagram").classList.remove("stale");
  if (result.svg) $("diagram").innerHTML = result.svg;
  else {
    const note = document.createElement("p");
    note.textContent = result.notRun || (result.running ? "Running: nothing drawn yet" : "Nothing to draw: add marbles(stream, ...)");
    $("diagram").replaceChildren(note);
  }
  showTests(result.tests);
  $("output").textContent = result.output;
  prepareMarks(result);
  updateButtons();
  const failed = result.tests.filter((t) => !t.passed).length;
  if (result.running) status("running on the live clock…");
  else if (result.errors.length) status(result.errors.length + (result.errors.length === 1 ? " error" : " errors"));
  else status(failed ? failed + (failed === 1 ? " test failed" : " tests failed") : result.notRun ? "not run" : "ok");
}

// ---- a live run -----------------------------------------------------------

// Runs the script on the live clock (timers, files, requests): the server
// sends what it drew so far a few times a second, until the run ends or
// is stopped.
function runLive() {
  if (state.live) { stopLive(); return; }
  const socket = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/live");
  state.live = socket;
  state.liveText = editor.value;
  state.generation++; // a render under way must not draw over the run
  $("run-live").textContent = "■ Stop";
  socket.onopen = () => socket.send(JSON.stringify({ text: editor.value, name: scriptName(), dialect: $("dialect").value }));
  socket.onmessage = (message) => {
    const result = JSON.parse(message.data);
    if (result.error) { status(result.error); return; }
    if (socket !== state.live) return;
    show(result);
    if (!result.running) finishLive(socket);
  };
  socket.onclose = () => finishLive(socket);
}

function stopLive() {
  if (state.live && state.live.readyState === WebSocket.OPEN) state.live.send(JSON.stringify({ stop: true }));
  else if (state.live) finishLive(state.live);
}

function finishLive(socket) {
  if (state.live !== socket) return;
  state.live = null;
  socket.close();
  $("run-live").textContent = "▶ Run live";
  // Edited while it ran (which stopped it): draw what the editor holds now.
  if (editor.value !== state.liveText) render();
}

$("run-live").onclick = runLive;

function showErrors(errors) {
  const list = $("errors");
  list.textContent = "";
  for (const error of errors) {
    const item = document.createElement("pre");
    item.textContent = error.text;
    item.dataset.line = error.line;
    item.onclick = () => {
      const at = offsetOf(error.line, error.column);
      editor.focus();
      editor.setSelectionRange(at, at + 1);
    };
    list.appendChild(item);
  }
  updateGutter(errors.map((e) => e.line));
}

function showTests(tests) {
  const list = $("tests");
  list.textContent = tests.length ? "" : "no test blocks";
  for (const test of tests) {
    const row = document.createElement("div");
    row.className = test.passed ? "passed" : "failed";
    row.textContent = test.name;
    list.appendChild(row);
    if (!test.passed && test.details) {
      const details = document.createElement("pre");
      details.textContent = test.details;
      list.appendChild(details);
    }
  }
}

function marks() { return Array.from(document.querySelectorAll("#diagram [data-e]")); }

// The picture's units per screen pixel.
function unitsPerPixel() {
  const svg = document.querySelector("#diagram svg");
  if (!svg) return 1;
  const box = svg.viewBox.baseVal;
  return box && box.width ? box.width / svg.getBoundingClientRect().width : 1;
}

function prepareMarks(result) {
  const last = Math.max(0, ...marks().map((m) => Number(m.dataset.t)));
  const cursor = $("cursor");
  // A cursor left at the end stays at the end: everything is shown.
  const atEnd = cursor.dataset.moved !== "yes" || Number(cursor.value) >= Number(cursor.max);
  cursor.max = last;
  if (atEnd || Number(cursor.value) > last) cursor.value = last;
  for (const mark of marks()) {
    mark.addEventListener("mouseenter", (event) => tooltip(event, mark));
    mark.addEventListener("mouseleave", () => { $("tooltip").hidden = true; });
    mark.addEventListener("click", () => follow(mark));
  }
  for (const input of result.inputs) {
    for (const mark of document.querySelectorAll(`#diagram [data-d="${input.diagram}"][data-l="${input.lane}"]`)) {
      mark.classList.add("draggable");
      draggable(mark, input, result.columnFrames[input.diagram] || 1);
    }
  }
  showCursor();
}

function tooltip(event, mark) {
  const title = mark.querySelector("title");
  const tip = $("tooltip");
  tip.textContent = (title ? title.textContent : "") + " at " + timeOf(mark);
  tip.style.left = event.clientX + 12 + "px";
  tip.style.top = event.clientY + 12 + "px";
  tip.hidden = false;
}

function timeOf(mark) {
  const frames = (state.last && state.last.columnFrames[Number(mark.dataset.d)]) || 1;
  return Number(mark.dataset.t) * frames + " ms";
}

// Clicking a marble follows it through the stages: the events it was made
// from and the events made from it, as the engine traced them. A marble of
// a lane that was not traced follows its value (one colour per value).
function follow(mark) {
  const d = Number(mark.dataset.d);
  const key = (place) => d + "/" + place.lane + "/" + place.event;
  const clicked = key({ lane: Number(mark.dataset.l), event: Number(mark.dataset.e) });
  state.followed = state.followed === clicked ? null : clicked;
  const madeFrom = (state.last && state.last.madeFrom[d]) || [];
  const traced = (madeFrom[Number(mark.dataset.l)] || []).length > 0;
  // An event and what it was made from, step by step.
  const lineage = (place) => {
    const keys = [];
    while (place && !keys.includes(key(place))) {
      keys.push(key(place));
      place = (madeFrom[place.lane] || [])[place.event];
    }
    return keys;
  };
  const related = new Set();
  if (state.followed && traced) {
    lineage({ lane: Number(mark.dataset.l), event: Number(mark.dataset.e) }).forEach((k) => related.add(k));
    madeFrom.forEach((events, lane) => events.forEach((_, event) => {
      if (lineage({ lane, event }).includes(clicked)) related.add(key({ lane, event }));
    }));
  }
  const fill = mark.getAttribute("fill");
  for (const other of marks()) {
    const mine = other.dataset.d === mark.dataset.d;
    const on = !!state.followed && (traced ? mine && related.has(d + "/" + other.dataset.l + "/" + other.dataset.e)
                                           : other.getAttribute("fill") === fill);
    other.classList.toggle("followed", on);
  }
}

// Dragging an input marble (or its end) along the time axis rewrites the
// script's marble string, and every lane is computed again.
function draggable(mark, input, columnFrames) {
  mark.addEventListener("pointerdown", (event) => {
    event.preventDefault();
    mark.setPointerCapture(event.pointerId);
    const startX = event.clientX;
    const scale = unitsPerPixel();
    const move = (e) => { mark.setAttribute("transform", `translate(${(e.clientX - startX) * scale},0)`); };
    const up = async (e) => {
      mark.removeEventListener("pointermove", move);
      mark.removeEventListener("pointerup", up);
      mark.removeAttribute("transform");
      const columns = Math.round(((e.clientX - startX) * scale) / COLUMN);
      if (columns === 0) return;
      try {
        const edited = await api("/api/move", {
          method: "POST",
          body: JSON.stringify({ text: editor.value, start: input.start, end: input.end, event: input.firstEvent + Number(mark.dataset.e), frames: columns * columnFrames }),
        });
        setText(edited.text, true);
        render();
      } catch (error) { status(error.message); }
    };
    mark.addEventListener("pointermove", move);
    mark.addEventListener("pointerup", up);
  });
}

// ---- the time cursor ---------------------------------------------------

function showCursor() {
  const t = Number($("cursor").value);
  const now = [];
  for (const mark of marks()) {
    const at = Number(mark.dataset.t);
    mark.classList.toggle("later", at > t);
    mark.classList.toggle("now", at === t);
    if (at === t) {
      const title = mark.querySelector("title");
      const labels = (state.last && state.last.laneLabels[Number(mark.dataset.d)]) || [];
      now.push((labels[Number(mark.dataset.l)] || "lane " + mark.dataset.l) + ": " + (title ? title.textContent : "event"));
    }
  }
  // Subscriptions live at the cursor: subscribed, not yet ended or cancelled.
  const live = [];
  const result = state.last;
  if (result) {
    result.lifetimes.forEach((lanes, d) => lanes.forEach((life, l) => {
      if (life.start <= t && (life.end === null || life.end === undefined || t < life.end)) live.push(result.laneLabels[d][l]);
    }));
  }
  $("cursor-readout").textContent = "frame " + t;
  $("events-at").textContent = (now.length ? now.join("\n") : "nothing happens at this frame")
    + "\nlive: " + (live.length ? [...new Set(live)].join(", ") : "no subscription");
}

$("cursor").addEventListener("input", () => { $("cursor").dataset.moved = "yes"; showCursor(); });
$("step-back").onclick = () => { $("cursor").dataset.moved = "yes"; $("cursor").value = Math.max(0, Number($("cursor").value) - 1); showCursor(); };
$("step-forward").onclick = () => { $("cursor").dataset.moved = "yes"; $("cursor").value = Math.min(Number($("cursor").max), Number($("cursor").value) + 1); showCursor(); };

// ---- export --------------------------------------------------------------

function download(name, type, text) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([text], { type }));
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

function baseName() { return (state.path || "example.flow").split("/").pop().replace(/\.flow$/, ""); }

$("export-svg").onclick = () => { if (state.last) download(baseName() + ".svg", "image/svg+xml", state.last.svg); };

// A page of its own: the diagram and a time cursor, nothing to install.
$("export-html").onclick = () => {
  if (!state.last) return;
  const page = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${baseName()}</title>
<style>body{font:14px system-ui,sans-serif;margin:16px}svg{max-width:100%;height:auto}.later{opacity:.2}.now{stroke-width:4}</style></head>
<body><p><label>time <input id="t" type="range" min="0" value="0" step="1" style="width:60%"></label> <span id="r"></span></p>
${state.last.svg.replace(/^<\?xml[^>]*>/, "")}
<script>
const marks=[...document.querySelectorAll("[data-t]")];const t=document.getElementById("t");
t.max=Math.max(0,...marks.map(m=>+m.dataset.t));t.value=t.max;
function show(){for(const m of marks){m.classList.toggle("later",+m.dataset.t>+t.value);m.classList.toggle("now",+m.dataset.t==+t.value)}document.getElementById("r").textContent="frame "+t.value}
t.oninput=show;show();
<\/script></body></html>`;
  download(baseName() + ".html", "text/html", page);
};

$("save").onclick = save;
start().catch((error) => status(error.message));
