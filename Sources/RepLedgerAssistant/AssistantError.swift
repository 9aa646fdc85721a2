import RepLedgerCore

/// Why a tool, resource or prompt call was refused before or instead of the ledger's own refusals
/// (`Refusal`, `QueryError`, `StoreError`, which pass through as they are).
public enum AssistantError: Error, Equatable, Sendable {
    case unknownTool(String)
    case unknownResource(String)
    case unknownPrompt(String)
    /// An argument missing, of the wrong type or out of range: its name and what it takes.
    case invalidArgument(String, String)
    /// The log moved since the head the assistant read: nothing was appended.
    case staleHead(expected: Int64, head: Int64, since: [LoggedSince])
    /// A write on a read-only server (`ledger mcp --read-only`).
    case readOnly(String)
    /// A write with a key whose scope (named) does not take it.
    case scope(String)
    /// The host is stopping: the call was not run.
    case unavailable
    /// A `requestId` sent again with another command or other arguments than the first time: nothing was appended.
    case requestIdReused(String)

    /// An event appended after the head the assistant read.
    public struct LoggedSince: Equatable, Sendable {
        public var position: Int64
        public var type: String
        public var stream: String
        public var device: String
        public var occurredAt: Timestamp
    }
}
