import Foundation
import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Bounds what a connection costs while its request is still arriving. A
/// request (head and body) must arrive whole within `seconds` of the
/// connection being ready for it; a connection answered before its request
/// arrived whole (401, 405, 413, 429) is closed, not drained; and the
/// connections still reading a request share a budget smaller than the
/// connection cap, the slowest (fewest bytes a second) closed first past it,
/// so that clients trickling bytes cannot hold every connection and a real
/// upload on a slow line is not the one cut.
final class RequestDeadline: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    let seconds: Double
    let readers: ReadingConnections
    private var requestArrived = false
    private var timer: Scheduled<Void>?
    private var readerId: UInt64?

    init(seconds: Double, readers: ReadingConnections) {
        self.seconds = seconds
        self.readers = readers
    }

    func handlerAdded(context: ChannelHandlerContext) { startReading(context) }
    func handlerRemoved(context: ChannelHandlerContext) { stopReading() }

    func channelInactive(context: ChannelHandlerContext) {
        stopReading()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let request):
            if let readerId {
                let fields = request.headerFields.reduce(0) { $0 + $1.name.rawName.utf8.count + $1.value.utf8.count + 4 }
                readers.received(readerId, bytes: fields + (request.path?.utf8.count ?? 0) + 16)
            }
        case .body(let chunk):
            if let readerId { readers.received(readerId, bytes: chunk.readableBytes) }
        case .end:
            requestArrived = true
            stopReading()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var response) where !requestArrived && response.status.kind != .informational:
            // Answered early: say the connection ends, since the rest of the body is not read.
            response.headerFields[.connection] = "close"
            context.write(wrapOutboundOut(.head(response)), promise: promise)
        case .end where !requestArrived:
            let channel = context.channel
            let written = promise ?? context.eventLoop.makePromise()
            written.futureResult.whenComplete { _ in channel.close(promise: nil) }
            context.write(data, promise: written)
        case .end:
            // The next request on this connection is awaited from now.
            requestArrived = false
            context.write(data, promise: promise)
            startReading(context)
        default:
            context.write(data, promise: promise)
        }
    }

    private func startReading(_ context: ChannelHandlerContext) {
        stopReading()
        let channel = context.channel
        readerId = readers.admit(channel)
        timer = context.eventLoop.scheduleTask(in: .nanoseconds(Int64(seconds * 1e9))) { channel.close(promise: nil) }
    }

    private func stopReading() {
        timer?.cancel()
        timer = nil
        if let readerId { readers.release(readerId) }
        readerId = nil
    }
}

/// The connections still reading a request (or idle between requests) under
/// one budget: one more closes the slowest other, by the bytes it has sent a
/// second (counted over at least a second, so a connection just begun is not
/// judged on its first moment). A trickle, or a connection sending nothing,
/// goes before an upload that is merely slow; the longest-reading of equals first.
final class ReadingConnections: @unchecked Sendable {
    let budget: Int
    private let lock = NSLock()
    private var next: UInt64 = 0
    private struct Reader {
        let channel: any Channel
        let since: NIODeadline
        var bytes: Int
    }
    /// Reader ids rise with time, so the smallest is the oldest.
    private var reading: [UInt64: Reader] = [:]

    init(budget: Int) { self.budget = budget }

    /// Counts `channel` as reading → its id; closes the slowest other past the budget.
    func admit(_ channel: any Channel) -> UInt64 {
        let now = NIODeadline.now()
        let (id, evicted): (UInt64, (any Channel)?) = lock.withLock {
            next += 1
            reading[next] = Reader(channel: channel, since: now, bytes: 0)
            guard reading.count > budget else { return (next, nil) }
            let newcomer = next
            func rate(_ r: Reader) -> Double { Double(r.bytes) / max(1, Double((now - r.since).nanoseconds) / 1e9) }
            let slowest = reading.filter { $0.key != newcomer }.min { a, b in
                rate(a.value) != rate(b.value) ? rate(a.value) < rate(b.value) : a.key < b.key
            }
            guard let slowest else { return (next, nil) }
            return (next, reading.removeValue(forKey: slowest.key)?.channel)
        }
        evicted?.close(promise: nil)
        return id
    }

    /// `bytes` more of the request arrived on reader `id`.
    func received(_ id: UInt64, bytes: Int) {
        lock.withLock { reading[id]?.bytes += bytes }
    }

    func release(_ id: UInt64) {
        lock.withLock { _ = reading.removeValue(forKey: id) }
    }

    var count: Int { lock.withLock { reading.count } }
}
