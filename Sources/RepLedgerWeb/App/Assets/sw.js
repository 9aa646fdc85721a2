// The app's service worker: the page and its files come from the network when it answers, else from the copy
// kept at the last visit, so the app opens with no signal. The API is never cached here: what the screen shows
// offline is the server's last answer the page kept, and what it records waits in the outbox.
// The server names the cache after this release's files and rewrites FILES to their hashed names
// (ServedAssets.swift): a new release is a new worker, which fills a new cache and drops the last one's.
const CACHE = "repledger-app";
const FILES = ["/app", "/app/app.js", "/app/outbox.js", "/app/app.css"];

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(FILES))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) =>
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => name.startsWith("repledger-app") && name !== CACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  ),
);

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== self.location.origin || !FILES.includes(url.pathname)) return;
  event.respondWith(
    fetch(event.request)
      .then((response) => {
        if (response.ok) {
          const copy = response.clone();
          event.waitUntil(caches.open(CACHE).then((cache) => cache.put(url.pathname, copy)));
        }
        return response;
      })
      .catch(() => caches.match(url.pathname).then((kept) => kept ?? Response.error())),
  );
});
