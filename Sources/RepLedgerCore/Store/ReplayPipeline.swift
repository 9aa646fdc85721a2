import Foundation
import Synchronization

/// Reads and decodes the log on a second thread while the calling thread
/// folds: a long replay then costs about the larger of the two halves instead
/// of their sum. Events still reach the fold one at a time and in position
/// order, so what it builds is the same, byte for byte.
///
/// A store's replay hands it `fill`, which appends up to `limit` decoded events
/// to a batch and says whether more may follow. The first batch is read on the
/// calling thread: a short catch-up never starts a thread.
public enum ReplayPipeline {
    /// Events read before a second thread is worth starting.
    public static let firstBatch = 4096
    /// Events a batch carries across; `depth` batches are in flight at most.
    static let batchSize = 1024
    static let depth = 4

    /// Runs `fill` until it reports the end, calling `body` with every event
    /// it read, in order. `fill` runs on one thread at a time, never beside
    /// another call of itself; when `body` throws, the reader stops at its
    /// next batch and this returns only after it has stopped, so the store's
    /// statement is never touched after it returns.
    public static func run(
        fill: (inout [RecordedEvent], Int) throws -> Bool, _ body: (RecordedEvent) throws -> Void
    ) throws {
        var first: [RecordedEvent] = []
        first.reserveCapacity(64)
        let more: Bool
        do {
            more = try fill(&first, firstBatch)
        } catch {
            // The events read before the failing one are folded first, as a plain loop would.
            for event in first { try body(event) }
            throw error
        }
        for event in first { try body(event) }
        guard more else { return }
        try withoutActuallyEscaping(fill) { fill in
            let channel = Channel(fill: fill)
            let reader = Thread { channel.read() }
            reader.stackSize = 8 << 20
            reader.start()
            defer { channel.stop() }
            try channel.drain(body)
        }
    }

    /// Events read in order, and what came after the last of them.
    private struct Batch: Sendable {
        enum End: Sendable {
            case more, last
            case failed(any Error)
        }
        var events: [RecordedEvent]
        var end: End
    }

    /// Unchecked: `fill` is the caller's, used by the reader thread alone
    /// and dropped by it before it signals `finished`, which the caller
    /// waits for before its own frame (and the closure) goes away.
    private final class Channel: @unchecked Sendable {
        private var fill: ((inout [RecordedEvent], Int) throws -> Bool)?
        let ready = Mutex<[Batch]>([])
        let filled = DispatchSemaphore(value: 0)
        // Every semaphore starts at 0: libdispatch traps when one is freed
        // below the value it was made with, as `free` is when a fold stops early.
        let free = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let cancelled = Atomic<Bool>(false)

        init(fill: @escaping (inout [RecordedEvent], Int) throws -> Bool) {
            self.fill = fill
            for _ in 0..<ReplayPipeline.depth { free.signal() }
        }

        /// The reader thread: fills batches while there is room for them,
        /// then lets go of `fill` before saying it has finished.
        func read() {
            if let fill { pump(fill) }
            fill = nil
            finished.signal()
        }

        private func pump(_ fill: (inout [RecordedEvent], Int) throws -> Bool) {
            while true {
                free.wait()
                if cancelled.load(ordering: .acquiring) { return }
                var batch = Batch(events: [], end: .more)
                batch.events.reserveCapacity(ReplayPipeline.batchSize)
                do {
                    if try !fill(&batch.events, ReplayPipeline.batchSize) { batch.end = .last }
                } catch {
                    batch.end = .failed(error)
                }
                let end = batch.end
                ready.withLock { $0.append(batch) }
                filled.signal()
                guard case .more = end else { return }
            }
        }

        /// The calling thread: folds each batch as it arrives.
        func drain(_ body: (RecordedEvent) throws -> Void) throws {
            while true {
                filled.wait()
                let batch = ready.withLock { $0.removeFirst() }
                free.signal()
                for event in batch.events { try body(event) }
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
