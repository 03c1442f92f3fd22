// The flow playground: an editor beside the diagrams the engine computes.
// Everything shown is computed by `flow serve` (POST /api/render); this
// page only draws it and sends back what the learner does.
"use strict";

const COLUMN = 28;            // SVGDiagram.columnWidth, in the picture's units
const LANE_HEIGHT = 52;       // SVGDiagram.laneHeight
const SVG_NS = "http://www.w3.org/2000/svg";
const REDRAW_AFTER_MS = 250;  // a pause in typing

const $ = (id) => document.getElementById(id);
const editor = $("editor");
const state = { path: null, dirty: false, last: null, timer: null, generation: 0, socket: null, followed: null, live: null, finishedLive: null };

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
  if (files.exercise) { startExercises(files.exercise); return; }
  const list = $("files");
  // Links, so that Tab reaches each and Enter opens it.
  for (const path of files.scripts) {
    const item = document.createElement("li");
    item.dataset.path = path;
    const link = element("a", "file", path);
    link.href = "?path=" + encodeURIComponent(path);
    link.dataset.path = path;
    link.onclick = (event) => { event.preventDefault(); open(path); };
    item.appendChild(link);
    list.appendChild(item);
  }
  if (files.single) $("files-section").hidden = true;
  const families = await api("/api/operators");
  for (const family of families) {
    const group = document.createElement("details");
    const summary = document.createElement("summary");
    summary.textContent = family.family;
    group.appendChild(summary);
    family.operators.forEach((name, i) => {
      const link = document.createElement("a");
      const aliases = family.aliases[i] || [];
      link.textContent = name;
      link.title = aliases.length ? "also " + aliases.join(", ") : "";
      link.dataset.name = name;
      link.dataset.aliases = JSON.stringify(aliases);
      link.href = "#doc-" + encodeURIComponent(name);
      link.onclick = (event) => { event.preventDefault(); openDoc(name); };
      group.appendChild(link);
    });
    $("operators").appendChild(group);
  }
  const wanted = new URLSearchParams(location.search).get("path") || files.single || files.scripts[0];
  if (wanted) await open(wanted); else await openDoc("map");
}

// Searching the operators by any library's name: the matching ones, with
// the name that matched, in their families, opened.
$("operator-search").addEventListener("input", () => {
  const wanted = $("operator-search").value.trim().toLowerCase();
  for (const group of document.querySelectorAll("#operators details")) {
    let shown = 0;
    for (const link of group.querySelectorAll("a")) {
      const name = link.dataset.name;
      const alias = JSON.parse(link.dataset.aliases).find((other) => other.toLowerCase().includes(wanted));
      const matches = !wanted || name.toLowerCase().includes(wanted) || alias !== undefined;
      link.hidden = !matches;
      // A match by another library's name shows that name beside flow's.
      link.textContent = wanted && !name.toLowerCase().includes(wanted) && alias ? name + " (" + alias + ")" : name;
      if (matches) shown++;
    }
    group.hidden = Boolean(wanted) && shown === 0;
    group.open = Boolean(wanted) && shown > 0;
  }
});

async function open(path) {
  if (state.dirty && !confirm("Leave " + (state.path || "this example") + " without saving?")) return;
  const file = await api("/api/file?path=" + encodeURIComponent(path));
  state.path = path;
  forgetAnswers();
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
  forgetAnswers();
  watch(null);
  // Where the libraries disagree, what each does, and whose way is drawn.
  const across = page.doc.split("\n").find((line) => line.startsWith("  across libraries: "));
  const dialect = $("dialect").value;
  const notes = across ? wrapComment(across.trim()) + (dialect ? "\n# drawn as " + dialect + " does (the semantics selector)" : "") + "\n" : "";
  setText("# " + page.doc.split("\n")[0] + "\n# (an example: edit it freely; it is not saved)\n" + notes + page.example, false);
  $("title").textContent = "operator " + page.name;
  render();
}

// A note as `#` comment lines of at most 100 characters.
function wrapComment(text) {
  const lines = [];
  let line = "#";
  for (const word of text.split(" ")) {
    if (line.length + 1 + word.length > 100 && line !== "#") { lines.push(line); line = "#"; }
    line += " " + word;
  }
  lines.push(line);
  return lines.join("\n");
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

// The editor wraps long lines: each line's number is as tall as the line,
// measured in a hidden copy of the editor's text at its width.
const measure = document.createElement("div");
measure.id = "measure";
measure.setAttribute("aria-hidden", "true");
document.body.appendChild(measure);

function updateGutter(badLines) {
  if (badLines) state.badLines = badLines;
  const lines = editor.value.split("\n");
  const bad = new Set(state.badLines || []);
  const style = getComputedStyle(editor);
  measure.style.font = style.font;
  measure.style.lineHeight = style.lineHeight;
  measure.style.width = Math.max(1, editor.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)) + "px";
  measure.replaceChildren(...lines.map((text) => {
    const row = document.createElement("div");
    row.textContent = text || " ";
    return row;
  }));
  const heights = Array.from(measure.children, (row) => row.getBoundingClientRect().height);
  const gutter = $("gutter");
  gutter.textContent = "";
  heights.forEach((height, i) => {
    const span = document.createElement("span");
    span.textContent = String(i + 1);
    span.style.height = height + "px";
    if (bad.has(i + 1)) span.className = "bad";
    gutter.appendChild(span);
  });
  measure.replaceChildren();
  gutter.scrollTop = editor.scrollTop;
}
new ResizeObserver(() => updateGutter()).observe(editor);

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
  if ((event.ctrlKey || event.metaKey) && event.key === "s") { event.preventDefault(); save(); return; }
  const presenting = document.body.classList.contains("presenting");
  if (event.key === "Escape" && presenting) { present(false); return; }
  // Single keys act only outside the editor and the fields.
  if (event.ctrlKey || event.metaKey || event.altKey || event.target.closest("textarea, input, select")) return;
  if (presenting && !event.ctrlKey && !event.metaKey && !event.altKey && !event.target.closest("textarea, input, select")) {
    const steps = { ArrowRight: 1, PageDown: 1, ArrowLeft: -1, PageUp: -1 };
    if (event.key in steps && $("diagram").classList.contains("deck")) { event.preventDefault(); stepSlide(steps[event.key]); return; }
  }
  const actions = {
    p: () => present(!presenting),
    // The speaker notes of the slide shown, as flow slides' deck shows them.
    n: () => { if (presenting) { state.showsNotes = !state.showsNotes; drawPicture(); } },
    e: () => { if (presenting) { document.body.classList.toggle("with-editor"); applyZoom(); updateGutter(); askForDeck(); } },
    "+": () => zoom(1.25), "=": () => zoom(1.25), "-": () => zoom(1 / 1.25), "0": () => { state.zoom = 1; applyZoom(); },
    "[": () => editorFont(-2), "]": () => editorFont(2),
  };
  const action = actions[event.key];
  if (action) { event.preventDefault(); action(); }
});

// ---- sizes: the sidebar, zoom and presentation mode ----------------------

// In presentation mode lane labels and values are drawn at least this
// large, whatever the window: legible from the back of a room.
const LEGIBLE_PX = 22;
state.zoom = 1;

// The picture's text size in its own units.
function textUnits(svg) {
  const text = svg.querySelector("text");
  return text ? parseFloat(getComputedStyle(text).fontSize) || 12 : 12;
}

// Out of presentation, at zoom 1 the picture fits its pane; in it, the
// picture is at least as large as its text needs to be legible.
// A live run's picture keeps its scale as it grows (one unit a pixel, or
// what presentation mode needs) and scrolls to its latest events.
function applyZoom() {
  const presenting = document.body.classList.contains("presenting");
  const diagram = $("diagram");
  if (fitSlide()) { applyExerciseZoom(presenting); return; }
  const growing = diagram.classList.contains("live");
  const zoomed = presenting || growing || state.zoom !== 1;
  diagram.classList.toggle("zoomed", zoomed);
  for (const svg of diagram.querySelectorAll("svg")) {
    const box = svg.viewBox.baseVal;
    if (!zoomed || !box || !box.width) { svg.style.width = ""; continue; }
    const fit = growing ? 1 : Math.max(100, diagram.clientWidth - 4) / box.width;
    const base = presenting ? Math.max(fit, LEGIBLE_PX / textUnits(svg)) : fit;
    svg.style.width = box.width * base * state.zoom + "px";
  }
  applyExerciseZoom(presenting);
  $("zoom-out").title = "Smaller diagram (-), now " + Math.round(state.zoom * 100) + "%";
}

function applyExerciseZoom(presenting) {
  for (const picture of document.querySelectorAll("#exercises .picture")) {
    picture.classList.toggle("zoomed", presenting || state.zoom !== 1);
    const svg = picture.querySelector("svg");
    const box = svg && svg.viewBox.baseVal;
    if (!box || !box.width || !(presenting || state.zoom !== 1)) { if (svg) svg.style.width = ""; continue; }
    const fit = Math.max(100, picture.clientWidth - 4) / box.width;
    svg.style.width = box.width * (presenting ? Math.max(fit, LEGIBLE_PX / textUnits(svg)) : fit) * state.zoom + "px";
  }
}

// ---- presentation mode: the deck of `flow slides`, live ------------------

// Presenting, the page asks the engine for the deck laid out for the room
// it has for a slide (SlideDeck, the same code as `flow slides`: each
// diagram titled by the comment above its marbles(...) call, scaled to fit
// and never with text under 20 px; a diagram that cannot fit is split into
// parts, its lanes first, then its time). One slide is shown at a time,
// whole; its marks name the whole diagram's lanes and events, so the time
// cursor, dragging and following a marble work on a slide as anywhere.
state.slide = 0;
function deckSlides() { return (state.last && state.last.slides) || []; }
function isPresenting() { return document.body.classList.contains("presenting"); }

// The room for a slide in presentation mode: the width of the diagram's
// pane, the height from its top to the window's bottom. Out of it, the
// page is laid out as presenting for a moment to measure (a live run's
// last picture is laid out for the deck the page may be asked to show).
function deckRoom() {
  const body = document.body;
  const was = isPresenting();
  const bar = $("slide-bar");
  const wasHidden = bar.hidden;
  if (!was) body.classList.add("presenting");
  bar.hidden = false;
  const diagram = $("diagram");
  const room = { width: Math.floor(diagram.clientWidth), height: Math.floor(innerHeight - diagram.getBoundingClientRect().top - 4) };
  if (!was) body.classList.remove("presenting");
  bar.hidden = wasHidden;
  return room;
}

// The deck shown was laid out for another room (the window or the editor
// beside it changed): ask for it again.
// (A page of exercises alone, in a class, draws no diagram: it asks for none.)
function deckOutOfDate() {
  const slide = deckSlides()[0];
  if (!isPresenting() || !state.deckRoom || !state.last || exercise.classMode) return false;
  const room = deckRoom();
  return !slide || !slide.svg || Math.abs(room.width - state.deckRoom.width) > 2 || Math.abs(room.height - state.deckRoom.height) > 2;
}

function askForDeck() {
  clearTimeout(state.deckTimer);
  state.deckTimer = setTimeout(() => {
    if (!isPresenting()) return;
    // A run, live or finished, is laid out again by its socket for the
    // new room (a finished one cannot be run again to be drawn).
    const socket = state.live || state.finishedLive;
    if (socket && socket.readyState === WebSocket.OPEN) {
      state.deckRoom = deckRoom();
      socket.send(JSON.stringify({ room: true, presenting: true, deck: state.deckRoom }));
    } else if (!state.live && !(state.last && state.last.live)) {
      render();
    }
  }, 120);
}

function stepSlide(step) {
  const slides = deckSlides();
  state.slide = Math.max(0, Math.min(slides.length - 1, state.slide + step));
  state.slidePlace = slides[state.slide] && { lesson: slides[state.slide].lesson, part: slides[state.slide].part };
  drawPicture();
}

// The slide to show of a new deck: the same diagram and part as before (a
// running live run's latest part, when the last part was shown).
function placeSlide(slides, running) {
  const place = state.slidePlace;
  if (!place) return Math.max(0, Math.min(slides.length - 1, state.slide));
  const parts = slides.map((slide, i) => [slide, i]).filter(([slide]) => slide.lesson === place.lesson);
  if (!parts.length) return Math.max(0, Math.min(slides.length - 1, state.slide));
  const wanted = running && place.last ? parts[parts.length - 1] : parts.find(([slide]) => slide.part === place.part) || parts[parts.length - 1];
  return wanted[1];
}

// What the picture pane shows: presenting, the current slide of the deck;
// otherwise every diagram in one picture.
function drawPicture() {
  const result = state.last;
  if (!result) return;
  const diagram = $("diagram");
  const slides = deckSlides();
  const deck = isPresenting() && slides.length > 0 && slides.every((slide) => slide.svg);
  $("slide-bar").hidden = !isPresenting();
  $("slide-notes").hidden = true;
  diagram.classList.toggle("deck", deck);
  if (deck) {
    state.slide = placeSlide(slides, result.running);
    const slide = slides[state.slide];
    const parts = slides.filter((other) => other.lesson === slide.lesson);
    state.slidePlace = { lesson: slide.lesson, part: slide.part, last: slide.part === parts.length };
    diagram.innerHTML = slide.svg;
    $("slide-count").textContent = (state.slide + 1) + " / " + slides.length;
    $("slide-count").title = slide.title + (slide.notes.length ? "\n\n" + slide.notes.join("\n") : "");
    $("slide-notes").textContent = slide.notes.length ? slide.notes.join("\n") : "(no notes for this slide)";
    $("slide-notes").hidden = !state.showsNotes;
    $("slide-back").disabled = state.slide === 0;
    $("slide-forward").disabled = state.slide === slides.length - 1;
  } else if (result.svg) {
    diagram.innerHTML = result.svg;
    if (result.inputs.length) makeRoomToDrag();
    $("slide-count").textContent = isPresenting() ? "…" : "";
  } else {
    const note = document.createElement("p");
    note.textContent = result.notRun || (result.running ? "Running: nothing drawn yet"
      : hasExercises(editor.value) ? "Exercises: answer each lane below by placing marbles on it"
      : "Nothing to draw: add marbles(stream, ...)");
    diagram.replaceChildren(note);
  }
  applyZoom();
  pinLiveLabels();
  prepareMarks(result);
}

// A slide is shown at the size it was laid out for (zoom + makes it larger,
// and it scrolls); a window changed since is fitted until the new deck comes.
function fitSlide() {
  const diagram = $("diagram");
  const svg = diagram.querySelector(":scope > svg");
  if (!diagram.classList.contains("deck") || !svg) return false;
  const box = svg.viewBox.baseVal;
  const room = deckRoom();
  const scale = Math.min(1, room.width / box.width, room.height / box.height) * state.zoom;
  svg.style.width = box.width * scale + "px";
  svg.style.height = box.height * scale + "px";
  if (deckOutOfDate()) askForDeck();
  return true;
}
$("slide-back").onclick = () => stepSlide(-1);
$("slide-forward").onclick = () => stepSlide(1);

function zoom(factor) {
  state.zoom = Math.min(8, Math.max(0.125, state.zoom * factor));
  applyZoom();
}

function present(on) {
  document.body.classList.toggle("presenting", on);
  if (!on) document.body.classList.remove("with-editor");
  if (on) document.body.style.setProperty("--editor-font", (state.editorFont || 20) + "px");
  else document.body.style.removeProperty("--editor-font");
  state.zoom = 1;
  $("present").textContent = on ? "Leave" : "Present";
  $("present").title = on ? "Leave presentation mode (Esc)" : $("present").dataset.title;
  if (on) state.deckRoom = deckRoom();
  drawPicture();
  updateGutter();
  if (on && deckOutOfDate()) askForDeck();
  // A live run lays its snapshots out as slides only while presenting.
  if (!on && state.live && state.live.readyState === WebSocket.OPEN) {
    state.live.send(JSON.stringify({ room: true, presenting: false, deck: deckRoom() }));
  }
}

// The editor's font size beside the diagram in presentation mode.
function editorFont(step) {
  if (!document.body.classList.contains("presenting")) return;
  state.editorFont = Math.min(40, Math.max(12, (state.editorFont || 20) + step));
  document.body.style.setProperty("--editor-font", state.editorFont + "px");
  updateGutter();
}

$("present").dataset.title = $("present").title;
$("present").onclick = () => present(!document.body.classList.contains("presenting"));
$("zoom-in").onclick = () => zoom(1.25);
$("zoom-out").onclick = () => zoom(1 / 1.25);
$("toggle-sidebar").onclick = () => {
  document.body.classList.toggle("no-sidebar");
  localStorage.setItem("flow.sidebar", document.body.classList.contains("no-sidebar") ? "hidden" : "shown");
  applyZoom();
  updateGutter();
};
if (localStorage.getItem("flow.sidebar") === "hidden") document.body.classList.add("no-sidebar");
new ResizeObserver(() => applyZoom()).observe($("view-pane"));

function offsetOf(line, column) {
  const lines = editor.value.split("\n");
  let offset = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) offset += lines[i].length + 1;
  return offset + Math.max(0, column - 1);
}

// ---- drawing what the engine computed ----------------------------------

async function render() {
  const generation = ++state.generation;
  dropFinishedLive();
  status("drawing…");
  let result;
  try {
    const deck = isPresenting() ? (state.deckRoom = deckRoom()) : undefined;
    result = await api("/api/render", { method: "POST", body: JSON.stringify({ text: editor.value, name: scriptName(), dialect: $("dialect").value, deck }) });
  } catch (error) { status(error.message); return; }
  if (generation !== state.generation || state.live) return; // a newer edit, or a live run, is being drawn
  show(result);
  // A script with `toBe("???")` lanes is a set of exercises: answered below.
  if (result.ok && hasExercises(editor.value)) loadExercises(false); else $("exercises").hidden = true;
}

function hasExercises(text) { return /"\s*\?{3,}\s*"/.test(text); }

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
  // The marks are drawn anew: a tooltip over an old one would stay.
  $("tooltip").hidden = true;
  $("diagram").classList.remove("stale");
  // Following the latest events unless the learner scrolled back to look
  // (judged on the picture shown until now, before the grown one replaces it).
  const shown = $("diagram");
  const following = shown.scrollLeft + shown.clientWidth >= shown.scrollWidth - 40;
  showTests(result.tests);
  $("output").textContent = result.output;
  // What the run's sinks committed (so far, while it runs), set apart under it.
  $("committed").textContent = result.committed || "";
  $("committed").hidden = !result.committed;
  const diagram = $("diagram");
  diagram.classList.toggle("live", Boolean(result.running));
  drawPicture();
  if (result.running && following) diagram.scrollLeft = diagram.scrollWidth;
  updateButtons();
  const failed = result.tests.filter((t) => !t.passed).length;
  if (result.running) status("running on the live clock…");
  else if (result.errors.length) status(result.errors.length + (result.errors.length === 1 ? " error" : " errors"));
  else status(failed ? failed + (failed === 1 ? " test failed" : " tests failed") : result.notRun ? "not run" : "ok");
}

// ---- a live run -----------------------------------------------------------

// A live run's picture grows past the pane and scrolls to its latest events:
// its lane labels stay at the pane's left edge, over a backdrop the lanes
// pass under, and its legend is written under the picture as text that
// wraps to the pane, entry by entry. (Presenting, the slide is fitted whole.)
function pinLiveLabels() {
  const diagram = $("diagram");
  const svg = diagram.querySelector("svg");
  const legend = $("live-legend");
  legend.replaceChildren();
  legend.hidden = true;
  if (!svg || !diagram.classList.contains("live") || diagram.classList.contains("deck")) return;
  const labels = [...svg.querySelectorAll("text.lane-label")];
  if (labels.length) {
    const boxes = labels.map((label) => label.getBBox());
    const group = document.createElementNS(SVG_NS, "g");
    group.setAttribute("class", "pinned-labels");
    const backdrop = document.createElementNS(SVG_NS, "rect");
    backdrop.setAttribute("class", "label-backdrop");
    const top = Math.min(...boxes.map((b) => b.y)) - LANE_HEIGHT / 2;
    backdrop.setAttribute("x", 0);
    backdrop.setAttribute("y", top);
    backdrop.setAttribute("width", Math.max(...boxes.map((b) => b.x + b.width)) + 8);
    backdrop.setAttribute("height", Math.max(...boxes.map((b) => b.y + b.height)) + LANE_HEIGHT / 2 - top);
    group.append(backdrop, ...labels);
    svg.appendChild(group);
  }
  const entries = [...svg.querySelectorAll("text.legend")].flatMap((line) => [...line.querySelectorAll("tspan")].map((entry) => entry.textContent));
  if (entries.length) {
    for (const line of svg.querySelectorAll("text.legend")) line.style.display = "none";
    legend.append(...entries.map((entry) => element("span", "", entry)));
    legend.hidden = false;
  }
  placePinnedLabels();
}

function placePinnedLabels() {
  const diagram = $("diagram");
  const group = diagram.querySelector("g.pinned-labels");
  if (group) group.setAttribute("transform", `translate(${diagram.scrollLeft * unitsPerPixel()},0)`);
}
$("diagram").addEventListener("scroll", placePinnedLabels);

// Runs the script on the live clock (timers, files, requests): the server
// sends what it drew so far a few times a second, until the run ends or
// is stopped.
function runLive() {
  if (state.live) { stopLive(); return; }
  dropFinishedLive();
  const socket = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/live");
  state.live = socket;
  state.liveText = editor.value;
  state.generation++; // a render under way must not draw over the run
  $("run-live").textContent = "■ Stop";
  // The room of presentation mode goes with it: a run's last picture is
  // laid out as a deck for it, and, presenting, each snapshot too.
  state.deckRoom = deckRoom();
  socket.onopen = () => socket.send(JSON.stringify({ text: editor.value, name: scriptName(), dialect: $("dialect").value,
                                                     deck: state.deckRoom, presenting: isPresenting() }));
  socket.onmessage = (message) => {
    const result = JSON.parse(message.data);
    if (result.error) { status(result.error); return; }
    if (socket !== state.live && socket !== state.finishedLive) return;
    show(result);
    if (!result.running) finishLive(socket, true);
  };
  socket.onclose = () => {
    finishLive(socket);
    if (state.finishedLive === socket) state.finishedLive = null;
  };
}

// The finished run's picture is no longer shown (an edit, another run):
// its socket, kept to lay its deck out again, is closed.
function dropFinishedLive() {
  const socket = state.finishedLive;
  state.finishedLive = null;
  if (socket) socket.close();
}

function stopLive() {
  if (state.live && state.live.readyState === WebSocket.OPEN) state.live.send(JSON.stringify({ stop: true }));
  else if (state.live) finishLive(state.live);
}

function finishLive(socket, finished = false) {
  if (state.live !== socket) return;
  state.live = null;
  // A run that finished keeps its socket while its picture is shown: a
  // new room (a resized window) lays its deck out again, split anew.
  if (finished) state.finishedLive = socket;
  else socket.close();
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
  const columns = marks().map((m) => Number(m.dataset.t));
  const last = Math.max(0, ...columns);
  // A slide of a diagram split in time shows a stretch of it: the cursor
  // runs over that stretch, in the diagram's own columns.
  const first = $("diagram").classList.contains("deck") && columns.length ? Math.min(...columns) : 0;
  const cursor = $("cursor");
  // A cursor left at the end stays at the end: everything is shown.
  const atEnd = cursor.dataset.moved !== "yes" || Number(cursor.value) >= Number(cursor.max);
  cursor.min = first;
  cursor.max = last;
  if (atEnd || Number(cursor.value) > last) cursor.value = last;
  if (Number(cursor.value) < first) cursor.value = first;
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

// Room after the last column, so a marble (a completion at the end) can be
// dragged later than anything drawn: the lane grows when it is dropped there.
const DRAG_ROOM_COLUMNS = 4;
function makeRoomToDrag() {
  for (const svg of document.querySelectorAll("#diagram svg")) {
    const box = svg.viewBox.baseVal;
    if (!box || !box.width) continue;
    const width = box.width + DRAG_ROOM_COLUMNS * COLUMN;
    const shown = Number(svg.getAttribute("width")) || box.width;
    svg.setAttribute("width", shown * width / box.width);
    svg.setAttribute("viewBox", `${box.x} ${box.y} ${width} ${box.height}`);
  }
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
    // The mark's own units per pixel (a slide's picture is scaled inside it).
    const scale = 1 / (mark.getScreenCTM().a || 1);
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
  drawCursorLines(t);
  // The diagram's time: a column is as many frames as its scale says.
  const frames = shownColumnFrames();
  $("cursor-readout").textContent = frames === null ? "column " + t : "frame " + t * frames;
  // A chain drawn and traced shows its events twice: each is named once.
  const named = [...new Set(now)];
  $("events-at").textContent = (named.length ? named.join("\n") : "nothing happens at this frame")
    + "\nlive: " + (live.length ? [...new Set(live)].join(", ") : "no subscription");
}

// The frames a column of the picture shown stands for, when its diagrams
// share one scale (a slide shows one diagram); null when they do not.
function shownColumnFrames() {
  const result = state.last;
  const frames = [...new Set(marks().map((m) => (result && result.columnFrames[Number(m.dataset.d)]) || 1))];
  return frames.length <= 1 ? (frames[0] || 1) : null;
}

// Where column t is drawn among a diagram's marks: at a mark of that
// column, else between the marks of the columns around it (a slide that
// leaves out time before it, or a broken axis, is not one straight
// scale), else a column's width on from the nearest.
function cursorX(points, t) {
  const at = points.find((p) => p.t === t);
  if (at) return at.x;
  const before = points.filter((p) => p.t < t).pop();
  const after = points.find((p) => p.t > t);
  if (before && after) return before.x + (after.x - before.x) * (t - before.t) / (after.t - before.t);
  const near = before || after;
  return near.x + (t - near.t) * COLUMN;
}

// A line across each diagram's lanes at the cursor's column.
function drawCursorLines(t) {
  for (const old of document.querySelectorAll("#diagram .cursor-line")) old.remove();
  const byDiagram = new Map();
  for (const mark of marks()) {
    if (!byDiagram.has(mark.dataset.d)) byDiagram.set(mark.dataset.d, []);
    byDiagram.get(mark.dataset.d).push(mark);
  }
  for (const [d, group] of byDiagram) {
    const boxes = group.map((mark) => mark.getBBox());
    const byColumn = new Map();
    group.forEach((mark, i) => byColumn.set(Number(mark.dataset.t), boxes[i].x + boxes[i].width / 2));
    const points = [...byColumn].map(([column, x]) => ({ t: column, x })).sort((a, b) => a.t - b.t);
    const x = cursorX(points, t);
    const line = document.createElementNS("http://www.w3.org/2000/svg", "line");
    line.setAttribute("x1", x);
    line.setAttribute("x2", x);
    line.setAttribute("y1", Math.min(...boxes.map((b) => b.y)) - 8);
    line.setAttribute("y2", Math.max(...boxes.map((b) => b.y + b.height)) + 8);
    line.setAttribute("class", "cursor-line");
    line.dataset.cursor = d;
    group[0].ownerSVGElement.appendChild(line);
  }
}

$("cursor").addEventListener("input", () => { $("cursor").dataset.moved = "yes"; showCursor(); });
$("step-back").onclick = () => { $("cursor").dataset.moved = "yes"; $("cursor").value = Math.max(Number($("cursor").min), Number($("cursor").value) - 1); showCursor(); };
$("step-forward").onclick = () => { $("cursor").dataset.moved = "yes"; $("cursor").value = Math.min(Number($("cursor").max), Number($("cursor").value) + 1); showCursor(); };

// ---- exercises -------------------------------------------------------------

// A lane left as `toBe("???")` is answered by placing marbles on it: a click
// places the value typed in the value box at that time (shift-click: beside
// the ones already there, in the same frame), a drag moves a marble, Delete
// removes the selected one, `|` and `#` end the lane at the time under the
// pointer; or the marble is typed. By keyboard alone, ← and → move a column
// cursor along the lane (or the selected marble), Enter places the value at
// it, Space selects a marble there, G groups the selected marble with the
// next (one frame). The server draws every answer, and says whether it is
// right; the right lane stays hidden until the file allows it
// (`reveal: true`) or the learner gives up.
const exercise = { classMode: false, answers: {}, gaveUp: new Set(), values: {}, generation: 0, sheet: null, focused: null, selected: null, student: null,
                   cursor: null, field: null };

// Another script's exercises start unanswered.
function forgetAnswers() {
  exercise.answers = {};
  exercise.gaveUp = new Set();
  exercise.values = {};
  exercise.focused = null;
  exercise.selected = null;
  exercise.cursor = null;
}

// In a class (`flow serve --exercise`) every student answers as someone:
// the personal link's token, or a name given here once, which the server
// then keeps for this browser (a cookie) and refuses to anyone else.
async function startExercises(name) {
  exercise.classMode = true;
  document.body.classList.add("exercise-mode");
  $("title").textContent = name;
  document.title = name + " · flow exercises";
  let me;
  try { me = await api("/api/me"); } catch (error) { status(error.message); return; }
  if (me.student) { identified(me); return; }
  const pane = $("exercises");
  pane.hidden = false;
  if (me.rostered) {
    pane.replaceChildren(element("p", "identity", "Open the personal link your teacher gave you: this class answers each under their own name."));
    status("no link");
    return;
  }
  const form = element("form", "identity");
  const label = element("label", "", "Your name, as your teacher knows it: ");
  const field = element("input");
  field.id = "student";
  field.autocomplete = "name";
  field.required = true;
  label.appendChild(field);
  const go = element("button", "", "Start");
  go.id = "claim-name";
  go.type = "submit";
  const note = element("p", "how", "Give it once: your answers are kept under it, and nobody else can answer as you.");
  form.append(label, go, note);
  form.onsubmit = async (event) => {
    event.preventDefault();
    try { identified(await api("/api/identity", { method: "POST", body: JSON.stringify({ name: field.value }) })); } catch (error) { status(error.message); }
  };
  pane.replaceChildren(form);
  status("who are you?");
  field.focus();
}

async function identified(me) {
  exercise.student = me.student;
  exercise.answers = me.answers || {};
  $("title").textContent = me.exercise + " · " + me.student;
  await loadExercises(false);
}

async function loadExercises(check, question) {
  const generation = ++exercise.generation;
  const body = { answers: exercise.answers, check: Boolean(check) };
  if (!exercise.classMode) Object.assign(body, { text: editor.value, name: scriptName(), dialect: $("dialect").value, gaveUp: [...exercise.gaveUp] });
  else if (check && question) body.question = question;
  let sheet;
  try { sheet = await api("/api/exercise", { method: "POST", body: JSON.stringify(body) }); } catch (error) { status(error.message); return; }
  if (generation !== exercise.generation) return;
  showExercises(sheet, Boolean(check), question);
}

function showExercises(sheet, checked, question) {
  exercise.sheet = sheet;
  const pane = $("exercises");
  pane.hidden = !exercise.classMode && !sheet.questions.length;
  pane.replaceChildren();
  if (exercise.classMode) {
    if (!sheet.ok) {
      for (const error of sheet.errors) pane.appendChild(element("pre", "result", error.text));
      status("the exercise does not run");
      return;
    }
    if (sheet.preamble) pane.appendChild(element("pre", "preamble", sheet.preamble));
  }
  for (const question of sheet.questions) pane.appendChild(questionCard(question));
  const row = element("div", "save");
  if (exercise.classMode) {
    const save = element("button", "", "Save my answers");
    save.id = "save-answers";
    save.onclick = saveAnswers;
    row.append(element("span", "who", "answering as " + exercise.student + " "), save);
  } else {
    const write = element("button", "", "Write the answers into the script");
    write.title = "Each answered ??? lane becomes its marble in the editor";
    write.onclick = writeAnswers;
    row.append(write);
  }
  pane.appendChild(row);
  applyZoom();
  if (exercise.focused) {
    // Back where the learner was: the lane, or the field they typed in.
    const card = pane.querySelector(`.question[data-id="${CSS.escape(exercise.focused)}"]`);
    const target = card && card.querySelector(exercise.field ? "input." + exercise.field : ".picture");
    if (target) target.focus({ preventScroll: true });
  }
  const right = sheet.questions.filter((q) => q.check && q.check.passed).length;
  const one = question && sheet.questions.find((q) => q.id === question);
  if (checked && one) status(one.test + ": " + (one.check && one.check.passed ? "right" : "not right yet"));
  else if (checked || exercise.classMode) status(checked ? right + " of " + sheet.questions.length + " right" : sheet.questions.length + " exercises");
}

function element(tag, className, text) {
  const made = document.createElement(tag);
  if (className) made.className = className;
  if (text !== undefined) made.textContent = text;
  return made;
}

function questionCard(question) {
  const card = element("div", "question");
  card.dataset.id = question.id;
  card.appendChild(element("h3", "", question.test));
  card.appendChild(element("pre", "code", question.code));
  const picture = element("div", "picture");
  picture.tabIndex = 0;
  picture.setAttribute("aria-label", question.nested
    ? "answer lanes of " + question.test + ", a lane of groups: Enter on the answer lane makes a group at the column ← → choose; ↑ ↓ choose a group's lane, Enter places the value there"
    : "answer lane of " + question.test + ": click, or Enter at the column ← → choose, to place the value");
  picture.innerHTML = question.svg;
  card.appendChild(picture);
  const tools = element("div", "tools");
  const valueLabel = element("label", "", "value ");
  const value = element("input", "value");
  value.size = 8;
  value.placeholder = "e.g. 10";
  value.value = exercise.values[question.id] || "";
  value.oninput = () => { exercise.values[question.id] = value.value; };
  // Enter in the value box places it at the lane's column cursor, which
  // then moves a column on: values typed one after another land in order.
  value.onkeydown = (event) => {
    if (event.key !== "Enter") return;
    event.preventDefault();
    if (question.nested && answerLanes(question)[cursorLane(question)].group === null) {
      status("choose a group's lane first (↓ in the picture, or click it): the answer lane's marbles are groups, made by Enter or a click there");
      return;
    }
    placeValue(question, cursorFrame(question) ?? nextFreeFrame(question), "value", question.columnFrames);
  };
  value.onfocus = () => { exercise.field = "value"; };
  valueLabel.appendChild(value);
  const marbleLabel = element("label", "", "marble ");
  const marble = element("input", "marble");
  // The answer as it goes into the file: its marble and what each symbol
  // stands for; a marble typed bare keeps the values its symbols had.
  marble.value = question.marble;
  marble.placeholder = 'or type it: "-a-b|", a: 10';
  marble.onchange = () => answer(question, { marble: marble.value, values: question.values });
  marble.onfocus = () => { exercise.field = "marble"; };
  marbleLabel.appendChild(marble);
  const check = element("button", "check", "Check");
  check.onclick = () => { exercise.focused = question.id; loadExercises(true, question.id); };
  tools.append(valueLabel, marbleLabel, check);
  if (!question.revealed && !(question.check && question.check.passed)) {
    const giveUp = element("button", "give-up", "Give up: show the answer");
    giveUp.onclick = () => {
      if (!confirm("Show the right lane of " + question.test + "?" + (exercise.classMode ? " Your teacher will see that you gave up." : ""))) return;
      if (exercise.classMode) { giveUpOn(question); return; }
      exercise.gaveUp.add(question.id);
      loadExercises(true);
    };
    tools.appendChild(giveUp);
  }
  tools.appendChild(element("span", "how", (question.nested
    ? "a lane of groups: click the answer lane (or Enter there) to make a group, which gets a lane of its own; place its values on that lane · ↑ ↓: lane · "
      + "Delete on a group's marble removes the group · "
    : "") + "click: place the value · shift-click: one more in that frame · drag: move · ← →: column (or the selected marble) · Enter: place · "
    + "Space: select · G: group with the next · Delete: remove · | completes · # fails"));
  card.appendChild(tools);
  if (question.check) card.appendChild(element("pre", "result" + (question.check.passed ? " passed" : ""), (question.check.passed ? "✓ " : "") + question.check.text));
  // The right lane, unless the feedback above already sets it under the answer.
  const told = question.check && question.check.text.includes("right answer:");
  if (question.right !== undefined && question.right !== null && !told) card.appendChild(element("pre", "result passed", "right answer: " + question.right));
  placing(picture, question);
  return card;
}

// The picture's units at a pointer event.
function svgPoint(svg, event) {
  const point = svg.createSVGPoint();
  point.x = event.clientX;
  point.y = event.clientY;
  return point.matrixTransform(svg.getScreenCTM().inverse());
}

// The column nearest to x, and its time in frames.
function frameAt(question, x) {
  let best = 0;
  question.columns.forEach((center, i) => { if (Math.abs(center - x) < Math.abs(question.columns[best] - x)) best = i; });
  return best * question.columnFrames;
}

// The lanes a learner answers on: the answer lane (0), and where the right
// lane is a stream of streams (groupBy, window), each group's lane beneath
// it (1, 2, ...), made where the group's marble is on the answer lane. Each
// is edited alike; a group's events are placed at the frames they come.
function answerLanes(question) {
  const lanes = [{ lane: question.answerLane, band: question.answerBand, start: 0, group: null, events: question.answer }];
  const made = question.answer.filter((e) => e.inner);
  (question.groups || []).forEach((g, n) => {
    if (made[n]) lanes.push({ lane: g.lane, band: g.band, start: g.start, group: n, events: made[n].inner });
  });
  return lanes;
}

// The whole answer with one lane's events changed.
function withLaneEvents(question, target, events) {
  if (target.group === null) return events;
  let n = -1;
  return question.answer.map((e) => {
    if (!e.inner) return { ...e };
    n += 1;
    return n === target.group ? { ...e, inner: events } : { ...e };
  });
}

// The group lane a lane of groups is named by in the page's words.
function laneName(target) { return target.group === null ? "the answer lane" : "group " + (target.group + 1); }

// The column cursor of a question's lanes: its frame, where the pointer last
// was or where ← and → moved it, and its lane (↑ ↓); kept across redraws.
function cursorFrame(question) {
  return exercise.cursor && exercise.cursor.id === question.id ? exercise.cursor.frame : null;
}

function cursorLane(question) {
  const lanes = answerLanes(question);
  const lane = exercise.cursor && exercise.cursor.id === question.id ? exercise.cursor.lane || 0 : 0;
  return Math.min(lane, lanes.length - 1);
}

// The frame after the lane's last value: where a value typed without a
// column chosen goes.
function nextFreeFrame(question) {
  const target = answerLanes(question)[cursorLane(question)];
  const values = target.events.filter((e) => e.kind === "value");
  return values.length ? values[values.length - 1].t + question.columnFrames : Math.max(target.start, question.columnFrames);
}

// A new group made at `frame` on the answer lane, with a lane of its own,
// where the cursor then goes: Enter there places the value box's value.
function makeGroup(question, frame) {
  const made = question.answer.filter((e) => e.inner);
  const lane = made.filter((e) => e.t <= frame).length + 1;
  exercise.selected = null;
  exercise.cursor = { id: question.id, frame, lane };
  answer(question, { events: question.answer.map((e) => ({ ...e })).concat([{ t: frame, kind: "value", inner: [] }]) });
}

// Places the value box's value at `frame` on the cursor's lane (or `lane`),
// beside any already there (one frame holds them all, as `(ab)` does). On
// the answer lane of a lane of groups, a group is made there instead.
function placeValue(question, frame, field, advance = 0, lane = cursorLane(question)) {
  const target = answerLanes(question)[lane];
  if (question.nested && target.group === null) { makeGroup(question, frame); return; }
  const text = (exercise.values[question.id] || "").trim();
  const card = document.querySelector(`#exercises .question[data-id="${CSS.escape(question.id)}"]`);
  if (!text) {
    if (card) card.querySelector("input.value").focus();
    status("type the value to place in the value box, then click the lane or press Enter");
    return;
  }
  if (frame < target.start) {
    status(laneName(target) + " is made at frame " + target.start + ": its events come from there on");
    return;
  }
  exercise.selected = null;
  exercise.cursor = { id: question.id, frame: frame + advance, lane };
  const events = target.events.map((e) => ({ ...e })).concat([{ t: frame, kind: "value", value: text }]);
  answer(question, { events: withLaneEvents(question, target, events) }, field);
}

// Moves an event of a lane by `by` frames; a group's marble takes its
// lane's events along, so the group stays what it was.
function moved(question, target, index, by) {
  const events = target.events.map((e) => ({ ...e }));
  const event = events[index];
  const to = Math.max(target.start, event.t + by);
  if (event.inner) event.inner = event.inner.map((e) => ({ ...e, t: e.t + to - event.t }));
  event.t = to;
  return withLaneEvents(question, target, events);
}

function placing(picture, question) {
  const svg = picture.querySelector("svg");
  if (!svg) return;
  const lanes = answerLanes(question);
  const laneAt = (p) => lanes.findIndex((l) => p.y >= l.band.top && p.y <= l.band.bottom);
  const marksOf = (target) => [...svg.querySelectorAll(`[data-l="${target.lane}"][data-e]`)];
  lanes.forEach((target) => marksOf(target).forEach((mark) => mark.classList.add("answer-mark")));
  const selection = () => (exercise.focused === question.id && exercise.selected && lanes[exercise.selected.lane]
    && lanes[exercise.selected.lane].events[exercise.selected.index] ? exercise.selected : null);
  const showSelected = () => {
    svg.querySelectorAll(".answer-mark.selected").forEach((m) => m.classList.remove("selected"));
    const chosen = selection();
    if (chosen) { const mark = marksOf(lanes[chosen.lane])[chosen.index]; if (mark) mark.classList.add("selected"); }
  };
  showSelected();
  const lastFrame = (question.columns.length - 1) * question.columnFrames;
  let pointerLane = -1;
  let drag = null;
  const line = document.createElementNS("http://www.w3.org/2000/svg", "line");
  line.setAttribute("class", "hover-column");
  line.style.display = "none";
  svg.appendChild(line);
  // The cursor's column drawn on its lane while the picture has the pointer or the focus.
  const drawCursor = () => {
    const frame = cursorFrame(question);
    const shown = frame !== null && (pointerLane >= 0 || drag || document.activeElement === picture);
    line.style.display = shown ? "" : "none";
    if (!shown) return;
    const band = lanes[cursorLane(question)].band;
    const x = question.columns[Math.min(question.columns.length - 1, Math.round(frame / question.columnFrames))];
    line.setAttribute("y1", band.top + 2);
    line.setAttribute("y2", band.bottom - 2);
    line.setAttribute("x1", x);
    line.setAttribute("x2", x);
  };
  const setCursor = (frame, lane = cursorLane(question)) => {
    exercise.cursor = { id: question.id, frame: Math.max(0, Math.min(lastFrame, frame)), lane };
    drawCursor();
  };
  picture.addEventListener("focus", () => {
    if (cursorFrame(question) === null) setCursor(0, 0);
    drawCursor();
  });
  picture.addEventListener("blur", drawCursor);
  drawCursor();
  svg.addEventListener("pointermove", (event) => {
    const p = svgPoint(svg, event);
    pointerLane = laneAt(p);
    if (drag) setCursor(frameAt(question, p.x), drag.lane);
    else if (pointerLane >= 0) setCursor(frameAt(question, p.x), pointerLane);
    else drawCursor();
    if (drag) drag.mark.setAttribute("transform", `translate(${p.x - drag.x},0)`);
  });
  svg.addEventListener("pointerleave", () => { pointerLane = -1; drawCursor(); });
  svg.addEventListener("pointerdown", (event) => {
    const p = svgPoint(svg, event);
    const at = frameAt(question, p.x);
    exercise.focused = question.id;
    exercise.field = null;
    picture.focus({ preventScroll: true });
    const mark = event.target.closest("[data-e]");
    const markLane = mark ? lanes.findIndex((l) => l.lane === Number(mark.dataset.l)) : -1;
    const lane = markLane >= 0 ? markLane : laneAt(p);
    if (lane < 0) return;
    setCursor(at, lane);
    if (event.shiftKey) { event.preventDefault(); placeValue(question, at, null, 0, lane); return; }
    // The marble under the pointer, or the lane's marble in that column.
    const grabbed = markLane >= 0 ? mark : marksOf(lanes[lane]).find((m) => Number(m.dataset.t) * question.columnFrames === at);
    if (grabbed) {
      event.preventDefault();
      svg.setPointerCapture(event.pointerId);
      drag = { lane, mark: grabbed, index: Number(grabbed.dataset.e), x: p.x, from: at };
      return;
    }
    placeValue(question, at, null, 0, lane);
  });
  svg.addEventListener("pointerup", (event) => {
    if (!drag) return;
    const p = svgPoint(svg, event);
    const { lane, index, from } = drag;
    drag = null;
    const to = frameAt(question, p.x);
    if (to === from) {
      const chosen = selection();
      exercise.selected = chosen && chosen.lane === lane && chosen.index === index ? null : { lane, index };
      showSelected();
      return;
    }
    exercise.selected = null;
    answer(question, { events: moved(question, lanes[lane], index, to - from) });
  });
  picture.addEventListener("keydown", (event) => {
    const key = event.key;
    const laneIndex = cursorLane(question);
    const target = lanes[laneIndex];
    const events = target.events.map((e) => ({ ...e }));
    const chosen = selection();
    const selected = chosen && chosen.lane === laneIndex ? chosen.index : null;
    const cursor = cursorFrame(question) ?? 0;
    const said = (e) => (e.inner ? "a group" : e.kind === "value" ? e.value : e.kind === "complete" ? "|" : "#");
    const select = (index) => {
      exercise.selected = index === null ? null : { lane: laneIndex, index };
      showSelected();
      status(index === null ? "" : "selected " + said(events[index]) + " at frame " + events[index].t
        + (target.group === null ? "" : " in " + laneName(target)));
    };
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (key === "|" || key === "#") {
      if (cursor < target.start) { status(laneName(target) + " is made at frame " + target.start + ": it ends there or later"); }
      else {
        const ends = events.filter((e) => e.kind === "value");
        ends.push({ t: cursor, kind: key === "|" ? "complete" : "error" });
        answer(question, { events: withLaneEvents(question, target, ends) });
      }
    } else if ((key === "Delete" || key === "Backspace") && selected !== null) {
      // A group's marble removed takes its lane with it.
      events.splice(selected, 1);
      exercise.selected = null;
      answer(question, { events: withLaneEvents(question, target, events) });
    } else if ((key === "ArrowLeft" || key === "ArrowRight") && selected !== null) {
      const by = (key === "ArrowLeft" ? -1 : 1) * question.columnFrames;
      setCursor(Math.max(target.start, events[selected].t + by));
      answer(question, { events: moved(question, target, selected, by) });
    } else if (key === "ArrowLeft" || key === "ArrowRight" || key === "Home" || key === "End") {
      const step = { ArrowLeft: -question.columnFrames, ArrowRight: question.columnFrames, Home: -Infinity, End: Infinity }[key];
      setCursor(cursor + step);
      const here = events.filter((e) => e.t === cursorFrame(question)).map(said);
      status((target.group === null ? "" : laneName(target) + ", ") + "frame " + cursorFrame(question) + (here.length ? ": " + here.join(", ") : ""));
    } else if ((key === "ArrowUp" || key === "ArrowDown") && question.nested) {
      const to = laneIndex + (key === "ArrowUp" ? -1 : 1);
      if (to < 0 || to >= lanes.length) {
        status(lanes.length > 1 ? "no lane " + (to < 0 ? "above" : "below") : "no group yet: Enter on the answer lane makes one at the cursor");
      } else {
        exercise.selected = null;
        showSelected();
        setCursor(Math.max(cursor, lanes[to].start), to);
        status(laneName(lanes[to]) + (lanes[to].group === null ? "" : ", made at frame " + lanes[to].start) + ", frame " + cursorFrame(question));
      }
    } else if (key === "Enter") {
      placeValue(question, cursor, null, 0, laneIndex);
    } else if (key === " ") {
      // The marbles in the cursor's column, one after another.
      const here = events.map((e, i) => (e.t === cursor ? i : null)).filter((i) => i !== null);
      if (!here.length) select(null);
      else select(here[(here.indexOf(selected) + 1) % (here.length + 1)] ?? null);
    } else if (key === "Escape" && selected !== null) {
      select(null);
    } else if ((key === "g" || key === "G") && selected !== null) {
      // The next event joins the selected one's frame: a group, `(ab)`.
      const next = events.findIndex((e, i) => i > selected && e.t > events[selected].t);
      if (next < 0) { status("no marble after the selected one to group with it"); }
      else answer(question, { events: moved(question, target, next, events[selected].t - events[next].t) });
    } else {
      return;
    }
    event.preventDefault();
    event.stopPropagation();
  });
}

// A changed answer: drawn again by the server (not checked until asked).
function answer(question, given, field) {
  exercise.focused = question.id;
  exercise.field = field || null;
  exercise.answers[question.id] = given;
  loadExercises(false);
}

// In a class, only the server reveals a lane: after a give-up it records.
async function giveUpOn(question) {
  exercise.focused = question.id;
  const generation = ++exercise.generation;
  let sheet;
  try { sheet = await api("/api/give-up", { method: "POST", body: JSON.stringify({ question: question.id }) }); } catch (error) { status(error.message); return; }
  if (generation === exercise.generation) showExercises(sheet, false);
}

async function saveAnswers() {
  try {
    const saved = await api("/api/answers", { method: "POST", body: JSON.stringify({ answers: exercise.answers }) });
    status("saved as " + saved.saved);
  } catch (error) { status("not saved: " + error.message); }
}

async function writeAnswers() {
  try {
    const written = await api("/api/answers", {
      method: "POST",
      body: JSON.stringify({ text: editor.value, name: scriptName(), dialect: $("dialect").value, answers: exercise.answers }),
    });
    exercise.answers = {};
    setText(written.text, true);
    render();
  } catch (error) { status(error.message); }
}

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

// A page of its own: the diagram, a time cursor, and play, pause and a
// speed to replay it in front of a class; nothing to install.
function replayingPage() {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${baseName()}</title>
<style>body{font:14px system-ui,sans-serif;margin:16px}svg{max-width:100%;height:auto}.later{opacity:.2}.now{stroke-width:4}</style></head>
<body><p><button id="play">▶ Play</button> <label>speed <select id="speed"><option value="0.5">½×</option><option value="1" selected>1×</option><option value="2">2×</option><option value="4">4×</option></select></label>
<label>time <input id="t" type="range" min="0" value="0" step="1" style="width:50%"></label> <span id="r"></span></p>
${state.last.svg.replace(/^<\?xml[^>]*>/, "")}
<script>
const marks=[...document.querySelectorAll("[data-t]")];const t=document.getElementById("t");const play=document.getElementById("play");
t.max=Math.max(0,...marks.map(m=>+m.dataset.t));t.value=t.max;let timer=null;
function show(){for(const m of marks){m.classList.toggle("later",+m.dataset.t>+t.value);m.classList.toggle("now",+m.dataset.t==+t.value)}document.getElementById("r").textContent="frame "+t.value}
function stop(){clearInterval(timer);timer=null;play.textContent="▶ Play"}
function step(){if(+t.value>=+t.max){stop();return}t.value=+t.value+1;show()}
play.onclick=()=>{if(timer){stop();return}if(+t.value>=+t.max)t.value=0;show();play.textContent="❚❚ Pause";timer=setInterval(step,400/+document.getElementById("speed").value)};
document.getElementById("speed").onchange=()=>{if(timer){stop();play.click()}};
t.oninput=()=>{stop();show()};show();
<\/script></body></html>`;
}

$("export-html").onclick = () => { if (state.last) download(baseName() + ".html", "text/html", replayingPage()); };

$("save").onclick = save;
start().catch((error) => status(error.message));
