import Foundation
import LedgerTestSupport
import RepLedgerCore
import RepLedgerProjections
import RepLedgerSnapshots
import Testing

@testable import RepLedgerDemo

/// One suite, every store: snapshots kept beside the events (`SnapshotRows`)
/// and read through the one `SnapshotStore`, on SQLite and PostgreSQL, plain
/// and sealed.
@Suite("Snapshot conformance")
struct SnapshotConformanceTests {
    /// A store holding the demo history (the library first, then the workouts).
    static func demoStore(_ backend: StoreBackend) throws -> (store: any EventStore, cleanUp: () -> Void) {
        let (store, cleanUp) = try backend.makeStore()
        let library = Ledger(store: store)
        try store.append(Ledger.seedEvents(missingFrom: LibraryState()), expecting: [:], now: .at("2026-01-01T00:00:00Z"))
        try store.append(try DemoHistory.events(library: try library.library()), expecting: [:], now: .at("2026-11-02T07:30:00Z"))
        return (store, cleanUp)
    }

    static let key = SnapshotKey(projection: "conformance", projectionVersion: 1, ruleSetId: "none", ruleSetVersion: 0)

    @Test("a saved state is found at and after its position, listed newest first, and pruned per key", arguments: StoreBackend.available)
    func saveFindListPrune(_ backend: StoreBackend) throws {
        let (store, cleanUp) = try Self.demoStore(backend)
        defer { cleanUp() }
        let snapshots = try #require(SnapshotStore.of(store))
        let other = SnapshotKey(projection: "conformance-other", projectionVersion: 1, ruleSetId: "none", ruleSetVersion: 0)
        for p in [100, 200, 300] { try snapshots.save(Self.key, position: Int64(p), state: Array("state at \(p)".utf8)) }
        try snapshots.save(other, position: 250, state: [1, 2, 3])
        var ignored: [String] = []
        #expect(try snapshots.newest(Self.key, atOrBefore: 299, ignored: &ignored)?.state == Array("state at 200".utf8))
        #expect(try snapshots.newest(Self.key, atOrBefore: 300, ignored: &ignored)?.info.position == 300)
        #expect(try snapshots.newest(Self.key, atOrBefore: 99, ignored: &ignored) == nil)
        #expect(ignored.isEmpty)
        #expect(try snapshots.list().map(\.position) == [300, 250, 200, 100])
        #expect(try snapshots.newestPosition(Self.key) == 300)
        #expect(try snapshots.prune(keep: 1) == 2, "one of each key stays")
        #expect(try snapshots.list().map(\.key) == [Self.key, other])
        #expect(try store.snapshotRows?.snapshotCount() == 2)
    }

    @Test(
        "a snapshot of another fold version or rule set, or with a damaged state, is passed over with the reason", arguments: StoreBackend.available)
    func untrustedSnapshotsArePassedOver(_ backend: StoreBackend) throws {
        let (store, cleanUp) = try Self.demoStore(backend)
        defer { cleanUp() }
        let snapshots = try #require(SnapshotStore.of(store))
        let rows = try #require(store.snapshotRows)
        try snapshots.save(Self.key, position: 100, state: Array("good".utf8))
        var older = Self.key
        older.projectionVersion = 0
        try snapshots.save(older, position: 150, state: Array("old fold".utf8))
        var otherRules = Self.key
        otherRules.ruleSetId = "strict"
        try snapshots.save(otherRules, position: 160, state: Array("other rules".utf8))
        // A row whose stored state changed after it was saved (one byte).
        let damaged = try snapshots.save(Self.key, position: 170, state: Array("damaged".utf8))
        var stored = try #require(try rows.snapshotRow(id: damaged.id))
        try rows.deleteSnapshots(ids: [damaged.id])
        stored.state[stored.state.count - 1] ^= 0x01
        _ = try rows.insertSnapshot(damaged, stored)

        var ignored: [String] = []
        #expect(try snapshots.newest(Self.key, atOrBefore: 200, ignored: &ignored)?.state == Array("good".utf8))
        #expect(ignored.count == 3, "\(ignored)")
        // Sealed, the change is caught when the state is opened; in clear, by the checksum.
        #expect(ignored.contains { $0.hasPrefix("snapshot") && $0.contains("at #170") })
        if store.cipher == nil { #expect(ignored.contains { $0.contains("checksum mismatch") }) }
        #expect(ignored.contains { $0.contains("version 0") })
        #expect(ignored.contains { $0.contains("rules strict") })
    }

    @Test("on a sealed store the state is stored sealed, and a store under another key cannot use it", arguments: StoreBackend.available)
    func sealedStates(_ backend: StoreBackend) throws {
        let (open, cleanUp) = try backend.makeSharedLog()
        defer { cleanUp() }
        let store = try open()
        try store.append([proposed(started(UUID()))], expecting: [:], now: .at("2026-11-02T07:30:00Z"))
        let state = Array("the fold's bytes".utf8)
        let info = try #require(SnapshotStore.of(store)).save(Self.key, position: 1, state: state)
        let row = try #require(try store.snapshotRows?.snapshotRow(id: info.id))
        #expect((row.state == state) == (store.cipher == nil), "sealed exactly when the store seals payloads")
        var ignored: [String] = []
        #expect(
            try SnapshotStore.of(try open())?.newest(Self.key, atOrBefore: 1, ignored: &ignored)?.state == state,
            "another handle on the same log and key reads it")
        #expect(ignored.isEmpty)
    }

    @Test("the training-log fold loads from a snapshot plus its tail and equals the fold from the start", arguments: StoreBackend.available)
    func foldFromSnapshotPlusTail(_ backend: StoreBackend) throws {
        let (store, cleanUp) = try Self.demoStore(backend)
        defer { cleanUp() }
        let head = try store.headPosition()
        let at = head - 137
        let taken = try TrainingLogSnapshots.create(store, at: at)
        #expect(taken.position == at)
        let (log, report) = try TrainingLogSnapshots.load(store)
        #expect(report.snapshot?.position == at)
        #expect(report.tailEvents == 137)
        #expect(log.snapshotBytes == (try TrainingLogProjection.build(from: store)).snapshotBytes)
        // The policy takes one when due, from a fold already in memory when given one.
        #expect(try SnapshotPolicy.apply(store, every: 200) == nil, "137 events since the last: not due")
        #expect(try SnapshotPolicy.apply(store, every: 100, folded: { log })?.position == head)
        #expect(try TrainingLogSnapshots.load(store).1.tailEvents == 0)
    }

    @Test(
        "the chain under a snapshot is checked: an event that no longer carries the hash the snapshot was taken on refuses it",
        arguments: StoreBackend.available)
    func theChainUnderASnapshotIsChecked(_ backend: StoreBackend) throws {
        let (store, cleanUp) = try Self.demoStore(backend)
        defer { cleanUp() }
        let snapshots = try #require(SnapshotStore.of(store))
        let rows = try #require(store.snapshotRows)
        let info = try snapshots.save(Self.key, position: 50, state: [7])
        var row = try #require(try rows.snapshotRow(id: info.id))
        try rows.deleteSnapshots(ids: [info.id])
        row.positionHash = Array(repeating: 0xAB, count: 32)
        _ = try rows.insertSnapshot(info, row)
        var ignored: [String] = []
        #expect(throws: StoreError.self) { try snapshots.newest(Self.key, atOrBefore: 50, ignored: &ignored) }
        #expect(try store.hash(at: 50) == (try store.storedEvents(from: 50, through: 50).hash))
    }
}

extension EventStore {
    /// The one stored row at `position`.
    func storedEvents(from: Int64, through: Int64) throws -> StoredEvent {
        var found: StoredEvent?
        try storedEvents(from: from, through: through) { found = $0 }
        return try #require(found)
    }
}
