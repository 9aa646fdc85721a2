import Foundation
import LedgerTestSupport
import Synchronization
import Testing

@testable import RepLedgerCore

/// Whichever side of a long replay is idle decodes a batch: the reader while
/// the fold has batches queued, the fold when it has none. These tests steer
/// the two threads (the reader waits for the fold, the fold for the reader) so
/// that an unreadable payload lands on each side for certain, and check that
/// either way the fold sees every event before it, in order, and then its error.
@Suite("Replay pipeline")
struct ReplayPipelineTests {
    static let batch = ReplayPipeline.batchSize
    static let first = ReplayPipeline.firstBatch
    static let payload = started(UUID()).encodedPayload
    static let type = started(UUID()).eventType

    /// Rows 1...`count` of real `WorkoutStarted` payloads, `bad` being three bytes no event decodes from.
    /// The second batch past the first is read only once the fold holds the first; the fold
    /// waits at the first event of it until the reader has begun decoding the third. So the
    /// second batch reaches an idle fold (undecoded) and the third a busy one (decoded by the reader).
    static func replay(count: Int64, bad: Int64) -> (folded: [Int64], error: (any Error)?, decodedOn: Set<String>) {
        let fills = Atomic<Int>(0)
        let foldHoldsBatch = DispatchSemaphore(value: 0)
        let readerDecodesThird = DispatchSemaphore(value: 0)
        let third = Int64(first + 2 * batch + 1)
        let decodedBad = Mutex<Set<String>>([])
        let caller = pthread_self()
        var next: Int64 = 1
        var folded: [Int64] = []
        var failure: (any Error)?
        do {
            try ReplayPipeline.run(
                fill: { rows, limit in
                    if fills.add(1, ordering: .relaxed).newValue == 3 { _ = foldHoldsBatch.wait(timeout: .now() + 60) }
                    while rows.count < limit {
                        guard next <= count else { return false }
                        let bytes = next == bad ? [UInt8](repeating: 0xFF, count: 3) : payload
                        bytes.withUnsafeBytes {
                            rows.append(
                                position: next, code: type.code, schema: type.schema, occurredAt: .at("2026-11-02T07:30:00+01:00"),
                                recordedAt: .at("2026-11-02T07:30:00+01:00"), payload: $0, eventId: UnsafeRawBufferPointer(start: nil, count: 0))
                        }
                        next += 1
                    }
                    return true
                },
                decode: { row, payload, eventId in
                    if row.position == bad { decodedBad.withLock { _ = $0.insert(pthread_equal(pthread_self(), caller) != 0 ? "fold" : "reader") } }
                    if row.position == third { readerDecodesThird.signal() }
                    return try PayloadSeal(nil).event(code: row.code, schema: row.schema, stored: payload, eventId: eventId, position: row.position)
                },
                { event in
                    if event.position == Int64(first) + 1 {
                        foldHoldsBatch.signal()
                        // Until the reader has found the fold busy (the second batch queued) and decodes the third.
                        _ = readerDecodesThird.wait(timeout: .now() + 60)
                    }
                    folded.append(event.position)
                })
        } catch {
            failure = error
        }
        return (folded, failure, decodedBad.withLock { $0 })
    }

    @Test("an unreadable row decoded by the fold, or by the reader, stops the replay there, after every event before it", arguments: [2, 3])
    func unreadableOnEitherSide(_ batchPastFirst: Int) throws {
        let bad = Int64(Self.first + (batchPastFirst - 1) * Self.batch + 10)
        let r = Self.replay(count: Int64(Self.first + 5 * Self.batch), bad: bad)
        #expect(r.decodedOn == [batchPastFirst == 2 ? "fold" : "reader"], "the steering put the bad row on the other side")
        #expect(r.folded == Array(1..<bad))
        guard case StoreError.unreadableEvent(let position, _)? = r.error else {
            Issue.record("expected the bad row's unreadableEvent, got \(String(describing: r.error))")
            return
        }
        #expect(position == bad)
    }

    @Test("events decoded on both sides reach the fold once each, in order")
    func everyEventOnceInOrder() throws {
        let count = Int64(Self.first + 5 * Self.batch + 7)
        let r = Self.replay(count: count, bad: -1)
        #expect(r.error == nil)
        #expect(r.folded == Array(1...count))
    }
}
