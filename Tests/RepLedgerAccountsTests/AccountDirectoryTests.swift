import Foundation
import RepLedgerAccounts
import RepLedgerCore
import Testing

/// A server's accounts on their SQLite storage, in a temporary directory:
/// names sealed under each account's key, tokens kept only as hashes,
/// revocation and erasure final.
@Suite struct AccountDirectoryTests {
    final class Storage {
        let folder: URL
        let storage: SQLiteServerStorage
        let directory: AccountDirectory

        init() throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("repledger-accounts-\(UUID().uuidString)")
            let keys = try AccountKeyStore(directory: folder.appendingPathComponent("keys").path, create: true)
            storage = try SQLiteServerStorage(directory: folder.path, keys: keys)
            directory = AccountDirectory(table: storage.accountTable, keys: keys)
        }

        deinit { try? FileManager.default.removeItem(at: folder) }

        /// Every byte the storage wrote to disk, the account table and the keys included.
        func bytesOnDisk() throws -> Data {
            var all = Data()
            let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
            while let url = files?.nextObject() as? URL {
                if let data = try? Data(contentsOf: url) { all.append(data) }
            }
            return all
        }
    }

    @Test func anAccountsNameIsSealedAndReadBackUnderItsKey() throws {
        let s = try Storage()
        let made = try s.directory.createAccount(name: "Alice Example", coach: false)
        #expect(UUID(uuidString: made.accountId)?.uuidString.lowercased() == made.accountId)
        let stored = try #require(try s.directory.account(made.accountId))
        #expect(stored.name != "Alice Example")
        #expect(s.directory.name(of: stored) == "Alice Example")
        #expect(try s.bytesOnDisk().range(of: Data("Alice Example".utf8)) == nil)
    }

    @Test func aTokenIsKeptOnlyAsItsHashAndEndsWhenRevoked() throws {
        let s = try Storage()
        let account = try s.directory.createAccount(name: "Bob", coach: true)
        let token = try s.directory.createToken(account: account.accountId, device: "watch")
        #expect(token.hasPrefix("rl_") && token.count > 40)
        #expect(try s.bytesOnDisk().range(of: Data(token.utf8)) == nil)
        let caller = try #require(try s.directory.caller(token: token))
        #expect(caller.account.accountId == account.accountId && caller.account.isCoach && caller.device == "watch")
        #expect(try s.directory.caller(token: token + "x") == nil)
        try s.directory.revokeToken(token)
        #expect(try s.directory.caller(token: token) == nil)
    }

    @Test func anErasedAccountsKeyIsGoneAndItsTokensWithIt() throws {
        let s = try Storage()
        let account = try s.directory.createAccount(name: "Carol", coach: false)
        let token = try s.directory.createToken(account: account.accountId, device: "phone")
        let store = try s.storage.store(for: account.accountId)
        _ = try store.append([
            ProposedEvent(eventId: UUID(), event: .workoutStarted(WorkoutStarted()), occurredAt: .now(), device: "phone")
        ])
        #expect(try s.storage.hasLog(account.accountId))
        _ = try s.storage.erase(account.accountId)
        #expect(throws: AccountKeyStore.Failure.self) { try s.storage.keys.cipher(for: account.accountId) }
        #expect(try s.directory.caller(token: token) == nil)
        #expect(try !s.storage.hasLog(account.accountId))
    }

    @Test func aKeysScopeNameAndEndAreKeptAndItsNameSealed() throws {
        let s = try Storage()
        let account = try s.directory.createAccount(name: "Dana", coach: false)
        let made = Timestamp(millis: 1_800_000_000_000), end = Timestamp(millis: made.millis + 3_600_000)
        let key = try s.directory.createToken(
            account: account.accountId, device: "assistant", scope: .log, name: "Chat assistant", expiresAt: end, now: made)
        let caller = try #require(try s.directory.caller(token: key, now: made))
        #expect(caller.scope == .log && caller.device == "assistant" && caller.tokenId.count == 16)
        #expect(try s.directory.caller(token: key, now: Timestamp(millis: end.millis - 1)) != nil)
        #expect(try s.directory.caller(token: key, now: end) == nil)
        #expect(try s.bytesOnDisk().range(of: Data("Chat assistant".utf8)) == nil)
        let listed = try s.directory.tokens(of: account.accountId)
        #expect(listed.map(\.name) == ["Chat assistant"] && listed.map(\.scope) == [.log] && listed.first?.expiresAt == end)
        #expect(listed.first?.id == caller.tokenId)
        #expect(throws: AccountDirectory.Failure.invalidExpiry) {
            try s.directory.createToken(account: account.accountId, device: "x", expiresAt: made, now: made)
        }
        try s.directory.revokeToken(id: caller.tokenId)
        #expect(try s.directory.caller(token: key, now: made) == nil)
        #expect(try s.directory.tokens(of: account.accountId).first?.revokedAt != nil)
    }

    @Test func aLogScopeAppendsTrainingOnly() {
        #expect(TokenScope.log.mayAppend(to: .workout(UUID())) && TokenScope.log.mayAppend(to: .body))
        for stream in [StreamName.account, .library, .templates, .programs, .coaching, .assignments, .template(UUID())] {
            #expect(!TokenScope.log.mayAppend(to: stream), "\(stream)")
            #expect(TokenScope.full.mayAppend(to: stream))
        }
        #expect(!TokenScope.read.mayAppend(to: .workout(UUID())))
    }
}
