import Foundation
import Synchronization

/// Reads and decodes the log on a second thread while the calling thread
/// folds: a long replay then costs about the larger of the two halves instead
/// of their sum. Events still reach the fold one at a time and in position
/// order, so what it builds is the same, byte for byte.
///
/// A store's replay hands it `fill`, which copies up to `limit` rows out of
/// the store (`ReplayRows`) and says whether more may follow, and `decode`,
/// which makes a row's event. The first rows are read and decoded on the
/// calling thread: a short catch-up never starts a thread. Past them, the
/// reader thread fills batches, and whichever side is idle decodes them: the
/// reader while the fold has batches queued, the fold when it has none. A
/// heavy fold then leaves the decoding to the reader, and a light one takes
/// half of it, instead of waiting.
public enum ReplayPipeline {
    /// Events read before a second thread is worth starting.
    public static let firstBatch = 4096
    /// Events a batch carries across; `depth` batches are in flight at most.
    static let batchSize = 1024
    static let depth = 4

    /// A row's event, from the row, its payload and its event id (empty unless the store seals payloads).
    /// Called on both threads at once: it reads only what it is given.
    public typealias Decode = @Sendable (ReplayRows.Row, UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> LedgerEvent

    /// Runs `fill` until it reports the end, calling `body` with every event
    /// it read, in order. `fill` runs on one thread at a time, never beside
    /// another call of itself; when `body` throws, the reader stops at its
    /// next batch and this returns only after it has stopped, so the store's
    /// statement is never touched after it returns.
    public static func run(
        fill: (inout ReplayRows, Int) throws -> Bool, decode: @escaping Decode, _ body: (RecordedEvent) throws -> Void
    ) throws {
        var first = ReplayRows(capacity: 64)
        let more: Bool
        do {
            more = try fill(&first, firstBatch)
        } catch {
            // The events read before the failing one are folded first, as a plain loop would.
            try first.forEach(decode: decode, body)
            throw error
        }
        try first.forEach(decode: decode, body)
        guard more else { return }
        try withoutActuallyEscaping(fill) { fill in
            let channel = Channel(fill: fill, decode: decode)
            let reader = Thread { channel.read() }
            reader.stackSize = 8 << 20
            reader.start()
            defer { channel.stop() }
            try channel.drain(body)
        }
    }

    /// Events read in order, decoded or not, and what came after the last of them.
    private struct Batch: Sendable {
        enum Content: Sendable {
            case decoded([RecordedEvent])
            case undecoded(ReplayRows)
        }
        enum End: Sendable {
            case more, last
            case failed(any Error)
        }
        var content: Content
        var end: End
    }

    /// Unchecked: `fill` is the caller's, used by the reader thread alone
    /// and dropped by it before it signals `finished`, which the caller
    /// waits for before its own frame (and the closure) goes away.
    private final class Channel: @unchecked Sendable {
        private var fill: ((inout ReplayRows, Int) throws -> Bool)?
        let decode: Decode
        let ready = Mutex<[Batch]>([])
        let filled = DispatchSemaphore(value: 0)
        // Every semaphore starts at 0: libdispatch traps when one is freed
        // below the value it was made with, as `free` is when a fold stops early.
        let free = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let cancelled = Atomic<Bool>(false)

        init(fill: @escaping (inout ReplayRows, Int) throws -> Bool, decode: @escaping Decode) {
            self.fill = fill
            self.decode = decode
            for _ in 0..<ReplayPipeline.depth { free.signal() }
        }

        /// The reader thread: fills batches while there is room for them,
        /// then lets go of `fill` before saying it has finished.
        func read() {
            if let fill { pump(fill) }
            fill = nil
            finished.signal()
        }

        private func pump(_ fill: (inout ReplayRows, Int) throws -> Bool) {
            while true {
                free.wait()
                if cancelled.load(ordering: .acquiring) { return }
                var rows = ReplayRows(capacity: ReplayPipeline.batchSize)
                var end = Batch.End.more
                do {
                    if try !fill(&rows, ReplayPipeline.batchSize) { end = .last }
                } catch {
                    end = .failed(error)
                }
                var batch = Batch(content: .undecoded(rows), end: end)
                // The idle side decodes: a fold with nothing queued is waiting, so it takes these rows as they are.
                if !ready.withLock({ $0.isEmpty }) {
                    var events: [RecordedEvent] = []
                    events.reserveCapacity(rows.count)
                    do {
                        try rows.forEach(decode: decode) { events.append($0) }
                    } catch {
                        // An earlier row than any failure of `fill`, which comes after the last row it read.
                        batch.end = .failed(error)
                    }
                    batch.content = .decoded(events)
                }
                let stop: Bool
                if case .more = batch.end { stop = false } else { stop = true }
                ready.withLock { $0.append(batch) }
                filled.signal()
                if stop { return }
            }
        }

        /// The calling thread: folds each batch as it arrives, decoding it first when the reader did not.
        func drain(_ body: (RecordedEvent) throws -> Void) throws {
            while true {
                filled.wait()
                let batch = ready.withLock { $0.removeFirst() }
                free.signal()
                switch batch.content {
                case .decoded(let events): for event in events { try body(event) }
                case .undecoded(let rows): try rows.forEach(decode: decode, body)
                }
                switch batch.end {
                case .more: continue
                case .last: return
                case .failed(let error): throw error
                }
            }
        }

        /// Stops the reader at its next batch and waits until it has returned.
        func stop() {
            cancelled.store(true, ordering: .releasing)
            free.signal()
            finished.wait()
        }
    }
}
