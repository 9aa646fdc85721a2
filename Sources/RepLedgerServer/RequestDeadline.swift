import Foundation
import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Bounds what a connection costs while its request is still arriving. A
/// request (head and body) must arrive whole within `seconds` of the
/// connection being ready for it; a connection answered before its request
/// arrived whole (401, 405, 413, 429) is closed, not drained; and the
/// connections still reading a request share a budget smaller than the
/// connection cap, the longest-reading closed first past it, so that clients
/// trickling bytes cannot hold every connection.
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
        if case .end = unwrapInboundIn(data) {
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

/// The connections still reading a request, in the order they began, under
/// one budget: one more closes the one reading longest (a request sent at an
/// ordinary pace arrives in moments; one that trickles is the oldest).
final class ReadingConnections: @unchecked Sendable {
    let budget: Int
    private let lock = NSLock()
    private var next: UInt64 = 0
    /// Reader ids rise with time, so the smallest is the oldest.
    private var reading: [UInt64: any Channel] = [:]

    init(budget: Int) { self.budget = budget }

    /// Counts `channel` as reading → its id; closes the longest-reading one past the budget.
    func admit(_ channel: any Channel) -> UInt64 {
        let (id, evicted): (UInt64, (any Channel)?) = lock.withLock {
            next += 1
            reading[next] = channel
            guard reading.count > budget, let oldest = reading.keys.min() else { return (next, nil) }
            return (next, reading.removeValue(forKey: oldest))
        }
        evicted?.close(promise: nil)
        return id
    }

    func release(_ id: UInt64) {
        lock.withLock { _ = reading.removeValue(forKey: id) }
    }

    var count: Int { lock.withLock { reading.count } }
}
