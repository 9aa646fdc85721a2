import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import RepLedgerAccounts
import RepLedgerService

/// The lifter's app under `/app`, for an account signed in on the account page: one page, its ES modules and
/// its stylesheet. The page records through the server's one command API (`POST /v1/accounts/{id}/commands`)
/// and reads the workout through the API's queries, authenticated by the app's session cookie (`rl_app`:
/// `HttpOnly`, `SameSite=Strict`, its SHA-256 kept with the hash of the browser's token, so revoking that
/// token from the device list ends it) and, on every write, the session's CSRF token in `X-CSRF-Token`.
package struct LifterApp: Sendable {
    package let sessions = CoachWebSessions()
    /// Cookies carry `Secure` unless the server listens on loopback only (plain HTTP there).
    let secureCookies: Bool
    /// `ledger app`'s one-time codes, where a browser comes in with no account page; nil under `ledger serve`.
    let door: AppCodeDoor?
    /// The inspector beside the app: opening the app opens it too, so each number's why link shows its page
    /// rather than a sign-in asking for a token a lifter who never opened a terminal does not have.
    let inspector: InspectorAccountDoor?

    package init(secureCookies: Bool, door: AppCodeDoor? = nil, inspector: InspectorAccountDoor? = nil) {
        self.secureCookies = secureCookies
        self.door = door
        self.inspector = inspector
    }

    /// Where a browser without a session is sent: the account page's sign-in, or `ledger app`'s words.
    var signIn: String { door == nil ? "/account/sign-in" : Self.root + "/open" }

    package static let root = "/app"
    package static let sessionCookie = "rl_app"
    package static let csrfHeader = "X-CSRF-Token"
    static let sessionSeconds = 12 * 3600
    /// The page's own modules, styles and API calls only: no inline script or style.
    package static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; worker-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

    /// A session of the app (and of the inspector beside it) for the account whose browser token has this
    /// hash → the `Set-Cookie` values. Both end with that token.
    package func open(tokenHash: [UInt8], account: String) -> [String] {
        let secure = secureCookies ? "; Secure" : ""
        let (id, _) = sessions.open(tokenHash: tokenHash, account: account)
        // Path=/ so the API's routes receive it; only `Authentication` reads it, and only without a bearer token.
        var cookies = ["\(Self.sessionCookie)=\(id); Path=/; Max-Age=\(Self.sessionSeconds); HttpOnly; SameSite=Strict\(secure)"]
        if let inspector {
            let (seat, _) = inspector.sessions.open(tokenHash: tokenHash, account: account)
            cookies.append(
                "\(InspectorWeb.sessionCookie)=\(seat); Path=\(InspectorWeb.root); Max-Age=\(Self.sessionSeconds); HttpOnly; SameSite=Strict\(secure)"
            )
        }
        return cookies
    }

    package func addRoutes<Context: RequestContext>(to group: RouterGroup<Context>) {
        group.get("") { request, _ in
            guard let id = CoachWeb.cookies(request)[Self.sessionCookie], let session = sessions.session(id) else {
                return CoachWeb.redirect(signIn)
            }
            return Response(
                status: .ok,
                headers: [.contentType: "text/html; charset=utf-8", .contentSecurityPolicy: Self.contentSecurityPolicy, .cacheControl: "no-store"],
                body: .init(byteBuffer: ByteBuffer(string: Self.page(account: session.account, csrf: session.csrf, codeDoor: door != nil))))
        }
        if let door {
            // `open?code=…`: a live code becomes the app's session cookie and a redirect to the app, so the address
            // bar and the history keep only a spent code; a browser already in goes on to the app.
            group.get("open") { request, _ in
                let code = request.uri.queryParameters["code"].map(String.init) ?? ""
                if door.codes.spend(code) {
                    var response = CoachWeb.redirect(Self.root)
                    for cookie in open(tokenHash: door.tokenHash, account: door.account) {
                        response.headers.append(.init(name: .setCookie, value: cookie))
                    }
                    return response
                }
                if let id = CoachWeb.cookies(request)[Self.sessionCookie], sessions.session(id) != nil { return CoachWeb.redirect(Self.root) }
                return Response(
                    status: .unauthorized, headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
                    body: .init(byteBuffer: ByteBuffer(string: "This address works once, for 15 minutes: run `ledger app` again for a new one.\n")))
            }
        }
        for (name, file) in ServedAssets.files {
            let tag = "\"\(ServedAssets.digest(file.text))\""
            // A worker runs under its own script's policy: the service worker's must let it fetch the app's files.
            var headers: HTTPFields = [
                .contentType: file.contentType, .eTag: tag, .contentSecurityPolicy: Self.contentSecurityPolicy,
                // A hashed name's content never changes: kept a year, never asked for again.
                .cacheControl: file.immutable ? "public, max-age=31536000, immutable" : "no-cache",
            ]
            // The service worker serves the page at /app itself, above its own folder.
            if name == "sw.js" { headers[HTTPField.Name("Service-Worker-Allowed")!] = Self.root }
            group.get(RouterPath(name)) { [headers] request, _ in
                if request.headers[.ifNoneMatch] == tag { return Response(status: .notModified, headers: [.eTag: tag]) }
                return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: file.text)))
            }
        }
    }

    static func page(account: String, csrf: String, codeDoor: Bool = false) -> String {
        let again =
            codeDoor
            ? "run <code>ledger app</code> again and open the address it prints"
            : "<a href=\"/account/sign-in\">sign in again</a> and open the app"
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="repledger-account" content="\(account)"><meta name="repledger-csrf" content="\(csrf)">
            <title>RepLedger</title><link rel="stylesheet" href="\(root)/\(ServedAssets.name(of: "app.css"))"><script type="module" src="\(root)/\(ServedAssets.name(of: "app.js"))"></script></head>
            <body><header><h1 id="title">RepLedger</h1><span id="pending" data-pending="0" aria-live="polite"></span></header>
            <nav class="tabs" aria-label="Screens"><button type="button" id="tab-today" aria-pressed="false">Today</button><button type="button" id="tab-workout" aria-pressed="true">Workout</button><button type="button" id="tab-history" aria-pressed="false">History</button><button type="button" id="tab-body" aria-pressed="false">Body</button><button type="button" id="tab-settings" aria-pressed="false">Settings</button></nav>
            <main id="today-screen" hidden><h2 id="today-day"></h2><p id="today-as-of" class="caption"></p>
            <p class="row"><button type="button" id="start-day" hidden>Start this day</button><button type="button" id="start-empty">Start empty</button><button type="button" id="repeat-last">Repeat the last workout</button></p>
            <ol id="targets" class="sets"></ol></main>
            <main id="history-screen" hidden><p id="history-as-of" class="caption"></p><div id="history"></div></main>
            <main id="exercise-screen" hidden><h2 id="exercise-name"></h2><p id="exercise-as-of" class="caption"></p><ul id="exercise-records"></ul>
            <p id="exercise-window" class="caption"></p><svg id="exercise-chart" role="img" aria-label="e1RM by workout" viewBox="0 0 320 120" width="100%"></svg>
            <div id="exercise-history"></div></main>
            <main id="body-screen" hidden><form id="weigh-in"><label class="wide">Bodyweight (<span data-unit>kg</span>) <input name="weight" type="number" inputmode="decimal" min="20" max="400" step="0.05" required></label>
            <button type="submit">Log weigh-in</button></form><p id="body-as-of" class="caption"></p>
            <svg id="body-chart" role="img" aria-label="Bodyweight over time" viewBox="0 0 320 120" width="100%"></svg><ol id="weigh-ins" class="sets"></ol></main>
            <main id="settings-screen" hidden><form id="settings"><label>Lifting unit <select name="unit"><option value="kg">kg</option><option value="lb">lb</option></select></label>
            <label>Default rest (s) <input name="restSeconds" type="number" inputmode="numeric" min="10" max="3600" step="1" required></label>
            <label>Bar <input name="bar" type="number" inputmode="decimal" min="0" max="100" step="0.25" required></label>
            <label>Plates <input name="plates" inputmode="decimal" maxlength="200" required pattern="\\s*[0-9]+(\\.[0-9]+)?(\\s*,\\s*[0-9]+(\\.[0-9]+)?)*\\s*" title="Plate sizes separated by commas, e.g. 25, 20, 10, 5, 2.5"></label>
            <button type="submit">Save settings</button></form><p id="settings-as-of" class="caption"></p></main>
            <main id="workout-screen">
            <p id="signed-out" role="alert" hidden>This browser's session ended: \(again); what you logged waits here and is sent then.</p>
            <div id="refused"></div>
            <section id="finished" class="card" hidden><h2>Finished</h2><p id="finished-line"></p><ul id="finished-records"></ul></section>
            <button type="button" id="start" hidden>Start a workout</button>
            <section id="rest" class="card" aria-label="Rest" hidden><p>Rest <strong id="rest-clock" role="timer" aria-live="off"></strong></p>
            <p class="row"><button type="button" id="rest-less" class="secondary">−15 s</button><button type="button" id="rest-more" class="secondary">+15 s</button><button type="button" id="rest-pause" class="secondary">Pause</button><button type="button" id="rest-dismiss" class="secondary">Dismiss</button></p></section>
            <div id="exercises"></div>
            <form id="log" hidden>
            <label class="wide">Exercise <input name="exercise" required maxlength="200" autocomplete="off"></label>
            <label>Weight (<span data-unit>kg</span>) <input name="weight" type="number" inputmode="decimal" min="0" max="1000" step="0.25"></label>
            <label>Reps <input name="reps" type="number" inputmode="numeric" min="0" max="1000" required></label>
            <button type="submit">Log set</button>
            </form>
            <form id="finish-form" hidden><label>How it felt <select name="feeling"><option value="">—</option><option value="1">1 (awful)</option><option value="2">2</option><option value="3">3</option><option value="4">4</option><option value="5">5 (great)</option></select></label>
            <label class="wide">Note <textarea name="note" maxlength="1000" rows="2"></textarea></label>
            <button type="submit" id="finish">Finish the workout</button></form>
            </main></body></html>
            """
    }
}

/// The app's files, embedded from `Assets/` (`AppAssetsText.swift`).
enum AppAssets {}
