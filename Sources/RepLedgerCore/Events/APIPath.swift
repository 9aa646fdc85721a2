/// A path of the server's HTTP API that a client of this package calls,
/// declared once: the server's route is declared on `pattern`, and a client
/// builds its URL with `path(_:)`, so the two cannot drift apart.
public struct APIPath: Sendable, Equatable {
    /// The router's syntax, without a leading slash: literals and `:name` for one segment.
    public let pattern: String

    public init(_ pattern: String) { self.pattern = pattern }

    /// The URL path from the server's root, each `:name` segment replaced by
    /// the next of `values`, in order (`/v1/accounts/ID/events`).
    public func path(_ values: String...) -> String {
        var remaining = values[...]
        let segments = pattern.split(separator: "/").map { segment -> String in
            guard segment.hasPrefix(":") else { return String(segment) }
            precondition(!remaining.isEmpty, "\(pattern) needs a value for \(segment)")
            return remaining.removeFirst()
        }
        precondition(remaining.isEmpty, "\(pattern) takes \(values.count - remaining.count) values, not \(values.count)")
        return "/" + segments.joined(separator: "/")
    }
}

extension APIPath {
    /// An account's log: pulled by `GET`, pushed to by `POST`.
    public static let events = APIPath("v1/accounts/:account/events")
    /// The programs a coach assigned to an account.
    public static let assignments = APIPath("v1/accounts/:account/assignments")
    /// Sign in by a code sent by email: ask for one.
    public static let emailSignInStart = APIPath("v1/auth/email/start")
    /// Sign in by a code sent by email: give it back, for a device token.
    public static let emailSignInVerify = APIPath("v1/auth/email/verify")
    /// Sign in with Apple's identity token, for a device token.
    public static let appleSignIn = APIPath("v1/auth/apple")
    /// A coach's clients.
    public static let coachClients = APIPath("v1/coach/clients")
    /// A coach's invites: listed by `GET`, made by `POST`.
    public static let coachInvites = APIPath("v1/coach/invites")
    /// An invite accepted by the account it was given to.
    public static let coachInviteAccept = APIPath("v1/coach/invites/accept")
    /// One invite, withdrawn by `DELETE`.
    public static let coachInvite = APIPath("v1/coach/invites/:invite")

    /// Every path above: the server's tests hold each to a declared route.
    public static let all: [APIPath] = [
        events, assignments, emailSignInStart, emailSignInVerify, appleSignIn, coachClients, coachInvites, coachInviteAccept,
        coachInvite,
    ]
}
