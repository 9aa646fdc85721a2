// The lifter's app: the workout screen over the ledger's one command API. Every tap that records goes into the
// outbox first (IndexedDB), is shown at once as pending, and is sent when the network allows; what the screen
// shows of the workout is the server's last answer (kept for the next load, offline too) and the outbox's
// pending commands on top. No rule is computed here: records and numbers are the server's.
import { Outbox, State, idbStore } from "./outbox.js";

const meta = (name) => document.querySelector(`meta[name="${name}"]`)?.content ?? "";
const account = meta("repledger-account");
const csrf = meta("repledger-csrf");
const api = `/v1/accounts/${account}`;
const kept = `repledger-app-workout-${account}`;

async function send(item) {
  const response = await fetch(`${api}/commands`, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
    body: JSON.stringify({ command: item.command, args: item.args, requestId: item.requestId }),
  });
  const body = await response.json().catch(() => ({}));
  signedOut = response.status === 401 || (response.status === 403 && body?.error?.code === "forbidden" && /CSRF/.test(body?.error?.message ?? ""));
  if (response.ok) return { ok: true, answer: body };
  // The server could not answer now (a restart, a failover), or the session ended: kept and tried again later,
  // never refused (a command is refused only for what it says).
  if (response.status >= 500 || response.status === 429 || signedOut) throw new Error(body?.error?.message ?? `HTTP ${response.status}`);
  return { ok: false, status: response.status, error: body?.error?.message ?? `refused (HTTP ${response.status})` };
}

/** Whether the server last said this browser's session ended: what is pending waits for a new sign-in. */
let signedOut = false;

const outbox = new Outbox(idbStore(`repledger-app-${account}`), send);
let workout = JSON.parse(localStorage.getItem(kept) ?? "null");

const $ = (id) => document.getElementById(id);
const element = (tag, attributes = {}, ...children) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attributes)) if (v !== undefined && v !== null) e.setAttribute(k, v);
  for (const c of children) e.append(c);
  return e;
};

function remember(summary) {
  workout = summary;
  localStorage.setItem(kept, JSON.stringify(summary));
}

/** The workout in progress, as the server last answered it, and the commands not yet on the server. */
async function render() {
  const items = await outbox.items();
  const unsent = items.length;
  const pending = $("pending");
  pending.dataset.pending = String(unsent);
  pending.textContent = unsent === 0 ? "Everything is on the server" : `${unsent} not yet on the server`;
  $("signed-out").hidden = !signedOut;
  const current = workout && !workout.workout?.finishedAt ? workout.workout : null;
  const starting = items.some((i) => i.command === "start_workout" && i.state === State.pending);
  $("start").hidden = Boolean(current) || starting;
  $("log").hidden = !(current || starting);
  $("finish").hidden = !(current || starting);
  $("title").textContent = current?.name ?? (starting ? "New workout" : "No workout in progress");

  const cards = $("exercises");
  cards.replaceChildren();
  const byExercise = new Map();
  const card = (name) => {
    if (!byExercise.has(name)) {
      const list = element("ol", { class: "sets" });
      const section = element("section", { class: "card", "data-exercise": name }, element("h2", {}, opener(name)), list);
      cards.append(section);
      byExercise.set(name, list);
    }
    return byExercise.get(name);
  };
  for (const exercise of current?.exercises ?? []) {
    const list = card(exercise.exercise);
    for (const set of exercise.sets ?? []) {
      const text = set.weightKg != null ? `${set.weightKg} kg × ${set.reps ?? "–"}` : set.durationSeconds != null ? `${set.durationSeconds} s` : `${set.reps ?? "–"} reps`;
      list.append(element("li", { "data-set-id": set.setId }, text));
    }
  }
  for (const item of items) {
    if (item.command !== "log_set") continue;
    const a = item.args;
    const text = `${a.weightKg != null ? `${a.weightKg} kg × ` : ""}${a.reps} reps`;
    const row = element("li", { "data-pending-set": item.requestId, class: item.state }, text);
    if (item.state === State.refused) row.append(element("span", { class: "reason" }, ` — ${item.reason}`));
    card(a.exercise).append(row);
  }

  const refused = $("refused");
  refused.replaceChildren();
  for (const item of items.filter((i) => i.state === State.refused)) {
    const discard = element("button", { type: "button", "data-discard": item.requestId }, "Discard");
    discard.addEventListener("click", async () => {
      await outbox.discard(item.requestId);
      await sync();
    });
    refused.append(element("p", { class: "refusal", role: "alert" }, `The server refused ${item.command.replaceAll("_", " ")}: ${item.reason} `, discard));
  }
}

/** Sends what is pending, keeps the newest answer's workout, shows it. */
async function sync() {
  for (const answer of await outbox.flush()) if ("workout" in answer) remember(answer.workout);
  await render();
}

async function record(command, args) {
  await outbox.add(command, args);
  await render();
  sync();
}

/** The workout as the server holds it now. */
async function refresh() {
  try {
    const response = await fetch(`${api}/summary/last`, { credentials: "same-origin" });
    if (response.ok) remember(await response.json());
    else if (response.status === 404) remember(null);
  } catch {
    // Offline: the last answer kept stands.
  }
  await render();
}

/**
 * What other devices record (a watch syncing, the CLI) shows within a second: the account's live stream, on the
 * session's cookie, wakes a refresh. The browser reconnects a dropped stream by itself, from the last event it saw.
 */
async function live() {
  let after = 0;
  try {
    const response = await fetch(`${api}/events?after=0&limit=1`, { credentials: "same-origin" });
    if (response.ok) after = (await response.json()).head?.position ?? 0;
  } catch {
    // Offline: the stream starts when the page is next opened online.
    return;
  }
  let waiting = null;
  const stream = new EventSource(`${api}/events/live?after=${after}`);
  stream.onmessage = () => {
    waiting ??= setTimeout(() => {
      waiting = null;
      refresh();
    }, 150);
  };
}

async function load() {
  await refresh();
  await sync();
  live();
}

/**
 * History: the workouts by week, newest first, each opening to its sets, as the server last answered (kept for
 * offline, marked with its time). Every number is the server's; each workout links to the inspector's session page.
 */
const showHistory = () => showKept(`repledger-app-history-${account}`, () => getJSON("history?limit=100"), renderHistory);

/** A query's answer, or null when the server answers it with an error (offline, it throws). */
const getJSON = (query) => fetch(`${api}/${query}`, { credentials: "same-origin" }).then((r) => (r.ok ? r.json() : null));

/**
 * A screen's answer: the one kept from the server's last answer, shown at once (offline too), then the server's
 * new one when it answers, kept with its time. `read` gives the answer, null when the server gave none.
 */
async function showKept(key, read, render) {
  let answer = JSON.parse(localStorage.getItem(key) ?? "null");
  await render(answer);
  try {
    const fresh = await read();
    if (fresh) {
      answer = { answeredAt: new Date().toISOString(), ...fresh };
      localStorage.setItem(key, JSON.stringify(answer));
    }
  } catch {
    // Offline: the kept answer stands, with its time.
  }
  await render(answer);
}

/** When the kept answer was the server's, or how to keep one. */
function answered(answer, screen) {
  return answer ? `As the server answered at ${new Date(answer.answeredAt).toLocaleString()}` : `Open ${screen} once with a signal to keep it for offline.`;
}

/** The Monday of a workout's week, from the date it started (its own calendar day). */
function weekOf(startedAt) {
  const day = new Date(`${startedAt.slice(0, 10)}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() - ((day.getUTCDay() + 6) % 7));
  return day.toISOString().slice(0, 10);
}

function setText(set) {
  if (set.weightKg != null) return `${set.weightKg} kg × ${set.reps ?? "–"}`;
  if (set.durationSeconds != null) return `${set.durationSeconds} s`;
  if (set.distanceMeters != null) return `${set.distanceMeters} m`;
  return `${set.reps ?? "–"} reps`;
}

function renderHistory(answer) {
  const list = $("history");
  list.replaceChildren();
  $("history-as-of").textContent = answered(answer, "History");
  let week = null;
  for (const w of answer?.workouts ?? []) {
    const monday = weekOf(w.startedAt);
    if (monday !== week) {
      week = monday;
      list.append(element("h2", { "data-week": monday }, `Week of ${monday}`));
    }
    const sets = element("ul", { class: "sets" });
    for (const e of w.exercises ?? []) {
      sets.append(element("li", { "data-exercise": e.exercise }, opener(e.exercise), `: ${(e.sets ?? []).map(setText).join(", ")}`));
    }
    const summary = `${w.startedAt.slice(0, 10)} · ${w.name} · ${w.sets} sets · ${w.tonnageKg} kg`;
    const inspector = element("a", { href: `/inspect/workouts/${w.workoutId}` }, "Every event of it, in the inspector");
    list.append(
      element("details", { class: "card", "data-workout": w.workoutId, "data-sets": String(w.sets) }, element("summary", {}, summary), sets, element("p", {}, inspector)),
    );
  }
}

/** A name that opens its exercise's screen. */
function opener(name) {
  const button = element("button", { type: "button", class: "link", "data-open-exercise": name }, name);
  button.addEventListener("click", () => showExercise(name));
  return button;
}

/**
 * An exercise: its records, its e1RM by workout (within the plan's chart window, as the server says) and its
 * last workouts, as the server last answered; each record links to the inspector's why for it.
 */
function showExercise(name) {
  show("exercise");
  const path = encodeURIComponent(name);
  const read = async () => {
    const [records, trend, history] = await Promise.all(
      [`prs?exercise=${path}`, `e1rm/${path}`, `history?exercise=${path}&limit=20`].map(getJSON),
    );
    return records || trend || history ? { records: records?.exercises?.[0] ?? null, trend, history } : null;
  };
  return showKept(`repledger-app-exercise-${account}-${name}`, read, (answer) => renderExercise(name, answer));
}

function renderExercise(name, answer) {
  $("exercise-name").textContent = name;
  $("exercise-as-of").textContent = answered(answer, "it");
  const why = (subject) => `/inspect/why?subject=${subject}&target=${encodeURIComponent(name)}`;
  const records = $("exercise-records");
  records.replaceChildren();
  const r = answer?.records;
  const rows = [
    ["heaviest", "Heaviest", r?.heaviestKg, "prs"],
    ["e1rm", "Best e1RM", r?.bestE1rmKg, "e1rm"],
    ["set-volume", "Best set volume", r?.bestSetVolumeKg, "prs"],
    ...Object.entries(r?.repMaxesKg ?? {}).map(([reps, kg]) => [`${reps}rm`, `${reps}RM`, kg, "prs"]),
  ];
  for (const [kind, label, kg, subject] of rows) {
    if (kg == null) continue;
    records.append(element("li", { "data-record": kind, "data-value": String(kg) }, `${label} `, element("a", { href: why(subject) }, `${kg} kg`)));
  }
  const trend = answer?.trend;
  $("exercise-window").textContent = trend?.upsell ?? "";
  chart(
    $("exercise-chart"),
    (trend?.points ?? []).map((p) => ({ value: p.e1rmKg, title: `${p.date.slice(0, 10)}: ${p.e1rmKg} kg (${p.weightKg} kg × ${p.reps})`, data: { workout: p.workoutId, e1rm: p.e1rmKg } })),
  );
  const list = $("exercise-history");
  list.replaceChildren();
  for (const w of answer?.history?.workouts ?? []) {
    const sets = (w.exercises ?? []).filter((e) => e.exercise === name).flatMap((e) => e.sets ?? []);
    list.append(element("p", { "data-workout": w.workoutId }, `${w.startedAt.slice(0, 10)} ${w.name}: ${sets.map(setText).join(", ")}`));
  }
}

/**
 * Points as a line in the SVG's 320 × 120 box, lowest to highest, oldest to newest: shapes only, no script or
 * style. Each point is `{ value, title, data }` (its `data` become the dot's `data-` attributes).
 */
function chart(svg, points) {
  svg.replaceChildren();
  const values = points.map((p) => p.value);
  if (values.length === 0) return;
  const [low, high] = [Math.min(...values), Math.max(...values)];
  const x = (i) => (points.length === 1 ? 160 : 10 + (300 * i) / (points.length - 1));
  const y = (v) => (high === low ? 60 : 110 - (100 * (v - low)) / (high - low));
  const ns = "http://www.w3.org/2000/svg";
  const shape = (tag, attributes) => {
    const e = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attributes)) e.setAttribute(k, String(v));
    svg.append(e);
    return e;
  };
  shape("polyline", { points: points.map((p, i) => `${x(i)},${y(p.value)}`).join(" "), fill: "none", stroke: "currentColor", "stroke-width": 2 });
  points.forEach((p, i) => {
    const data = Object.fromEntries(Object.entries(p.data).map(([k, v]) => [`data-${k}`, v]));
    const dot = shape("circle", { cx: x(i), cy: y(p.value), r: 4, fill: "currentColor", ...data });
    const title = document.createElementNS(ns, "title");
    title.textContent = p.title;
    dot.append(title);
  });
}

/**
 * Today: the next session as the server plans it (the program's next day, or the exercises lately done), each
 * target with its reason, and the ways to start: that day, empty, or the last workout again.
 */
const keptToday = `repledger-app-today-${account}`;
const showToday = () => showKept(keptToday, () => getJSON("next"), renderToday);

function renderToday(answer) {
  const day = answer?.day;
  $("today-day").textContent = day ? `Day ${day.number}: ${day.name}` : "No program: the exercises you did lately";
  $("today-as-of").textContent = answered(answer, "Today") + (answer?.scheduledOn ? ` · planned for ${answer.scheduledOn}` : "");
  $("start-day").hidden = !day;
  if (day) $("start-day").textContent = `Start day ${day.number}`;
  const list = $("targets");
  list.replaceChildren();
  for (const t of answer?.targets ?? []) {
    const load = t.weightKg != null ? `${t.weightKg} kg × ` : "";
    const reps = t.repsMin === t.repsMax ? `${t.repsMin}` : `${t.repsMin}–${t.repsMax}`;
    list.append(element("li", { "data-exercise": t.exercise, "data-weight-kg": t.weightKg ?? "" }, opener(t.exercise), `: ${load}${reps}`, element("p", { class: "caption" }, t.reason)));
  }
}

async function startFromToday(args) {
  show("workout");
  await record("start_workout", args);
}

/** Body: a weigh-in through the outbox, and every weigh-in as the server last answered, with its line over time. */
const keptBody = `repledger-app-body-${account}`;
const showBody = () => showKept(keptBody, () => getJSON("body"), renderBody);

async function renderBody(answer) {
  $("body-as-of").textContent = answered(answer, "Body");
  const measured = answer?.measurements ?? [];
  chart($("body-chart"), [...measured].reverse().map((m) => ({ value: m.weightKg, title: `${m.date.slice(0, 10)}: ${m.weightKg} kg`, data: { measurement: m.measurementId } })));
  const list = $("weigh-ins");
  list.replaceChildren();
  for (const item of (await outbox.items()).filter((i) => i.command === "log_bodyweight")) {
    const row = element("li", { "data-pending-weigh-in": item.requestId, class: item.state }, `${item.args.weightKg} kg`);
    if (item.state === State.refused) row.append(element("span", { class: "reason" }, ` — ${item.reason}`));
    list.append(row);
  }
  for (const m of measured) list.append(element("li", { "data-measurement": m.measurementId }, `${m.date.slice(0, 10)}: ${m.weightKg} kg`));
}

function show(screen) {
  for (const name of ["today", "workout", "history", "exercise", "body"]) {
    $(`${name}-screen`).hidden = name !== screen;
    $(`tab-${name}`)?.setAttribute("aria-pressed", String(name === screen));
  }
  if (screen === "today") showToday();
  if (screen === "history") showHistory();
  if (screen === "body") showBody();
}

$("tab-today").addEventListener("click", () => show("today"));
$("tab-workout").addEventListener("click", () => show("workout"));
$("start-empty").addEventListener("click", () => startFromToday({}));
$("repeat-last").addEventListener("click", () => startFromToday({ repeatLast: true }));
$("start-day").addEventListener("click", () => startFromToday({ program: "active", day: JSON.parse(localStorage.getItem(keptToday) ?? "null")?.day?.number }));
$("tab-history").addEventListener("click", () => show("history"));
$("tab-body").addEventListener("click", () => show("body"));
$("weigh-in").addEventListener("submit", async (event) => {
  event.preventDefault();
  const weightKg = Number(new FormData(event.target).get("weight"));
  event.target.reset();
  await outbox.add("log_bodyweight", { weightKg });
  await renderBody(JSON.parse(localStorage.getItem(keptBody) ?? "null"));
  await render();
  await sync();
  showBody();
});
$("start").addEventListener("click", () => record("start_workout", {}));
$("finish").addEventListener("click", () => record("finish_workout", {}));
$("log").addEventListener("submit", (event) => {
  event.preventDefault();
  const form = new FormData(event.target);
  const args = { exercise: String(form.get("exercise")).trim(), reps: Number(form.get("reps")) };
  if (form.get("weight") !== "") args.weightKg = Number(form.get("weight"));
  record("log_set", args);
});
window.addEventListener("online", sync);
setInterval(sync, 2000);
navigator.storage?.persist?.();
navigator.serviceWorker?.register("/app/sw.js", { scope: "/app" }).catch(() => {});
load();
