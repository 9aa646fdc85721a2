import Foundation
import RepLedgerCore
import RepLedgerService

/// The account page's HTML (`/account`), in the coach dashboard's style and
/// stylesheet: sign in by an email code, the account's name, its devices, a
/// coach's invite to accept, the export, and erasure behind a typed confirmation.
package enum AccountPages {
    static func e(_ s: String) -> String { CoachPages.e(s) }
    static func hidden(_ csrf: String) -> String { CoachPages.hidden(csrf) }

    static func page(_ title: String, _ body: String, signedIn csrf: String? = nil) -> String {
        CoachPages.page(title, body, signedIn: csrf, site: .account)
    }

    package static func message(_ title: String, _ text: String, csrf: String?) -> String {
        page(
            title,
            "<section class=\"card\"><h1>\(e(title))</h1><p class=\"error\" role=\"alert\">\(e(text))</p><p><a href=\"/account\">Back to your account</a></p></section>",
            signedIn: csrf)
    }

    /// The words that confirm an erasure, typed by the person.
    package static let erasePhrase = "erase my account"

    static func signIn(csrf: String, error: String? = nil, apple: Bool, email: Bool) -> String {
        var body =
            "<section class=\"card narrow\"><h1>Your account</h1><p class=\"caption\">Sign in, or make an account: the first sign-in makes it.</p>"
        if let error { body += "<p class=\"error\" role=\"alert\">\(e(error))</p>" }
        if email {
            body += """
                <form method="post" action="/account/sign-in/email">\(hidden(csrf))
                <label for="email">Email</label><input id="email" name="email" type="email" autocomplete="email" required>
                <button type="submit" id="send-code">Email me a code</button></form>
                """
        }
        if apple { body += "<p><a class=\"button\" id=\"apple\" href=\"/account/sign-in/apple\">Sign in with Apple</a></p>" }
        if !apple && !email {
            body += "<p class=\"error\" role=\"alert\">This server offers no sign-in of its own: ask its operator for a token.</p>"
        }
        return page("Sign in", body + "</section>")
    }

    static func code(csrf: String, email: String, error: String? = nil) -> String {
        var body =
            "<section class=\"card narrow\"><h1>Check your email</h1><p class=\"caption\">If \(e(email)) can receive mail, a six-digit code is on its way. It works once, for 10 minutes.</p>"
        if let error { body += "<p class=\"error\" role=\"alert\">\(e(error))</p>" }
        body += """
            <form method="post" action="/account/sign-in/code">\(hidden(csrf))<input type="hidden" name="email" value="\(e(email))">
            <label for="code">Code</label><input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" required>
            <button type="submit" id="verify">Sign in</button></form>
            <p><a href="/account/sign-in">Use another address</a></p></section>
            """
        return page("Your code", body)
    }

    /// What the signed-in person sees; `newDevice` is a token just made, shown this once.
    static func account(
        name: String, accountId: String, devices: [LedgerAPI.Device], csrf: String, isCoach: Bool,
        newDevice: (name: String, token: String)? = nil, notice: String? = nil
    ) -> String {
        var body = "<h1>\(e(name))</h1><p class=\"caption\">Account <code id=\"account-id\">\(e(accountId))</code></p>"
        if let notice { body += "<p class=\"notice\" role=\"status\" id=\"notice\">\(e(notice))</p>" }
        if let newDevice {
            body += """
                <section class="card" id="new-device"><h2>\(e(newDevice.name)) is added</h2>
                <p>Its token, shown only now: enter it on the device (or keep it in the file <code>ledger sync --token-file</code> reads).</p>
                <p><code id="new-token">\(e(newDevice.token))</code></p></section>
                """
        }
        var rows = ""
        for d in devices {
            rows += """
                <tr data-device="\(e(d.id))"><td>\(e(d.device))\(d.current ? " <span class=\"tag\">this browser</span>" : "")</td><td>\(e(d.createdAt.isoDate))</td>
                <td>\(d.expiresAt.map { "until " + e($0.isoDate) } ?? "until revoked")</td>
                <td><form method="post" action="/account/devices/revoke">\(hidden(csrf))<input type="hidden" name="id" value="\(e(d.id))">
                <button type="submit" class="link" id="revoke-\(e(d.id))">Revoke</button></form></td></tr>
                """
        }
        body += """
            <section class="card" id="devices"><h2>Devices</h2><table><thead><tr><th>Device</th><th>Added</th><th>Valid</th><th></th></tr></thead>
            <tbody>\(rows)</tbody></table>
            <form method="post" action="/account/devices">\(hidden(csrf))
            <label for="device">Add a device</label><input id="device" name="device" placeholder="Lina's iPhone" maxlength="100" required>
            <button type="submit" id="add-device">Add</button></form></section>
            <section class="card" id="name"><h2>Name</h2><form method="post" action="/account/name">\(hidden(csrf))
            <label for="new-name">Your name</label><input id="new-name" name="name" value="\(e(name))" maxlength="200" required>
            <button type="submit" id="rename">Save</button></form></section>
            <section class="card" id="coach"><h2>A coach's invite</h2><p class="caption">Your coach gave you a code: accepting it lets them read your log until you revoke the grant.</p>
            <form method="post" action="/account/invites">\(hidden(csrf))
            <label for="invite">Invite code</label><input id="invite" name="code" placeholder="XXXX-XXXX-XXXX" required>
            <button type="submit" id="accept">Accept</button></form></section>
            <section class="card" id="open"><h2>Your log and your clients</h2>
            <form method="post" action="/account/open/app">\(hidden(csrf))
            <button type="submit" id="open-app">Open the app</button> <span class="caption">log a workout, offline too</span></form>
            <form method="post" action="/account/open/inspect">\(hidden(csrf))
            <button type="submit" id="open-inspector">Inspect your log</button> <span class="caption">every event, every number and why it is what it is</span></form>
            \(isCoach
                ? "<form method=\"post\" action=\"/account/open/coach\">\(hidden(csrf))<button type=\"submit\" id=\"open-coach\">Open the coach’s dashboard</button></form>"
                : "<p class=\"caption\" id=\"coach-how\">The coach’s dashboard needs Coach: \(e(LedgerAPI.howToGetCoach(accountId))).</p>")
            </section>
            <section class="card" id="export"><h2>Export</h2><p>Your whole log, every event as recorded: <a id="export-link" href="/account/export">download it (JSON lines)</a>; <code>ledger import</code> reads it back.</p></section>
            <section class="card" id="erase"><h2>Erase the account</h2>
            <p>Its key is destroyed, then its log, snapshots and devices are deleted: nothing can bring the events back, and every device of it is signed out.</p>
            <form method="post" action="/account/erase">\(hidden(csrf))
            <label for="confirm">Type <strong>\(erasePhrase)</strong> to confirm</label><input id="confirm" name="confirm" autocomplete="off" required>
            <button type="submit" class="danger" id="erase-account">Erase</button></form></section>
            """
        return page(name, body, signedIn: csrf)
    }

    /// After Apple's post: one button that posts the identity token on from this site (with its cookie).
    static func appleContinue(token: String, state: String, user: String) -> String {
        page(
            "Continue",
            """
            <section class="card narrow"><h1>Apple signed you in</h1><p class="caption">One more step, on this site.</p>
            <form method="post" action="/account/sign-in/apple/finish"><input type="hidden" name="id_token" value="\(e(token))">
            <input type="hidden" name="state" value="\(e(state))"><input type="hidden" name="user" value="\(e(user))">
            <button type="submit" id="continue">Continue to your account</button></form></section>
            """)
    }

    static func erased(_ report: String) -> String {
        page(
            "Erased",
            "<section class=\"card\"><h1>Your account is erased</h1><p id=\"erased\">\(e(report))</p><p><a href=\"/account/sign-in\">Make a new account</a></p></section>"
        )
    }
}
