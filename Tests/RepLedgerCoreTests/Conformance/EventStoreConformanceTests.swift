import Foundation
import LedgerTestSupport
import RepLedgerCore
import RepLedgerPostgres
import Testing

/// One suite, every store: what the core relies on from an `EventStore`.
@Suite("EventStore conformance")
struct EventStoreConformanceTests {
    static let t0 = Timestamp.at("2026-11-02T07:30:00+01:00")

    @Test("append assigns gapless positions and stream versions, and reads back what was appended", arguments: StoreBackend.available)
    func appendAndReadBack(_ backend: StoreBackend) throws {
        let (store, cleanUp) = try backend.makeStore()
        defer { cleanUp() }
        let w = UUID()
        let events = [proposed(started(w)), proposed(finished(w), at: "2026-11-02T08:31:15.250+01:00", device: "watch")]
        #expect(try store.append(events, expecting: [.workout(w): .exactly(0)], now: Self.t0).appended == [1, 2])
        #expect(try store.append([proposed(started(UUID()))], expecting: [:], now: Self.t0).appended == [3])
        let read = try store.read(stream: .workout(w))
        #expect(read.map(\.position) == [1, 2])
        #expect(read.map(\.version) == [1, 2])
        #expect(read.map(\.event) == events.map(\.event))
        #expect(read[1].occurredAt.offsetMinutes == 60)
        #expect(read[1].device == "watch")
        #expect(try store.head().position == 3)
        #expect(try store.version(of: .workout(w)) == 2)
        #expect(try store.count() == 3)
        #expect(try store.event(id: events[1].eventId)?.position == 2)
        #expect(try store.event(at: 3)?.version == 1)
        #expect(try store.verify().ok)
    }

    @Test("a batch is atomic: a conflicting event anywhere in it appends none of it", arguments: StoreBackend.available)
    func atomicity(_ backend: StoreBackend) throws {
        let (store, cleanUp) = try backend.makeStore()
        defer { cleanUp() }
        let taken = proposed(started(UUID()))
        try store.append([taken], expecting: [:], now: Self.t0)
        var changed = taken
        changed.device = "other"
        #expect(throws: StoreError.self) {
            try store.append([proposed(started(UUID())), changed, proposed(started(UUID()))], expecting: [:], now: Self.t0)
        }
        #expect(try store.head().position == 1)
        #expect(try store.count() == 1)
        // And the next append continues at 2: nothing was consumed.
        #expect(try store.append([proposed(started(UUID()))], expecting: [:], now: Self.t0).appended == [2])
    }

    @Test("an event id stored with the same content is skipped; with other content it is a conflict", arguments: StoreBackend.available)
    func idempotencyById(_ backend: StoreBackend) throws {
        let (store, cleanUp) = try backend.makeStore()
        defer { cleanUp() }
        let e = proposed(started(UUID()))
        try store.append([e], expecting: [:], now: Self.t0)
        let again = try store.append([e, e], expecting: [:], now: Self.t0)
        #expect(again.appended.isEmpty && again.alreadyStored == 2)
        var other = e
        other.event = started(UUID(), name: "Lower B")
        do {
            try store.append([other], expecting: [:], now: Self.t0)
            Issue.record("a changed event under a stored id was accepted")
        } catch StoreError.eventIdConflict(let id, let position) {
            #expect(id == e.eventId && position == 1)
        }
        let probe = try store.writeTransaction { try store.probe(ids: [e.eventId, UUID()], streams: [e.stream]) }
        #expect(probe.storedDevices == [e.eventId: "phone"])
    }

    @Test(
        "a probe reads the head, the streams' versions and the batch's stored events; an append planned on it writes what a plain append writes",
        arguments: StoreBackend.available)
    func probedAppend(_ backend: StoreBackend) throws {
        let (plain, cleanPlain) = try backend.makeStore()
        defer { cleanPlain() }
        let (probed, cleanProbed) = try backend.makeStore()
        defer { cleanProbed() }
        let w = UUID()
        let first = [proposed(started(w))]
        let second = [first[0], proposed(finished(w), device: "watch"), proposed(started(UUID()))]
        for store in [plain, probed] { try store.append(first, expecting: [:], now: Self.t0) }
        let expect: [StreamName: ExpectedVersion] = [.workout(w): .exactly(1)]
        let viaPlain = try plain.append(second, expecting: expect, now: Self.t0)
        let viaProbe = try probed.writeTransaction {
            let probe = try probed.probe(ids: second.map(\.eventId), streams: AppendProbe.streams(second, also: [.body]))
            #expect(probe.head.position == 1)
            #expect(probe.version(of: .workout(w)) == 1)
            #expect(probe.versions[.body] == 0)
            #expect(probe.stored.mapValues(\.position) == [first[0].eventId: 1])
            return try probed.append(second, expecting: expect, now: Self.t0, probed: probe)
        }
        #expect(viaPlain == viaProbe)
        #expect(viaProbe.appended == [2, 3] && viaProbe.alreadyStored == 1)
        #expect(try plain.head().hash == probed.head().hash)
        #expect(try probed.verify().ok)
    }

    @Test("an append planned on a probe the log has moved past is refused, and appends nothing", arguments: StoreBackend.available)
    func staleProbe(_ backend: StoreBackend) throws {
        let (store, cleanUp) = try backend.makeStore()
        defer { cleanUp() }
        try store.append([proposed(started(UUID()))], expecting: [:], now: Self.t0)
        let late = [proposed(started(UUID()))]
        #expect(throws: StoreError.self) {
            try store.writeTransaction {
                let probe = try store.probe(ids: late.map(\.eventId), streams: AppendProbe.streams(late))
                try store.append([proposed(started(UUID()))], expecting: [:], now: Self.t0)
                return try store.append(late, expecting: [:], now: Self.t0, probed: probe)
            }
        }
        #expect(try store.headPosition() == 1)
        #expect(try store.event(id: late[0].eventId) == nil)
    }

    @Test("a stale expected version is refused with the stream's actual version, and appends nothing", arguments: StoreBackend.available)
    func expectedVersions(_ backend: StoreBackend) throws {
        let (store, cleanUp) = try backend.makeStore()
        defer { cleanUp() }
        let w = UUID()
        try store.append([proposed(started(w))], expecting: [.workout(w): .exactly(0)], now: Self.t0)
        do {
            try store.append([proposed(finished(w))], expecting: [.workout(w): .exactly(0)], now: Self.t0)
            Issue.record("a stale expected version was accepted")
        } catch StoreError.wrongExpectedVersion(let stream, _, let actual) {
            #expect(stream == .workout(w) && actual == 1)
        }
        #expect(try store.headPosition() == 1)
        #expect(try store.append([proposed(finished(w))], expecting: [.workout(w): .exactly(1)], now: Self.t0).appended == [2])
    }

    @Test("reads by stream, type, position and recorded time; as-of a time is a prefix of the log", arguments: StoreBackend.available)
    func readsAndAsOf(_ backend: StoreBackend) throws {
        let (store, cleanUp) = try backend.makeStore()
        defer { cleanUp() }
        let a = UUID(), b = UUID()
        try store.append([proposed(started(a))], expecting: [:], now: .at("2026-11-02T10:00:00Z"))
        try store.append([proposed(started(b))], expecting: [:], now: .at("2026-11-02T11:00:00Z"))
        // A clock behind the log's: recordedAt is held at the previous value.
        try store.append([proposed(finished(a))], expecting: [:], now: .at("2026-11-02T09:00:00Z"))
        try store.append([proposed(finished(b))], expecting: [:], now: .at("2026-11-02T12:00:00Z"))
        var recorded: [Int64] = []
        try store.read { recorded.append($0.recordedAt.millis) }
        #expect(
            recorded
                == [
                    Timestamp.at("2026-11-02T10:00:00Z"), .at("2026-11-02T11:00:00Z"), .at("2026-11-02T11:00:00Z"),
                    .at("2026-11-02T12:00:00Z"),
                ].map(\.millis))
        var finished: [Int64] = []
        try store.read(EventQuery(types: [WorkoutFinished.eventType.name])) { finished.append($0.position) }
        #expect(finished == [3, 4])
        var window: [Int64] = []
        try store.read(EventQuery(from: 2, through: 3)) { window.append($0.position) }
        #expect(window == [2, 3])
        var query = EventQuery()
        query.recordedFrom = .at("2026-11-02T11:00:00Z")
        query.recordedThrough = .at("2026-11-02T11:30:00Z")
        var inTime: [Int64] = []
        try store.read(query) { inTime.append($0.position) }
        #expect(inTime == [2, 3])
        #expect(try store.position(recordedAtOrBefore: .at("2026-11-02T09:59:59Z")) == 0)
        #expect(try store.position(recordedAtOrBefore: .at("2026-11-02T11:00:00Z")) == 3)
        #expect(try store.position(recordedAtOrBefore: .at("2026-11-03T00:00:00Z")) == 4)
        #expect(try store.streams(prefix: "workout-").map(\.firstPosition) == [1, 2])
        #expect(try store.newestStream(prefix: "workout-") == store.streams(prefix: "workout-").last?.stream)
        #expect(try store.newestStream(prefix: "template-") == nil)
        var replayed: [Int64] = []
        try store.replay(from: 2, through: 3) { replayed.append($0.position) }
        #expect(replayed == [2, 3])
    }

    @Test("thousands of events replay in order across read pages, and verify", arguments: StoreBackend.available)
    func longLogs(_ backend: StoreBackend) throws {
        let (store, cleanUp) = try backend.makeStore()
        defer { cleanUp() }
        // One batch longer than an INSERT's chunk (5,000 rows on PostgreSQL), then batches of 1,000.
        for batch in 0..<7 {
            try store.append(
                (0..<(batch == 0 ? 6000 : 1000)).map { _ in proposed(started(UUID())) }, expecting: [:],
                now: Self.t0.adding(seconds: Int64(batch)))
        }
        var expected: Int64 = 1
        try store.replay { e in
            #expect(e.position == expected)
            expected += 1
        }
        #expect(expected == 12_001)
        let report = try store.verify()
        #expect(report.ok && report.events == 12_000)
        #expect(report.headHash == (try store.head().hash.hex))
    }

    /// A long replay may read ahead on a second thread: a fold that stops part-way
    /// must get its own error back, see nothing after it, and leave the store usable.
    @Test(
        "a fold that throws part-way through a long replay stops it there, and the store reads and appends after", arguments: StoreBackend.available)
    func replayStoppedByTheFold(_ backend: StoreBackend) throws {
        struct Enough: Error {}
        let (store, cleanUp) = try backend.makeStore()
        defer { cleanUp() }
        for batch in 0..<3 {
            try store.append(
                (0..<5000).map { _ in proposed(started(UUID())) }, expecting: [:], now: Self.t0.adding(seconds: Int64(batch)))
        }
        for stopAt in [Int64(100), 4097, 9000, 14_999] {
            var seen: Int64 = 0
            #expect(throws: Enough.self) {
                try store.replay { e in
                    #expect(e.position == seen + 1)
                    seen = e.position
                    if e.position == stopAt { throw Enough() }
                }
            }
            #expect(seen == stopAt)
        }
        #expect(try store.append([proposed(started(UUID()))], expecting: [:], now: Self.t0.adding(seconds: 9)).appended == [15_001])
        var count = 0
        try store.replay(from: 10_001) { _ in count += 1 }
        #expect(count == 5001)
    }

    @Test(
        "every store chains the same events to the same hashes, and a JSONL backup moves between them byte-exact",
        arguments: StoreBackend.available, StoreBackend.available)
    func crossStoreBackup(_ from: StoreBackend, _ to: StoreBackend) throws {
        let (source, cleanSource) = try from.makeStore()
        defer { cleanSource() }
        let (target, cleanTarget) = try to.makeStore()
        defer { cleanTarget() }
        let samples = EventSamples.proposed(EventSamples.all, generation: "conformance")
        for (i, e) in samples.enumerated() { try source.append([e], expecting: [:], now: EventSamples.t0.adding(seconds: Int64(i / 3))) }
        var exported = ""
        try JSONLBackup.export(source) { exported += $0 }
        let restored = try JSONLBackup.restore(exported, into: target)
        #expect(restored.events == samples.count)
        #expect(restored.headHash == (try source.head().hash.hex))
        var again = ""
        try JSONLBackup.export(target) { again += $0 }
        #expect(again == exported)
        #expect(try target.verify().ok)
        // A fresh store given the same events at the same times holds the same chain.
        let (twin, cleanTwin) = try to.makeStore()
        defer { cleanTwin() }
        for (i, e) in samples.enumerated() { try twin.append([e], expecting: [:], now: EventSamples.t0.adding(seconds: Int64(i / 3))) }
        #expect(try twin.head().hash == source.head().hash)
    }

    @Test(
        "writers on their own handles to one log: gapless positions, consecutive batches and stream versions, one winner per expected version",
        arguments: StoreBackend.available)
    func concurrentWriters(_ backend: StoreBackend) throws {
        let (open, cleanUp) = try backend.makeSharedLog()
        defer { cleanUp() }
        let shared = UUID()
        try open().append([proposed(started(shared))], expecting: [:], now: Self.t0)
        let writers = 6, rounds = 15
        let failures = Failures()
        // Each batch: a stream of the writer's own, with one event of the shared stream inside it.
        runConcurrently(writers) {
            do {
                let store = try open()
                for _ in 0..<rounds {
                    let own = UUID()
                    try store.append([proposed(started(own)), proposed(finished(shared)), proposed(finished(own))], expecting: [:], now: Self.t0)
                }
            } catch { failures.add(error) }
        }
        #expect(failures.all.isEmpty, "\(failures.all)")
        let store = try open()
        let total = Int64(1 + writers * rounds * 3)
        var positions: [Int64] = []
        var byStream: [StreamName: [Int64]] = [:]
        try store.read(EventQuery()) { e in
            positions.append(e.position)
            byStream[e.stream, default: []].append(e.position)
        }
        #expect(positions == Array(1...total))
        for (stream, own) in byStream where stream != .workout(shared) { #expect(own.count == 2 && own[1] == own[0] + 2) }
        #expect(try store.read(stream: .workout(shared)).map(\.version) == Array(1...Int64(1 + writers * rounds)))
        #expect(try store.verify().ok)

        // Writers expecting the same version of the shared stream: exactly one appends.
        let version = try store.version(of: .workout(shared))
        let refusals = Failures()
        runConcurrently(4) {
            do {
                try open().append([proposed(finished(shared))], expecting: [.workout(shared): .exactly(version)], now: Self.t0)
            } catch { refusals.add(error) }
        }
        #expect(refusals.all.count == 3)
        #expect(refusals.all.allSatisfy { if case StoreError.wrongExpectedVersion = $0 { true } else { false } })
        #expect(try store.version(of: .workout(shared)) == version + 1)
        #expect(try store.count() == total + 1)
    }
}

/// Runs `body` on `n` threads of its own at once and waits for all of them.
private func runConcurrently(_ n: Int, _ body: @escaping @Sendable () -> Void) {
    let group = DispatchGroup()
    for _ in 0..<n {
        group.enter()
        Thread {
            body(); group.leave()
        }.start()
    }
    group.wait()
}

/// Errors collected from several threads.
private final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [Error] = []
    func add(_ error: Error) { lock.withLock { errors.append(error) } }
    var all: [Error] { lock.withLock { errors } }
}
