// The app's outbox (Sources/RepLedgerWeb/App/Assets/outbox.js) under Node's own runner: `node --test Tests/AppJS`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Outbox, State } from "../../Sources/RepLedgerWeb/App/Assets/outbox.js";

/** What IndexedDB keeps, in memory: it outlives an Outbox, as the browser's storage outlives a tab. */
function memoryStore() {
  const rows = new Map();
  return {
    rows,
    all: async () => [...rows.values()].map((r) => ({ ...r })),
    put: async (item) => void rows.set(item.requestId, { ...item }),
    remove: async (id) => void rows.delete(id),
  };
}

/** A server that records each requestId once, and a network that can be cut. */
function server() {
  const recorded = [];
  const s = {
    online: true,
    refuse: new Set(),
    recorded,
    async send(item) {
      if (!s.online) throw new TypeError("Failed to fetch");
      if (s.refuse.has(item.command)) return { ok: false, status: 422, error: "the workout is finished" };
      if (!recorded.some((r) => r.requestId === item.requestId)) recorded.push(item);
      return { ok: true, answer: { requestId: item.requestId } };
    },
  };
  return s;
}

let ids = 0;
const options = (clock) => ({ now: () => clock.t, newId: () => `r-${++ids}` });

test("a command is kept before it is sent, and sent in order once the network returns", async () => {
  const store = memoryStore(), s = server(), clock = { t: 0 };
  const outbox = new Outbox(store, (i) => s.send(i), options(clock));
  s.online = false;
  for (let n = 1; n <= 3; n++) await outbox.add("log_set", { exercise: "Squat", reps: n });
  assert.equal(await outbox.unsent(), 3);
  assert.deepEqual(await outbox.flush(), []);
  assert.equal(await outbox.unsent(), 3, "nothing is dropped while offline");
  s.online = true;
  clock.t += Outbox.backoff(1);
  await outbox.flush();
  assert.equal(await outbox.unsent(), 0);
  assert.deepEqual(s.recorded.map((i) => i.args.reps), [1, 2, 3]);
});

test("taps in quick succession keep their order: each takes its own place in line", async () => {
  const store = memoryStore(), s = server(), clock = { t: 0 };
  const outbox = new Outbox(store, (i) => s.send(i), options(clock));
  await Promise.all([1, 2, 3, 4, 5].map((n) => outbox.add("log_set", { reps: n })));
  const seqs = (await outbox.items()).map((i) => i.seq);
  assert.deepEqual(seqs, [1, 2, 3, 4, 5]);
  await outbox.flush();
  assert.deepEqual(s.recorded.map((i) => i.args.reps), [1, 2, 3, 4, 5]);
});

test("failures back off, doubling to 30 s, and a success resets them", async () => {
  assert.deepEqual([0, 1, 2, 3, 6, 10].map(Outbox.backoff), [0, 1000, 2000, 4000, 30_000, 30_000]);
  const store = memoryStore(), s = server(), clock = { t: 0 };
  const outbox = new Outbox(store, (i) => s.send(i), options(clock));
  s.online = false;
  await outbox.add("log_set", { reps: 5 });
  await outbox.flush();
  await outbox.flush();
  assert.equal(outbox.failures, 1, "a flush before the retry time sends nothing");
  clock.t += 1000;
  await outbox.flush();
  assert.equal(outbox.failures, 2);
  s.online = true;
  clock.t += 2000;
  await outbox.flush();
  assert.equal(outbox.failures, 0);
  assert.equal(await outbox.unsent(), 0);
});

test("when the network returns, the next flush sends at once, whatever the backoff said", async () => {
  const store = memoryStore(), s = server(), clock = { t: 0 };
  const outbox = new Outbox(store, (i) => s.send(i), options(clock));
  s.online = false;
  await outbox.add("log_set", { reps: 5 });
  for (let n = 0; n < 6; n++) {
    clock.t = outbox.retryAt;
    await outbox.flush();
  }
  assert.equal(outbox.retryAt - clock.t, 30_000, "six failures wait 30 s");
  s.online = true;
  await outbox.flush();
  assert.equal(await outbox.unsent(), 1, "within the backoff nothing is sent");
  outbox.retryNow();
  await outbox.flush();
  assert.equal(await outbox.unsent(), 0);
});

test("the outbox survives a reload: a new Outbox over the same storage sends what the old one kept, once", async () => {
  const store = memoryStore(), s = server(), clock = { t: 0 };
  const first = new Outbox(store, (i) => s.send(i), options(clock));
  await first.add("start_workout", {});
  await first.add("log_set", { reps: 8 });
  await first.flush();
  assert.equal(s.recorded.length, 2);
  // An answer lost on the way back: the item is still kept, and the resend is recognised by its requestId.
  await first.add("log_set", { reps: 6 });
  const lost = [...store.rows.values()].at(-1);
  await s.send(lost);
  const second = new Outbox(store, (i) => s.send(i), options(clock));
  assert.equal(await second.unsent(), 1);
  await second.flush();
  assert.equal(await second.unsent(), 0);
  assert.equal(s.recorded.length, 3, "the resent command is recorded once");
});

test("a refused command is kept with the server's reason, holds back what follows, and goes only when discarded", async () => {
  const store = memoryStore(), s = server(), clock = { t: 0 };
  const outbox = new Outbox(store, (i) => s.send(i), options(clock));
  s.refuse.add("log_set");
  await outbox.add("log_set", { reps: 5 });
  await outbox.add("finish_workout", {});
  await outbox.flush();
  const [refused, held] = await outbox.items();
  assert.equal(refused.state, State.refused);
  assert.equal(refused.reason, "the workout is finished");
  assert.equal(held.state, State.pending);
  assert.equal(await outbox.unsent(), 2, "a refused command is not on the server either");
  await outbox.discard(refused.requestId);
  await outbox.flush();
  assert.equal(await outbox.unsent(), 0);
  assert.deepEqual(s.recorded.map((i) => i.command), ["finish_workout"]);
});

test("two flushes at once send each command once", async () => {
  const store = memoryStore(), s = server(), clock = { t: 0 };
  let sends = 0;
  const outbox = new Outbox(store, (i) => (sends++, s.send(i)), options(clock));
  for (let n = 0; n < 5; n++) await outbox.add("log_set", { reps: n });
  await Promise.all([outbox.flush(), outbox.flush(), outbox.flush()]);
  assert.equal(sends, 5);
  assert.equal(s.recorded.length, 5);
});
