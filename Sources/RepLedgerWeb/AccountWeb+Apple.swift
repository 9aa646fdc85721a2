import Crypto
import Foundation
import Hummingbird
import RepLedgerCore
import RepLedgerService

/// Sign in with Apple on the account page, with no script and no state kept
/// by the server (any process may finish what another began): the browser is
/// sent to Apple with `state` and `nonce` derived from a secret held only in
/// its own `SameSite=Strict` cookie; Apple posts the identity token back (a
/// cross-site post, which carries no such cookie), so the answer is a page
/// whose one button posts it on from this site; that post carries the
/// cookie, and the token must match it (its state and its nonce) before it
/// signs anyone in. Another site cannot sign a browser into its account.
extension AccountWeb {
    static let appleCookie = "rl_account_apple"
    static let applePath = root + "/sign-in/apple"

    /// `state` sent to Apple for the browser's secret (so the secret itself never leaves the cookie and the nonce).
    static func appleState(_ secret: String) -> String { hex(SHA256.hash(data: Array(("state:" + secret).utf8))) }
    static func hex(_ digest: SHA256.Digest) -> String { digest.map { String(format: "%02x", $0) }.joined() }

    func addAppleRoutes<Context: CoachWebContext>(to group: RouterGroup<Context>) {
        group.get("sign-in/apple") { _, context in
            let settings = api.signIn.settings
            guard let apple = settings.apple else { return signInPage(error: "This server does not offer Sign in with Apple.", status: 404) }
            guard let redirectURI = redirectURI(context) else {
                return signInPage(
                    error: "This server does not know its public address (ledger serve --public-url), so Sign in with Apple cannot return here.",
                    status: 501)
            }
            let secret = CoachWebSessions.random()
            var query = URLComponents()
            query.queryItems = [
                .init(name: "response_type", value: "code id_token"), .init(name: "response_mode", value: "form_post"),
                .init(name: "client_id", value: apple.clientId), .init(name: "redirect_uri", value: redirectURI),
                .init(name: "state", value: Self.appleState(secret)),
                .init(name: "nonce", value: Self.hex(SHA256.hash(data: Array(secret.utf8)))),
            ]
            var response = CoachWeb.redirect(settings.appleAuthorizeURL + "?" + (query.percentEncodedQuery ?? ""))
            response.headers.append(.init(name: .setCookie, value: coach.cookie(Self.appleCookie, secret, path: Self.applePath, maxAge: 600)))
            return response
        }
        // Apple's post: the token is shown to nobody, only carried on by the page's one button.
        group.post("sign-in/apple") { request, _ in
            let form = try await CoachWeb.form(request)
            guard let token = form["id_token"], let state = form["state"], !token.isEmpty else {
                return signInPage(error: "Apple did not sign you in (\(form["error"] ?? "no identity token")): try again.", status: 400)
            }
            return coach.html(AccountPages.appleContinue(token: token, state: state, user: form["user"] ?? ""))
        }
        group.post("sign-in/apple/finish") { request, context in
            let form = try await CoachWeb.form(request)
            guard let secret = CoachWeb.cookies(request)[Self.appleCookie], let state = form["state"],
                CoachWebSessions.same(state, Self.appleState(secret)), let token = form["id_token"]
            else { return signInPage(error: "This sign-in was not started in this browser: sign in again.", status: 403) }
            let address = context.callerAddress, desk = api.signIn, name = Self.appleName(form["user"] ?? "")
            return try await coach.blocking { [self] in
                let signedIn: SignInDesk.SignedIn
                do {
                    signedIn = try desk.signInWithApple(
                        identityToken: token, nonce: secret, device: Self.browserDevice, name: name, address: address,
                        tokenExpiresAt: Timestamp(millis: Timestamp.now().millis + Int64(Self.sessionSeconds) * 1000))
                } catch {
                    let e = APIError.from(error)
                    return signInPage(error: e.message, status: e.status)
                }
                var response = session(for: signedIn)
                response.headers.append(.init(name: .setCookie, value: coach.cookie(Self.appleCookie, "", path: Self.applePath, maxAge: 0)))
                return response
            }
        }
    }

    /// Where Apple posts back (Apple only posts to addresses registered for the app): under the server's
    /// configured public address (`--public-url`); else, on a server listening on loopback only, under
    /// the address its socket was reached at. Never from the request's `Host`, which the caller writes.
    func redirectURI<Context: CoachWebContext>(_ context: Context) -> String? {
        if let base = api.signIn.settings.publicURL { return base + Self.applePath }
        guard !coach.secureCookies, let local = context.serverAddress else { return nil }
        return "http://" + local + Self.applePath
    }

    /// The name Apple sends on a first sign-in only (`user`: `{"name":{"firstName","lastName"}}`).
    static func appleName(_ user: String) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(user.utf8)) as? [String: Any],
            let name = object["name"] as? [String: Any]
        else { return nil }
        let full = [name["firstName"], name["lastName"]].compactMap { $0 as? String }.joined(separator: " ").trimmingCharacters(in: .whitespaces)
        return full.isEmpty ? nil : full
    }
}
