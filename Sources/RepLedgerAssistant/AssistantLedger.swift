import Foundation
import RepLedgerCore
import RepLedgerQueries

/// The log an assistant reads and records on: a device's ledger file (`ledger mcp`) or an account's
/// log on a server (`/mcp`). Every call runs under the log's own serialization, so a tool's check of
/// the head and its append are one step as far as every other writer is concerned.
public protocol AssistantLedger: Sendable {
    /// Runs `body` with the ledger; its `device` stamps what the body appends.
    func withLedger<T>(_ body: (Ledger) throws -> T) throws -> T
    /// The fold kept warm at the head, if the host keeps one (the server does).
    var warm: WarmFold? { get }
    /// Called after a write appended (the server wakes live streams).
    func appended()
}

extension AssistantLedger {
    public var warm: WarmFold? { nil }
    public func appended() {}
}

/// A device's ledger file, one process: calls take turns on a lock, and queries at the head answer
/// from a fold kept warm between calls (advanced to the head each time, so the lifter's own writes
/// from the CLI meanwhile are in every answer).
public final class DeviceAssistantLedger: AssistantLedger, @unchecked Sendable {
    private let ledger: Ledger
    private let lock = NSLock()
    public let warm: WarmFold? = WarmFold()

    /// `ledger` records as the device `assistant` unless it was given another name.
    public init(_ ledger: Ledger) { self.ledger = ledger }

    public func withLedger<T>(_ body: (Ledger) throws -> T) throws -> T {
        try lock.withLock { try body(ledger) }
    }
}
