import Foundation
import RepLedgerCore

/// `sync status`: what a device has pending and what the server refused.
/// The device's sync tables are read at the edge (they belong to its SQLite
/// file); the answer and its document are built here.
public enum SyncStatusQuery {
    public struct Refused: Sendable, Equatable {
        public var eventId: UUID
        public var code: String
        public var message: String
        public var rejectedAt: Timestamp
        /// The refused event as canonical JSON.
        public var line: String
        public init(eventId: UUID, code: String, message: String, rejectedAt: Timestamp, line: String) {
            (self.eventId, self.code, self.message, self.rejectedAt, self.line) = (eventId, code, message, rejectedAt, line)
        }
    }

    public struct Answer: Sendable, Equatable {
        /// The server and account, nil until the first sync.
        public var remote: String?
        public var account: String?
        public var lastSyncAt: Timestamp?
        /// The position through which the server has confirmed this device's log.
        public var confirmed: Int64
        public var pending: Int
        public var refused: [Refused]
        public var head: Int64
        public var headHash: String
        public init(
            remote: String?, account: String?, lastSyncAt: Timestamp?, confirmed: Int64, pending: Int, refused: [Refused], head: Int64,
            headHash: String
        ) {
            (self.remote, self.account, self.lastSyncAt, self.confirmed) = (remote, account, lastSyncAt, confirmed)
            (self.pending, self.refused, self.head, self.headHash) = (pending, refused, head, headHash)
        }
    }

    /// `{"remote","account","pending","rejected":[{"eventId","code","message","rejectedAt","event"}],"lastSyncAt","confirmed","head":{"position","hash"}}`.
    public static func document(_ a: Answer) -> JSONValue {
        .object([
            ("remote", .optional(a.remote)), ("account", .optional(a.account)), ("pending", .int(Int64(a.pending))),
            (
                "rejected",
                .array(
                    a.refused.map { r in
                        .object([
                            ("eventId", .string(r.eventId.lowercased)), ("code", .string(r.code)), ("message", .string(r.message)),
                            ("rejectedAt", .string(r.rejectedAt.iso8601)), ("event", .raw(r.line)),
                        ])
                    })
            ),
            ("lastSyncAt", .optional(a.lastSyncAt?.iso8601)), ("confirmed", .int(a.confirmed)),
            ("head", .object([("position", .int(a.head)), ("hash", .string(a.headHash))])),
        ])
    }
}
