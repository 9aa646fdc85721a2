// The lifter's app: the workout screen over the ledger's one command API. Every tap that records goes into the
// outbox first (IndexedDB), is shown at once as pending, and is sent when the network allows; what the screen
// shows of the workout is the server's last answer (kept for the next load, offline too) and the outbox's
// pending commands on top. No rule is computed here: records and numbers are the server's.
import { Outbox, State, idbStore } from "./outbox.js";

const meta = (name) => document.querySelector(`meta[name="${name}"]`)?.content ?? "";
const account = meta("repledger-account");
const csrf = meta("repledger-csrf");
const api = `/v1/accounts/${account}`;
const kept = `repledger-app-plan-${account}`;

async function send(item) {
  const conflict = await changedElsewhere(item);
  if (conflict) return conflict;
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

/**
 * An edit of a set that another device changed since the lifter saw it (a watch synced, the CLI): not sent, but
 * kept as a conflict showing both values, until the lifter keeps theirs or the other. Nothing is overwritten unseen.
 */
async function changedElsewhere(item) {
  const before = item.shown?.before;
  if (item.command !== "edit_set" || !before || item.shown.keep) return null;
  const response = await fetch(`${api}/workout/${item.args.workout}`, { credentials: "same-origin" });
  if (!response.ok) return null;
  const now = (await response.json()).exercises?.flatMap((e) => e.sets ?? []).find((s) => s.setId === item.args.set);
  if (!now || (now.weightKg === before.weightKg && now.reps === before.reps)) return null;
  // Theirs and what the lifter saw are the server's kilograms; the edit may be in pounds.
  const yours = { ...before, ...item.args };
  if (item.args.weightLb != null) delete yours.weightKg;
  return { ok: false, status: 409, error: `changed elsewhere to ${setText(now)} since you saw ${setText(before)}; yours is ${setText(yours)}` };
}

/** Whether the server last said this browser's session ended: what is pending waits for a new sign-in. */
let signedOut = false;

const outbox = new Outbox(idbStore(`repledger-app-${account}`), send);

/**
 * The lifting unit, as the server's settings last said: the server keeps and answers kilograms, and a lifter who
 * lifts in pounds reads and types pounds (sent as `weightLb`, kept in pounds as the CLI keeps `225lb`). Shown
 * rounded to 0.01 as the CLI shows it: a display, not a rule.
 */
const keptUnit = `repledger-app-unit-${account}`;
let unit = localStorage.getItem(keptUnit) === "lb" ? "lb" : "kg";
const KG_PER_LB = 0.45359237;
const inUnit = (kg) => Math.round((unit === "lb" ? kg / KG_PER_LB : kg) * 100) / 100;
const weightText = (kg) => `${inUnit(kg)} ${unit}`;
/** A weight typed in the lifting unit, as a command's argument. */
const weightArgument = (value) => (unit === "lb" ? { weightLb: value } : { weightKg: value });
/** A set's or a command's weight in kilograms, whichever unit it was given in. */
const kgOf = (s) => s.weightKg ?? (s.weightLb != null ? s.weightLb * KG_PER_LB : null);
/** A weight field: its label, step and bounds in the lifting unit. */
const weightStepper = (label, value) =>
  stepper(`${label} (${unit})`, "weight", value == null ? null : inUnit(value), unit === "lb" ? 5 : 2.5, unit === "lb" ? [0, 2204] : [0, 1000], unit);
/** The arguments a weight field adds when the lifter changed it from what the server gave. */
function changedWeight(field, kg) {
  const typed = field.querySelector("input").value;
  return typed !== "" && (kg == null || Number(typed) !== inUnit(kg)) ? weightArgument(Number(typed)) : {};
}

function setUnit(next) {
  if (next !== "kg" && next !== "lb") return;
  unit = next;
  localStorage.setItem(keptUnit, unit);
  for (const label of document.querySelectorAll("[data-unit]")) label.textContent = unit;
  const [low, high] = unit === "lb" ? [45, 881] : [20, 400];
  Object.assign($("weigh-in").weight, { min: String(low), max: String(high) });
  $("log").weight.max = unit === "lb" ? "2204" : "1000";
}
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

/** The workout's state when it is the one in progress. */
const inProgress = (w) => (w && (w.status === "running" || w.status === "paused") ? w : null);

/** Superset letters, A, B, … in the order the supersets first appear. */
function supersetLetters(exercises) {
  const letters = new Map();
  for (const e of exercises) if (e.supersetId && !letters.has(e.supersetId)) letters.set(e.supersetId, String.fromCharCode(65 + letters.size));
  return letters;
}

/** A number field with − and + beside it: one tap changes it by `step`, the keyboard still types any value. */
function stepper(label, name, value, step, bounds, unit) {
  const input = element("input", { name, type: "number", inputmode: "decimal", step: String(step), min: String(bounds[0]), max: String(bounds[1]), value: value ?? "", "aria-label": label });
  const nudge = (by, text) => {
    const b = element("button", { type: "button", class: "step", "aria-label": `${label} ${by > 0 ? "plus" : "minus"} ${step}` }, text);
    b.addEventListener("click", () => {
      const next = Math.min(bounds[1], Math.max(bounds[0], Number(input.value || 0) + by));
      input.value = String(Math.round(next * 100) / 100);
    });
    return b;
  };
  return element("span", { class: "stepper" }, nudge(-step, "−"), input, nudge(step, "+"), element("span", { class: "unit", "aria-hidden": "true" }, unit));
}

/** A planned set: its values as the server planned them, changed by the steppers, completed with one tap. */
function plannedRow(exercise, set) {
  const weight = weightStepper(`Weight, set ${set.number}`, set.weightKg);
  const reps = stepper(`Reps, set ${set.number}`, "reps", set.reps, 1, [0, 1000], "reps");
  const done = element("button", { type: "button", "data-complete": set.setId }, "Done");
  done.addEventListener("click", async () => {
    // Done as planned sends no values (the set completes as the server planned it); a changed field is sent.
    const args = { workout: workout.workoutId, set: set.setId, ...changedWeight(weight, set.weightKg) };
    const n = reps.querySelector("input").value;
    if (n !== "" && Number(n) !== set.reps) args.reps = Number(n);
    globalThis.Notification?.requestPermission?.().catch(() => {});
    await outbox.add("complete_set", args, { exercise: exercise.exercise });
    // The rest after it, of the length the server plans for this exercise.
    await record("rest_timer", { workout: workout.workoutId, action: "start" });
  });
  const plates = element("button", { type: "button", class: "secondary", "data-plates": set.setId, "aria-label": `Plates for set ${set.number}` }, "Plates");
  const loaded = element("span", { class: "caption", "data-loaded": "", "aria-live": "polite" });
  plates.addEventListener("click", async () => (loaded.textContent = await platesFor(weight.querySelector("input").value)));
  const row = element("li", { "data-set-id": set.setId, "data-planned": "" }, element("span", { class: "number" }, `${set.number}.`), weight, reps, done, plates, loaded);
  if (set.type !== "normal") row.prepend(element("span", { class: "caption" }, `${set.type} `));
  return row;
}

/** A done set, with an Edit that opens its steppers in place; saved as an edit that remembers what the lifter saw. */
function doneRow(exercise, set) {
  const row = element("li", { "data-set-id": set.setId, class: "done" }, `${set.number}. ${set.type === "normal" ? "" : `${set.type} `}${setText(set)} `);
  const edit = element("button", { type: "button", class: "secondary", "data-edit": set.setId, "aria-label": `Edit set ${set.number}` }, "Edit");
  edit.addEventListener("click", () => {
    const weight = weightStepper(`Weight, set ${set.number}`, set.weightKg);
    const reps = stepper(`Reps, set ${set.number}`, "reps", set.reps, 1, [0, 1000], "reps");
    const save = element("button", { type: "button", "data-save": set.setId }, "Save");
    save.addEventListener("click", () => {
      const args = { workout: workout.workoutId, set: set.setId, ...changedWeight(weight, set.weightKg) };
      const n = reps.querySelector("input").value;
      if (n !== "" && Number(n) !== set.reps) args.reps = Number(n);
      if (Object.keys(args).length === 2) return render();
      outbox.add("edit_set", args, { exercise: exercise.exercise, before: { weightKg: set.weightKg, reps: set.reps } }).then(() => {
        shown = null;
        render();
        sync();
      });
    });
    row.replaceChildren(element("span", { class: "number" }, `${set.number}.`), weight, reps, save);
    row.querySelector("input").focus();
  });
  row.append(edit);
  return row;
}

/**
 * The plates a side for a weight in the lifting unit, with the lifter's bar and plates, as the server loads them (kept per
 * weight for offline; the loading is the server's rule, never worked out here).
 */
async function platesFor(typed) {
  if (typed === "" || Number(typed) <= 0) return "Give the set a weight first.";
  const key = `repledger-app-plates-${account}-${Number(typed)}${unit}`;
  let answer = JSON.parse(localStorage.getItem(key) ?? "null");
  try {
    const fresh = await getJSON(`plates/${Number(typed)}${unit}`);
    if (fresh) localStorage.setItem(key, JSON.stringify((answer = fresh)));
  } catch {
    // Offline: the loading kept for this weight, if any.
  }
  if (!answer) return "Open this once with a signal to keep it for offline.";
  const side = (load) => (load.perSide.length === 0 ? "the bar alone" : `${load.perSide.map((p) => (p.count === 1 ? p.plate : `${p.count} × ${p.plate}`)).join(" + ")} ${answer.unit} a side`);
  if (answer.exact) return `${side({ perSide: answer.perSide })} on a ${answer.bar} ${answer.unit} bar`;
  const near = [answer.below, answer.above].filter(Boolean).map((l) => `${l.weight} ${answer.unit}: ${side(l)}`);
  return `Not loadable exactly; nearest ${near.join(", or ")}`;
}

/** What the exercise aims at and what last time was, as the server gave them. */
function targetLine(e) {
  const reps = e.targetRepsMin == null ? "" : e.targetRepsMin === e.targetRepsMax ? ` × ${e.targetRepsMin}` : ` × ${e.targetRepsMin}–${e.targetRepsMax}`;
  const target = e.targetSets != null ? `${e.targetSets} sets${reps} · ` : "";
  const line = element("p", { class: "caption", "data-target": "" }, `${target}rest ${e.restSeconds} s`);
  if (e.lastTime) {
    // Last time links to the inspector's why for this hint: the rule that chose that workout, and its events.
    const why = `/inspect/why?subject=hint&target=${encodeURIComponent(e.exercise)}&workout=${workout.workoutId}`;
    line.append(" · ", element("a", { href: why, "data-why": "hint" }, `last time (${e.lastTime.ago}): ${e.lastTime.sets.map(setText).join(", ")}`));
  }
  return line;
}

/** The buttons under an exercise: warm-up ramp, swap, superset with the next one, move up. */
function exerciseTools(e, i, exercises) {
  const tools = element("p", { class: "row" });
  const button = (label, data, onClick) => {
    const b = element("button", { type: "button", class: "secondary", [data]: e.exercise }, label);
    b.addEventListener("click", onClick);
    tools.append(b);
  };
  const w = workout.workoutId;
  button("Warm-up", "data-warmup", () => record("plan_warmup", { workout: w, exercise: e.exercise }));
  const next = exercises[i + 1];
  if (next && !(e.supersetId && e.supersetId === next.supersetId)) {
    button("Superset with next", "data-superset-next", () => record("link_superset", { workout: w, exercises: [e.exercise, next.exercise] }));
  }
  if (e.supersetId) button("End superset", "data-unlink", () => record("unlink_superset", { workout: w, exercise: e.exercise }));
  if (i > 0) {
    const order = exercises.map((x) => x.exercise);
    [order[i - 1], order[i]] = [order[i], order[i - 1]];
    button("Move up", "data-move-up", () => record("reorder_exercises", { workout: w, exercises: order }));
  }
  const swap = element("form", { class: "swap", "data-swap": e.exercise, hidden: "" },
    element("label", { class: "wide" }, `Swap ${e.exercise} for `, element("input", { name: "to", required: "", maxlength: "200", autocomplete: "off" })),
    element("button", { type: "submit" }, "Swap"));
  swap.addEventListener("submit", (event) => {
    event.preventDefault();
    record("swap_exercise", { workout: w, exercise: e.exercise, to: String(new FormData(swap).get("to")).trim() });
  });
  button("Swap…", "data-open-swap", () => {
    swap.hidden = !swap.hidden;
    if (!swap.hidden) swap.querySelector("input").focus();
  });
  return [tools, swap];
}

/** A pending command's set values, as the screen shows them until the server answers. */
const pendingText = (a) => `${kgOf(a) != null ? `${weightText(kgOf(a))} × ` : ""}${a.reps ?? "–"} reps`;

/** The workout in progress, as the server last answered it, and the commands not yet on the server. */
async function render() {
  const items = await outbox.items();
  const unsent = items.length;
  const pending = $("pending");
  pending.dataset.pending = String(unsent);
  pending.textContent = unsent === 0 ? "Everything is on the server" : `${unsent} not yet on the server`;
  $("signed-out").hidden = !signedOut;
  const current = inProgress(workout);
  const starting = !current && items.some((i) => i.command === "start_workout" && i.state === State.pending);
  const finishing = items.some((i) => i.command === "finish_workout" && i.state === State.pending);
  const open = (current || starting) && !finishing;
  $("start").hidden = open;
  $("log").hidden = !open;
  $("finish-form").hidden = !open;
  $("title").textContent = current?.name ?? (starting ? "New workout" : "No workout in progress");
  renderFinished(open);

  renderRest(current, items);
  renderRefused(items);
  // Rebuilt only when the workout or the outbox changed, keeping what the lifter typed and where the focus was.
  const shownNow = JSON.stringify([open, current, items]);
  if (shownNow === shown) return;
  shown = shownNow;
  const cards = $("exercises");
  const typed = new Map(
    [...cards.querySelectorAll("[data-planned] input")].filter((i) => i.value !== i.defaultValue).map((i) => [`${i.closest("[data-set-id]").dataset.setId} ${i.name}`, i.value]),
  );
  const active = document.activeElement;
  const focused = cards.contains(active) ? { set: active.closest("[data-set-id]")?.dataset.setId, label: active.getAttribute("aria-label") ?? active.textContent } : null;
  cards.replaceChildren();
  const lists = new Map();
  const card = (name, e = null, i = 0, all = []) => {
    if (!lists.has(name)) {
      const list = element("ol", { class: "sets numbered" });
      const letter = e?.supersetId ? supersetLetters(all).get(e.supersetId) : null;
      const heading = element("h2", {}, letter ? element("span", { class: "superset-letter" }, `${letter} `) : "", opener(name));
      const section = element("section", { class: letter ? "card superset" : "card", "data-exercise": name, "data-superset": letter ?? undefined }, heading);
      if (e) section.append(targetLine(e));
      section.append(list);
      if (e && current) section.append(...exerciseTools(e, i, all));
      cards.append(section);
      lists.set(name, list);
    }
    return lists.get(name);
  };
  const waiting = new Map(items.filter((i) => i.command === "complete_set" || i.command === "edit_set").map((i) => [i.args.set, i]));
  const exercises = open ? (current?.exercises ?? []) : [];
  exercises.forEach((e, i) => {
    const list = card(e.exercise, e, i, exercises);
    for (const set of e.sets ?? []) {
      const item = waiting.get(set.setId);
      if (item) {
        list.append(element("li", { "data-set-id": set.setId, "data-pending-set": item.requestId, class: item.state }, `${set.number}. ${pendingText({ ...set, ...item.args })}`));
      } else if (set.state === "planned") {
        list.append(plannedRow(e, set));
      } else {
        list.append(doneRow(e, set));
      }
    }
  });
  for (const item of items) {
    if (item.command !== "log_set" || !open) continue;
    const row = element("li", { "data-pending-set": item.requestId, class: item.state }, pendingText(item.args));
    if (item.state === State.refused) row.append(element("span", { class: "reason" }, ` — ${item.reason}`));
    card(item.args.exercise).append(row);
  }
  for (const input of cards.querySelectorAll("[data-planned] input")) {
    const value = typed.get(`${input.closest("[data-set-id]").dataset.setId} ${input.name}`);
    if (value !== undefined) input.value = value;
  }
  const again = focused && [...cards.querySelectorAll(focused.set ? `[data-set-id="${focused.set}"] *` : "button, input")].find((e) => (e.getAttribute("aria-label") ?? e.textContent) === focused.label);
  again?.focus();
}

/** What the workout screen last showed: it is rebuilt only when this changes. */
let shown = null;

/** A refused command, with the server's one line and the choices: into a new workout (a set), or discard. */
function renderRefused(items) {
  const refused = $("refused");
  refused.replaceChildren();
  for (const item of items.filter((i) => i.state === State.refused)) {
    const discard = element("button", { type: "button", "data-discard": item.requestId }, "Discard");
    discard.addEventListener("click", async () => {
      await outbox.discard(item.requestId);
      await sync();
    });
    const conflict = item.command === "edit_set" && item.status === 409;
    const words = conflict ? `Your edit of a set waits: ${item.reason} ` : `The server refused ${item.command.replaceAll("_", " ")}: ${item.reason} `;
    const line = element("p", { class: "refusal", role: "alert" }, words, discard);
    if (conflict) {
      const mine = element("button", { type: "button", "data-keep-mine": item.requestId }, "Keep mine");
      mine.addEventListener("click", async () => {
        await outbox.retry(item.requestId, { keep: true });
        await sync();
      });
      discard.textContent = "Keep theirs";
      line.append(" ", mine);
    }
    const exercise = item.args.exercise ?? item.shown?.exercise;
    if ((item.command === "log_set" || item.command === "complete_set") && exercise) {
      const into = element("button", { type: "button", "data-into-new": item.requestId }, "Into a new workout");
      into.addEventListener("click", async () => {
        const { workout: _, set: __, ...values } = item.args;
        await outbox.discard(item.requestId);
        await outbox.add("start_workout", {});
        await record("log_set", { ...values, exercise });
      });
      line.append(" ", into);
    }
    refused.append(line);
  }
}

/**
 * The rest counting down, from the time the server says it ends (so it is right after the phone slept); a rest
 * still in the outbox counts from the tap, for the length the server plans for the exercise. At zero: a vibration
 * and a notification, where the browser allows.
 */
let restEndsAt = null, restNotified = null;
function renderRest(current, items) {
  const panel = $("rest");
  const pendingStart = items.filter((i) => i.command === "rest_timer" && i.args.action === "start" && i.state === State.pending).at(-1);
  let endsAt = null, paused = false, seconds = null;
  if (pendingStart && current) {
    const done = items.filter((i) => i.command === "complete_set").at(-1);
    const e = current.exercises.find((x) => x.sets.some((s) => s.setId === done?.args.set));
    seconds = e?.restSeconds ?? null;
    endsAt = seconds == null ? null : pendingStart.keptAt + seconds * 1000;
  } else if (current?.rest) {
    paused = current.rest.paused;
    endsAt = paused ? null : Date.parse(current.rest.endsAt);
    seconds = paused ? current.rest.secondsLeft : null;
  }
  panel.hidden = endsAt == null && !paused;
  restEndsAt = endsAt;
  panel.dataset.paused = String(paused);
  $("rest-pause").textContent = paused ? "Resume" : "Pause";
  tickRest(paused ? seconds : null);
}

function tickRest(pausedSeconds = null) {
  const clock = $("rest-clock");
  const left = pausedSeconds ?? (restEndsAt == null ? null : Math.max(0, Math.round((restEndsAt - Date.now()) / 1000)));
  if (left == null) return;
  clock.textContent = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  clock.dataset.secondsLeft = String(left);
  if (left === 0 && restEndsAt != null && restNotified !== restEndsAt) {
    restNotified = restEndsAt;
    navigator.vibrate?.([200, 100, 200]);
    if (globalThis.Notification?.permission === "granted") new Notification("Rest over", { body: "Time for the next set." });
  }
}

/** The last finished workout's summary, with the records it set, until another starts. */
const keptFinished = `repledger-app-finished-${account}`;
function renderFinished(open) {
  const done = JSON.parse(localStorage.getItem(keptFinished) ?? "null");
  const panel = $("finished");
  panel.hidden = open || !done;
  if (!done) return;
  const w = done.workout;
  const records = done.records ?? [];
  $("finished-line").textContent = `${w.name}: ${w.sets} sets, ${weightText(w.tonnageKg)}${w.feeling ? `, feeling ${w.feeling} of 5` : ""}.`;
  const list = $("finished-records");
  const labels = { heaviest: "Heaviest", e1rm: "Best e1RM", setVolume: "Best set volume", sessionVolume: "Session volume" };
  list.replaceChildren(
    ...records.map((r) => {
      const label = r.kind === "repMax" ? `${r.repMax}RM` : (labels[r.kind] ?? r.kind);
      const why = `/inspect/why?subject=${r.kind === "e1rm" ? "e1rm" : "prs"}&target=${encodeURIComponent(r.exercise)}`;
      return element("li", { "data-record": r.kind, "data-exercise": r.exercise }, `${r.exercise}: ${label} `, element("a", { href: why }, `${r.value} ${r.unit}`));
    }),
  );
  if (records.length === 0) list.append(element("li", {}, "No records this time."));
}

/** Sends what is pending; after anything reached the server, shows the workout as it now holds it. */
async function sync() {
  const answers = await outbox.flush();
  for (const answer of answers) if (answer.workout?.workout?.finishedAt) localStorage.setItem(keptFinished, JSON.stringify(answer.workout));
  if (answers.length > 0) await refresh();
  else await render();
}

async function record(command, args) {
  await outbox.add(command, args);
  await render();
  sync();
}

/** The workout as the server holds it now: `workout show --json`'s document. */
async function refresh() {
  try {
    const response = await fetch(`${api}/workout/last`, { credentials: "same-origin" });
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
  setUnit(unit);
  // The unit from the server's settings (kept for offline): what every weight is shown and typed in.
  getJSON("settings")
    .then((settings) => {
      if (settings?.unit && settings.unit !== unit) {
        setUnit(settings.unit);
        render();
      }
    })
    .catch(() => {});
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
  if (kgOf(set) != null) return `${weightText(kgOf(set))} × ${set.reps ?? "–"}`;
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
    const summary = `${w.startedAt.slice(0, 10)} · ${w.name} · ${w.sets} sets · ${weightText(w.tonnageKg)}`;
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
    records.append(element("li", { "data-record": kind, "data-value": String(kg) }, `${label} `, element("a", { href: why(subject) }, weightText(kg))));
  }
  const trend = answer?.trend;
  $("exercise-window").textContent = trend?.upsell ?? "";
  chart(
    $("exercise-chart"),
    (trend?.points ?? []).map((p) => ({ value: p.e1rmKg, title: `${p.date.slice(0, 10)}: ${weightText(p.e1rmKg)} (${weightText(p.weightKg)} × ${p.reps})`, data: { workout: p.workoutId, e1rm: p.e1rmKg } })),
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
    const load = t.weightKg != null ? `${weightText(t.weightKg)} × ` : "";
    const reps = t.repsMin === t.repsMax ? `${t.repsMin}` : `${t.repsMin}–${t.repsMax}`;
    // The target links to the inspector's why: the progression settings that decided it and the sets it read.
    const why = element("a", { href: `/inspect/why?subject=target&target=${encodeURIComponent(t.exercise)}`, "data-why": "target" }, `${load}${reps}`);
    list.append(element("li", { "data-exercise": t.exercise, "data-weight-kg": t.weightKg ?? "" }, opener(t.exercise), ": ", why, element("p", { class: "caption" }, t.reason)));
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
  chart($("body-chart"), [...measured].reverse().map((m) => ({ value: m.weightKg, title: `${m.date.slice(0, 10)}: ${weightText(m.weightKg)}`, data: { measurement: m.measurementId } })));
  const list = $("weigh-ins");
  list.replaceChildren();
  for (const item of (await outbox.items()).filter((i) => i.command === "log_bodyweight")) {
    const row = element("li", { "data-pending-weigh-in": item.requestId, class: item.state }, weightText(kgOf(item.args)));
    if (item.state === State.refused) row.append(element("span", { class: "reason" }, ` — ${item.reason}`));
    list.append(row);
  }
  for (const m of measured) list.append(element("li", { "data-measurement": m.measurementId }, `${m.date.slice(0, 10)}: ${weightText(m.weightKg)}`));
}

/** Settings: the lifting unit, bar and plates and the default rest, as the server last answered; saved through the outbox. */
const keptSettings = `repledger-app-settings-${account}`;
const showSettings = () => showKept(keptSettings, () => getJSON("settings"), renderSettings);

function renderSettings(answer) {
  $("settings-as-of").textContent = answered(answer, "Settings");
  if (!answer) return;
  const form = $("settings");
  // What the lifter is typing stays; the server's values fill what they have not touched.
  if (form.dataset.editing === "true") return;
  form.unit.value = answer.unit;
  if (answer.unit !== unit) {
    setUnit(answer.unit);
    render();
  }
  form.restSeconds.value = String(answer.rest.restSeconds);
  form.bar.value = String(answer.plates.bar);
  form.plates.value = answer.plates.plates.join(", ");
}

function show(screen) {
  for (const name of ["today", "workout", "history", "exercise", "body", "settings"]) {
    $(`${name}-screen`).hidden = name !== screen;
    $(`tab-${name}`)?.setAttribute("aria-pressed", String(name === screen));
  }
  if (screen === "today") showToday();
  if (screen === "history") showHistory();
  if (screen === "body") showBody();
  if (screen === "settings") showSettings();
}

$("tab-today").addEventListener("click", () => show("today"));
$("tab-workout").addEventListener("click", () => show("workout"));
$("start-empty").addEventListener("click", () => startFromToday({}));
$("repeat-last").addEventListener("click", () => startFromToday({ repeatLast: true }));
$("start-day").addEventListener("click", () => startFromToday({ program: "active", day: JSON.parse(localStorage.getItem(keptToday) ?? "null")?.day?.number }));
$("tab-history").addEventListener("click", () => show("history"));
$("tab-body").addEventListener("click", () => show("body"));
$("tab-settings").addEventListener("click", () => show("settings"));
$("settings").addEventListener("input", (event) => (event.currentTarget.dataset.editing = "true"));
$("settings").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = event.target;
  const plates = form.plates.value.split(",").map((p) => Number(p.trim()));
  await outbox.add("change_settings", { unit: form.unit.value, bar: Number(form.bar.value), plates, restSeconds: Number(form.restSeconds.value) });
  // Shown in the new unit at once, as every recorded tap is.
  setUnit(form.unit.value);
  delete form.dataset.editing;
  await render();
  await sync();
  showSettings();
});
$("weigh-in").addEventListener("submit", async (event) => {
  event.preventDefault();
  const weight = weightArgument(Number(new FormData(event.target).get("weight")));
  event.target.reset();
  await outbox.add("log_bodyweight", weight);
  await renderBody(JSON.parse(localStorage.getItem(keptBody) ?? "null"));
  await render();
  await sync();
  showBody();
});
$("start").addEventListener("click", () => record("start_workout", {}));
$("finish-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const form = new FormData(event.target);
  const args = {};
  if (form.get("feeling")) args.feeling = Number(form.get("feeling"));
  if (String(form.get("note") ?? "").trim() !== "") args.note = String(form.get("note")).trim();
  event.target.reset();
  record("finish_workout", args);
});
const rest = (args) => record("rest_timer", { workout: workout?.workoutId ?? "last", ...args });
$("rest-less").addEventListener("click", () => rest({ action: "adjust", seconds: -15 }));
$("rest-more").addEventListener("click", () => rest({ action: "adjust", seconds: 15 }));
$("rest-pause").addEventListener("click", () => rest({ action: $("rest").dataset.paused === "true" ? "resume" : "pause" }));
$("rest-dismiss").addEventListener("click", () => rest({ action: "dismiss" }));
setInterval(() => tickRest(), 1000);
$("log").addEventListener("submit", (event) => {
  event.preventDefault();
  const form = new FormData(event.target);
  const args = { exercise: String(form.get("exercise")).trim(), reps: Number(form.get("reps")) };
  if (form.get("weight") !== "") Object.assign(args, weightArgument(Number(form.get("weight"))));
  record("log_set", args);
});
window.addEventListener("online", () => {
  outbox.retryNow();
  sync();
});
setInterval(sync, 2000);
navigator.storage?.persist?.();
navigator.serviceWorker?.register("/app/sw.js", { scope: "/app" }).catch(() => {});
load();
