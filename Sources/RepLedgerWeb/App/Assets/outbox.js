// The app's outbox: every tap that records becomes a command kept in storage, with its requestId, before the
// screen shows it as done; the commands are sent in order when the network allows, and a command the server
// refuses is kept with its reason until the lifter decides. The server's requestId makes a resend harmless.
//
// `store` keeps the items: { all(): Promise<item[]>, put(item): Promise, remove(id): Promise } (IndexedDB in the
// browser, `idbStore`; a Map in the tests). `send(item)` posts one command and resolves to
// { ok: true, answer } or { ok: false, status, error } (a refusal), and rejects when the network failed.

export const State = Object.freeze({ pending: "pending", refused: "refused" });

export class Outbox {
  constructor(store, send, { now = () => Date.now(), newId = () => crypto.randomUUID() } = {}) {
    this.store = store;
    this.send = send;
    this.now = now;
    this.newId = newId;
    this.flushing = null;
    this.adding = Promise.resolve();
    this.failures = 0;
    this.retryAt = 0;
  }

  /**
   * Keeps a command before anything else happens to it → the kept item. `shown` is what the screen needs to show
   * it before the server answers (an exercise's name for a set completed by id); it is never sent.
   */
  add(command, args = {}, shown = {}) {
    // One at a time: two taps in quick succession must not both read the same last place in line.
    const adding = this.adding.then(async () => {
      const items = await this.store.all();
      const seq = items.reduce((m, i) => Math.max(m, i.seq), 0) + 1;
      const item = { requestId: this.newId(), seq, command, args, shown, state: State.pending, keptAt: this.now() };
      await this.store.put(item);
      return item;
    });
    this.adding = adding.catch(() => {});
    return adding;
  }

  /** The items in the order they were kept. */
  async items() {
    return (await this.store.all()).sort((a, b) => a.seq - b.seq);
  }

  /** How many commands the server has not yet recorded (refused ones included: they are not on the server). */
  async unsent() {
    return (await this.store.all()).length;
  }

  /** How long to wait after `failures` network failures in a row: 1 s, doubling, at most 30 s. */
  static backoff(failures) {
    return failures === 0 ? 0 : Math.min(30_000, 1000 * 2 ** (failures - 1));
  }

  /**
   * Sends the pending commands in order, stopping at the first one that cannot be sent (the network, or a
   * refusal: what follows it may depend on it). Resolves to the answers of the commands recorded now.
   * One flush at a time; a call during a flush waits for it.
   */
  flush() {
    if (!this.flushing) this.flushing = this.#flush().finally(() => (this.flushing = null));
    return this.flushing;
  }

  async #flush() {
    const answers = [];
    if (this.now() < this.retryAt) return answers;
    for (const item of await this.items()) {
      if (item.state !== State.pending) break;
      let result;
      try {
        result = await this.send(item);
      } catch {
        this.failures += 1;
        this.retryAt = this.now() + Outbox.backoff(this.failures);
        return answers;
      }
      this.failures = 0;
      this.retryAt = 0;
      if (result.ok) {
        await this.store.remove(item.requestId);
        answers.push(result.answer);
      } else {
        await this.store.put({ ...item, state: State.refused, status: result.status, reason: result.error });
        break;
      }
    }
    return answers;
  }

  /** The network is back (the browser says so): the next flush sends at once, whatever the backoff had said. */
  retryNow() {
    this.failures = 0;
    this.retryAt = 0;
  }

  /** A refused command the lifter lets go: removed, and the ones after it may go on. */
  async discard(requestId) {
    await this.store.remove(requestId);
  }

  /**
   * A refused command tried again (after the lifter changed what made it fail elsewhere); `shown` adds to what the
   * screen keeps of it (an edit the lifter chose to keep over another device's).
   */
  async retry(requestId, shown = {}) {
    const item = (await this.store.all()).find((i) => i.requestId === requestId);
    if (item) await this.store.put({ ...item, shown: { ...item.shown, ...shown }, state: State.pending, status: undefined, reason: undefined });
  }
}

/** The outbox's storage in the browser: one IndexedDB object store, keyed by requestId. */
export function idbStore(name = "repledger-app") {
  const opened = new Promise((resolve, reject) => {
    const request = indexedDB.open(name, 1);
    request.onupgradeneeded = () => request.result.createObjectStore("outbox", { keyPath: "requestId" });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  const run = (mode, work) =>
    opened.then(
      (db) =>
        new Promise((resolve, reject) => {
          const tx = db.transaction("outbox", mode);
          const request = work(tx.objectStore("outbox"));
          tx.oncomplete = () => resolve(request.result);
          tx.onerror = () => reject(tx.error);
          tx.onabort = () => reject(tx.error);
        }),
    );
  return {
    all: () => run("readonly", (s) => s.getAll()),
    put: (item) => run("readwrite", (s) => s.put(item)),
    remove: (id) => run("readwrite", (s) => s.delete(id)),
  };
}
