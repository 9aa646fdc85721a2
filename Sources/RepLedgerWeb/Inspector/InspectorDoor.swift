import Foundation
import Hummingbird
import RepLedgerService

/// What a request to the inspector may read: the ledger, its session's CSRF
/// token (the Rules form and the sign-out carry it), and where its pages sit.
package struct InspectorSeat: Sendable {
    package var ledger: InspectedLedger
    package var csrf: String
    package var frame: InspectorPages.Frame

    package init(ledger: InspectedLedger, csrf: String, frame: InspectorPages.Frame) {
        self.ledger = ledger
        self.csrf = csrf
        self.frame = frame
    }
}

/// How the inspector's pages find the ledger a request may read: `ledger
/// inspect` has one ledger and a one-time code (`InspectorCodeDoor`); `ledger
/// serve` has accounts, their tokens and coaches' grants (`InspectorAccountDoor`).
package protocol InspectorDoor: Sendable {
    /// The seat of a request with these cookies: `client`'s log (a coach's `clients/ID` pages), else
    /// the signed-in reader's own. Throws 401 without a live session, 403 for a log not theirs to read.
    /// Runs off the event loop: it may read the account table and the client's log.
    func seat(cookies: [String: String], client: String?) throws -> InspectorSeat
    /// Where a browser without a session is sent; nil when a page says how to get in instead.
    var signIn: String? { get }
    /// Whose bounds a request with these cookies counts against (its account and its token's id),
    /// found without touching storage; nil when the door has no accounts (`ledger inspect`) or no session.
    func reader(cookies: [String: String]) -> PageReader?
}

extension InspectorDoor {
    package func reader(cookies: [String: String]) -> PageReader? { nil }
}

/// The account a page is read for and the key (token id) it signed in with: what the server's
/// per-account bounds count (`PageBound`).
package struct PageReader: Sendable {
    package var account: String
    package var key: String

    package init(account: String, key: String) {
        self.account = account
        self.key = key
    }
}

/// Runs a page's work within its reader's bounds, as the API runs a request within its caller's:
/// the account's requests a minute, its requests in progress and its share of the workers. Throws
/// the refusal (429) without running the work.
package typealias PageBound = @Sendable (PageReader, () async throws -> Response) async throws -> Response
