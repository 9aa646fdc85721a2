import Crypto
import Foundation
import LedgerTestSupport
import RepLedgerSnapshots
import Testing

@testable import RepLedgerCore
@testable import RepLedgerSQLite

/// Encryption at rest, as the server keeps an account: AES-256-GCM under the
/// account's key, the chain over the plaintext.
@Suite struct SealedStoreTests {
    static let marker = "marker-\(UUID().uuidString)"

    @Test func aSealedValueIsStandardAESGCMBoundToItsContext() throws {
        let key = PayloadCipher.newKey()
        let cipher = try PayloadCipher(key: key)
        let plaintext = Array("a set of 5 at 100 kg, \(Self.marker)".utf8)
        let context = UUID().bytes16
        let sealed = try cipher.seal(plaintext, context: context)
        #expect(sealed.count == plaintext.count + PayloadCipher.overhead)
        #expect(sealed[0] == PayloadCipher.aesGCM)
        #expect(try cipher.open(sealed, context: context) == plaintext)
        // Anyone with the key and the format opens it with the public API: no private construction.
        let box = try AES.GCM.SealedBox(combined: sealed[1...])
        #expect(Array(try AES.GCM.open(box, using: SymmetricKey(data: key), authenticating: context)) == plaintext)
        // A fresh nonce every time: the same plaintext never seals alike.
        #expect(try cipher.seal(plaintext, context: context) != sealed)
        // Another key, another context, one flipped bit, a truncation: none opens.
        #expect(throws: PayloadCipher.Failure.self) { try PayloadCipher(key: PayloadCipher.newKey()).open(sealed, context: context) }
        #expect(throws: PayloadCipher.Failure.self) { try cipher.open(sealed, context: UUID().bytes16) }
        for i in [0, 5, sealed.count - 1] {
            var altered = sealed
            altered[i] ^= 1
            #expect(throws: PayloadCipher.Failure.self) { try cipher.open(altered, context: context) }
        }
        #expect(throws: PayloadCipher.Failure.self) { try cipher.open(Array(sealed.prefix(PayloadCipher.overhead - 1)), context: context) }
        #expect(throws: PayloadCipher.Failure.self) { try PayloadCipher(key: Array(key.prefix(16))) }
    }

    @Test func aSealedFileHoldsNoPayloadInClearWALAndSnapshotsIncluded() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sealed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("account.sqlite").path
        let key = PayloadCipher.newKey()
        let store = try SQLiteEventStore(path: path, cipher: try PayloadCipher(key: key))
        let plain = try SQLiteEventStore(path: folder.appendingPathComponent("device.sqlite").path)

        var started = WorkoutStarted()
        started.workoutId = UUID()
        started.name = "Leg day \(Self.marker)"
        var logged = SetLogged()
        logged.workoutId = started.workoutId
        logged.setId = UUID()
        logged.exerciseId = "back-squat"
        logged.metrics = SetMetrics(weight: Weight(140, .kg), reps: 5)
        logged.notes = "felt easy \(Self.marker)"
        let events = [
            ProposedEvent(eventId: UUID(), event: .workoutStarted(started), occurredAt: .now(), device: "phone"),
            ProposedEvent(eventId: UUID(), event: .setLogged(logged), occurredAt: .now(), device: "phone"),
        ]
        let now = Timestamp.now()
        try store.append(events, expecting: [:], now: now)
        try plain.append(events, expecting: [:], now: now)
        let snapshot = SnapshotKey(projection: "test", projectionVersion: 1, ruleSetId: "default", ruleSetVersion: 1)
        try SnapshotStore(store).save(snapshot, position: 2, state: Array("folded \(Self.marker)".utf8))

        // What a caller sees is unchanged: the same events, the same chain as a plain file.
        #expect(try store.read(stream: .workout(started.workoutId)).map(\.event) == events.map(\.event))
        #expect(try store.head().hash == (try plain.head().hash))
        #expect(try store.verify().ok)
        var ignored: [String] = []
        #expect(try SnapshotStore(store).newest(snapshot, atOrBefore: 2, ignored: &ignored)?.state == Array("folded \(Self.marker)".utf8))
        #expect(try store.event(id: events[1].eventId)?.event == events[1].event)

        // The device's plain file shows that the search would find it; the sealed one holds it nowhere.
        let holding = FileScan.filesHolding(Self.marker, under: [folder.path]).map { URL(fileURLWithPath: $0).lastPathComponent }
        #expect(holding.contains { $0.hasPrefix("device.sqlite") })
        #expect(holding.filter { $0.hasPrefix("account.sqlite") } == [])

        // Under another key nothing reads, and verify says where; the snapshot is passed over, not trusted.
        let stranger = try SQLiteEventStore(path: path, cipher: try PayloadCipher(key: PayloadCipher.newKey()))
        #expect(throws: StoreError.self) { try stranger.replay { _ in } }
        let report = try stranger.verify()
        #expect(!report.ok && report.firstBadPosition == 1)
        ignored = []
        #expect(try SnapshotStore(stranger).newest(snapshot, atOrBefore: 2, ignored: &ignored) == nil)
        #expect(ignored.count == 1)
    }
}
