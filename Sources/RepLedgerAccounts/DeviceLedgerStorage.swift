import Foundation
import RepLedgerCore
import RepLedgerSQLite

/// `ledger app`'s storage: one account whose log is a device's own ledger file, opened as the CLI opens it (in
/// clear: the file is the device's, and `ledger sync` sends what is appended here as it sends the CLI's), beside
/// an accounts table and keys in a folder of their own. The file is never sealed, erased or discarded from here.
public final class DeviceLedgerStorage: ServerStorage {
    let accounts: SQLiteServerStorage
    /// The one account; its log is `ledger`.
    public let accountId: String
    let ledger: String

    public init(accounts: SQLiteServerStorage, accountId: String, ledger: String) {
        self.accounts = accounts
        self.accountId = accountId
        self.ledger = ledger
    }

    public var accountTable: any AccountTable { accounts.accountTable }
    public var keys: AccountKeyStore { accounts.keys }
    /// One writer: the device's file.
    public var workerThreads: Int { 1 }

    public func store(for accountId: String) throws -> any EventStore {
        guard accountId == self.accountId else { throw ServerStorageFailure.notAnAccountId }
        return try SQLiteEventStore(path: ledger, durability: .full, access: .create)
    }

    public func reader(for accountId: String) throws -> any EventStore {
        guard accountId == self.accountId else { throw ServerStorageFailure.notAnAccountId }
        return try SQLiteEventStore(path: ledger, durability: .full, access: .readOnly)
    }

    public func hasLog(_ accountId: String) throws -> Bool { accountId == self.accountId }

    /// The device's file is its owner's: erasing it is `rm`, not a request.
    public func erase(_ accountId: String) throws -> ErasedAccount { throw DeviceLedgerStorageRefusal.deviceFile }
    public func discardLog(_ accountId: String) throws { throw DeviceLedgerStorageRefusal.deviceFile }
    public func sealLegacyLog(_ accountId: String, with cipher: PayloadCipher) throws -> Int64 { 0 }
    public func watchAppends(_ appended: @escaping @Sendable (String) -> Void) throws {}
    public func shutdown() { accounts.shutdown() }
}

/// What `ledger app`'s storage refuses.
public enum DeviceLedgerStorageRefusal: Error, Equatable {
    /// Erasing or discarding the device's own ledger file.
    case deviceFile
}
