// The teacher's view of a class answering `flow serve --exercise`: who has
// answered what, right or wrong, how many checks, what was shown. Everything
// comes from GET /api/class (the teacher's token, kept as a cookie).
"use strict";

const $ = (id) => document.getElementById(id);
const REFRESH_MS = 2000;

function element(tag, className, text) {
  const made = document.createElement(tag);
  if (className) made.className = className;
  if (text !== undefined) made.textContent = text;
  return made;
}

function cell(state) {
  const td = element("td", "answer");
  if (!state || (!state.answer && !state.checks && !state.revealed)) {
    td.classList.add("unanswered");
    td.textContent = "—";
    return td;
  }
  td.appendChild(element("code", "", state.answer || "(none)"));
  const verdict = state.lastCheck === "right" ? "✓" : state.lastCheck === "wrong" ? "✗" : "";
  if (state.lastCheck) td.classList.add(state.lastCheck);
  const facts = [verdict, state.checks + (state.checks === 1 ? " check" : " checks")];
  if (state.revealed) facts.push(state.gaveUp ? "gave up" : "shown");
  td.appendChild(element("span", "facts", " " + facts.filter(Boolean).join(" · ")));
  if (state.revealed) td.classList.add("revealed");
  return td;
}

function show(view) {
  $("title").textContent = view.exercise + " · the class";
  const head = $("class").querySelector("thead");
  const row = element("tr");
  row.appendChild(element("th", "", "student"));
  for (const question of view.questions) row.appendChild(element("th", "", question));
  head.replaceChildren(row);
  const body = $("class").querySelector("tbody");
  body.replaceChildren(...view.students.map((student) => {
    const tr = element("tr");
    tr.dataset.file = student.file;
    const who = element("th", "student", student.name);
    who.title = [student.id, student.email, student.file, student.seen ? "last seen " + student.seen : "not seen yet"].filter(Boolean).join(" · ");
    tr.appendChild(who);
    for (const question of view.questions) {
      const td = cell(student.questions[question]);
      td.dataset.question = question;
      tr.appendChild(td);
    }
    return tr;
  }));
  const seen = view.students.filter((s) => s.seen).length;
  const right = view.questions.map((q) => view.students.filter((s) => s.questions[q] && s.questions[q].lastCheck === "right").length);
  $("summary").textContent = seen + " of " + view.students.length + " students seen; right at the last check: "
    + view.questions.map((q, i) => q + " " + right[i]).join(", ");
  $("status").textContent = "updated " + new Date().toLocaleTimeString();
}

async function refresh() {
  try {
    const response = await fetch("/api/class", { cache: "no-store" });
    const body = await response.json();
    if (!response.ok) throw new Error(body.error || ("the server answered " + response.status));
    show(body);
  } catch (error) {
    $("status").textContent = "not updated: " + error.message;
  }
  setTimeout(refresh, REFRESH_MS);
}

refresh();
