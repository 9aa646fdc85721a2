import Foundation
import LedgerTestSupport
import RepLedgerCore
import Testing

/// The append algorithm every store shares, planned without a store: what it
/// proposes, links and refuses is the same whatever writes the rows.
@Suite struct AppendPlannerTests {
    static let now = Timestamp.at("2026-11-02T08:00:00Z")

    /// Plans `events` against an empty log (or `head`) whose streams are at `versions`, with nothing stored.
    static func plan(
        _ events: [ProposedEvent], head: ChainHead = .genesis, versions: [StreamName: Int64] = [:],
        expecting: [StreamName: ExpectedVersion] = [:], stored: [UUID: StoredEvent] = [:]
    ) throws -> (rows: [StoredEvent], planner: AppendPlanner) {
        try AppendPlanner.rows(events, expecting: expecting, now: now, head: head, versions: versions, stored: stored)
    }

    /// The store error `body` throws, as its description (StoreError is not Equatable), or nil.
    static func refusal(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let error as StoreError {
            return "\(error)"
        } catch {
            return "not a StoreError: \(error)"
        }
    }

    @Test func positionsVersionsAndTheChainFollowOnFromTheHead() throws {
        let a = UUID(), b = UUID()
        let events = [proposed(started(a)), proposed(started(b)), proposed(finished(a))]
        let (rows, planner) = try Self.plan(events)
        #expect(rows.map(\.position) == [1, 2, 3])
        // Each workout is a stream of its own: versions count within it.
        #expect(rows.map(\.version) == [1, 1, 2])
        #expect(rows.map(\.eventId) == events.map(\.eventId))
        var previous = genesisHash
        for row in rows {
            #expect(
                row.hash
                    == CanonicalBytes.link(
                        previousHash: previous, position: row.position, version: row.version, recordedAt: Self.now, content: row.content))
            previous = row.hash
        }
        #expect(planner.head == ChainHead(position: 3, hash: previous, recordedAt: Self.now))
        #expect(planner.result == AppendResult(appended: [1, 2, 3], alreadyStored: 0, recordedAt: Self.now))
    }

    @Test func aHeadRecordedLaterThanNowKeepsRecordedTimesFromGoingBack() throws {
        let later = Timestamp.at("2026-11-03T08:00:00Z")
        let head = ChainHead(position: 7, hash: Array(repeating: 1, count: 32), recordedAt: later)
        let (rows, _) = try Self.plan([proposed(started(UUID()))], head: head)
        #expect(rows.map(\.position) == [8])
        #expect(rows.map(\.recordedAt) == [later])
    }

    @Test func theSameIdTwiceInABatchIsOneEventOrAConflict() throws {
        let id = UUID(), workout = UUID()
        let (rows, planner) = try Self.plan([proposed(started(workout), id: id), proposed(started(workout), id: id)])
        #expect(rows.count == 1)
        #expect(planner.result.alreadyStored == 1)
        let conflict = Self.refusal { _ = try Self.plan([proposed(started(workout), id: id), proposed(started(workout, name: "Lower B"), id: id)]) }
        #expect(conflict == "\(StoreError.eventIdConflict(eventId: id, position: 0))")
    }

    @Test func anIdStoredAlreadyIsARetryWithTheSameContentElseAConflict() throws {
        let workout = UUID()
        let first = proposed(started(workout))
        let (stored, _) = try Self.plan([first])
        let head = ChainHead(position: 1, hash: stored[0].hash, recordedAt: Self.now)
        let retry = try Self.plan(
            [first, proposed(finished(workout))], head: head, versions: [first.stream: 1], stored: [first.eventId: stored[0]])
        #expect(retry.rows.map(\.position) == [2])
        #expect(retry.rows.map(\.version) == [2])
        #expect(retry.planner.result.alreadyStored == 1)

        let changed = proposed(started(workout, name: "Lower B"), id: first.eventId)
        let conflict = Self.refusal { _ = try Self.plan([changed], head: head, versions: [first.stream: 1], stored: [first.eventId: stored[0]]) }
        #expect(conflict == "\(StoreError.eventIdConflict(eventId: first.eventId, position: 1))")
    }

    @Test func anExpectationIsCheckedWhereTheFirstNewEventReachesItsStream() throws {
        let workout = UUID()
        let event = proposed(finished(workout))
        let stream = event.stream
        let moved = Self.refusal { _ = try Self.plan([event], versions: [stream: 2], expecting: [stream: .exactly(1)]) }
        #expect(moved == "\(StoreError.wrongExpectedVersion(stream: stream, expected: .exactly(1), actual: 2))")
        let (rows, _) = try Self.plan([event], versions: [stream: 1], expecting: [stream: .exactly(1)])
        #expect(rows.map(\.version) == [2])
        // A retry whose events are all stored checks nothing: the stream has moved past the expectation by them.
        let head = ChainHead(position: 1, hash: rows[0].hash, recordedAt: Self.now)
        let retry = try Self.plan(
            [event], head: head, versions: [stream: 2], expecting: [stream: .exactly(1)], stored: [event.eventId: rows[0]])
        #expect(retry.rows.isEmpty && retry.planner.result.alreadyStored == 1)
        // `.any` never refuses.
        #expect(try Self.plan([event], versions: [stream: 5], expecting: [stream: .any]).rows.map(\.version) == [6])
    }

    @Test func aStreamsStoredVersionIsAskedOncePerBatch() throws {
        let workout = UUID()
        var planner = AppendPlanner(head: .genesis, now: Self.now, expecting: [:])
        var asked: [StreamName] = []
        for event in [proposed(started(workout)), proposed(finished(workout))] {
            let candidate = try #require(
                try planner.candidate(for: event) { stream in
                    asked.append(stream)
                    return 3
                })
            try planner.accept(candidate)
        }
        #expect(asked.count == 1)
        #expect(planner.result.appended == [1, 2])
        #expect(planner.head.position == 2)
    }

    @Test func theSameBatchPlansTheSameRowsByteForByte() throws {
        let events = (0..<20).map { i in proposed(i % 2 == 0 ? started(UUID()) : finished(UUID())) }
        let first = try Self.plan(events).rows, second = try Self.plan(events).rows
        #expect(first.map(\.hash) == second.map(\.hash))
        #expect(first.map(\.content) == second.map(\.content))
        #expect(Set(first.map(\.hash)).count == events.count)
    }
}
