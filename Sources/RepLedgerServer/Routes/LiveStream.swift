import Foundation
import Hummingbird
import NIOCore
import RepLedgerAccounts
import RepLedgerCore
import RepLedgerService

extension LedgerRoutes {
    /// Server-Sent Events: the catch-up after `after`, then each new event;
    /// the subscription is registered before the catch-up is read, and each
    /// wake-up reads the log after the last position sent, so no event is
    /// missed or repeated across the boundary.
    ///
    /// The caller's right to read is checked again before every page and
    /// every second (`LedgerAPI.livePage`): a revoked token, an erased
    /// account or an ended Coach product end the stream, and a coach's stream
    /// stops just before the client's revocation of its grant, in the order
    /// of the log. It ends with an `error` event carrying the JSON error.
    /// `slot`: the stream's place among the open streams, given back the moment the client closes
    /// `channel` (not at the next keep-alive's failed write), or else when the response is gone.
    func live(
        log: AccountLog, after: Int64, caller: AccountDirectory.Caller, reauthenticate: @escaping @Sendable () throws -> AccountDirectory.Caller,
        slot: StreamAdmission.Slot, channel: any Channel
    ) -> Response {
        let (id, signals) = log.subscribe(keepAlive: keepAliveSeconds, recheck: min(1, keepAliveSeconds))
        channel.closeFuture.whenComplete { _ in
            slot.release()
            log.endSubscriber(id)
        }
        let api = self.api
        let body = ResponseBody { [self] writer in
            defer {
                log.unsubscribe(id)
                withExtendedLifetime(slot) {}
            }
            var last = after
            // Since when the storage has been unavailable (a database failing over), if it is.
            var unavailableSince: ContinuousClock.Instant?
            /// Sends what the caller may still read → false once the stream must end (its error event sent).
            func drain(_ writer: inout any ResponseBodyWriter) async throws -> Bool {
                while true {
                    let from = last
                    let page: LivePage
                    do {
                        page = try await blocking(for: caller.account.accountId) {
                            try api.livePage(log: log, after: from, caller: caller, reauthenticate: reauthenticate)
                        }
                        unavailableSince = nil
                    } catch {
                        let e = APIError.from(error)
                        // A storage that may be back in a moment keeps the stream open: the next wake-up (a second
                        // at most) reads again after the last position sent, so nothing is missed or repeated.
                        let since = unavailableSince ?? .now
                        if e.status == 503, e.retryAfterSeconds != nil, ContinuousClock.now - since < Self.streamOutageLimit {
                            unavailableSince = since
                            try await writer.write(ByteBuffer(string: ": storage unavailable; retrying\n\n"))
                            return true
                        }
                        try await end(&writer, e)
                        return false
                    }
                    if !page.lines.isEmpty {
                        var chunk = ""
                        for line in page.lines { chunk += "id: \(line.position)\ndata: \(line.json)\n\n" }
                        try await writer.write(ByteBuffer(string: chunk))
                        last = page.lines[page.lines.count - 1].position
                    }
                    if let ending = page.end {
                        try await end(&writer, ending)
                        return false
                    }
                    if !page.more { return true }
                }
            }
            try await writer.write(ByteBuffer(string: ": live after \(after)\n\n"))
            guard try await drain(&writer) else { return }
            for await signal in signals {
                switch signal {
                case .appended:
                    guard try await drain(&writer) else { return }
                case .recheck:
                    guard try await drain(&writer) else { return }
                    // Two bytes a second: a client gone without its close being seen (a peer's reset, a half-closed
                    // socket) fails this write within a second or two, and its place among the streams is given back.
                    try await writer.write(ByteBuffer(string: ":\n"))
                case .keepAlive:
                    // Also a chance to catch an append made through a connection
                    // this stream was not told about (see `AccountLogs`).
                    guard try await drain(&writer) else { return }
                    try await writer.write(ByteBuffer(string: ": keep-alive\n\n"))
                }
            }
            // The signals ended: the account was erased, or the server is stopping.
            let from = last
            do {
                _ = try await blocking(for: caller.account.accountId) {
                    try api.streamLimit(reauthenticate: reauthenticate, caller: caller, log: log, after: from)
                }
            } catch {
                try await end(&writer, APIError.from(error))
                return
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"], body: body)
    }

    /// How long a live stream waits out a storage that is unavailable before it ends with the 503.
    static let streamOutageLimit: Duration = .seconds(60)

    /// The last words of a live stream: an SSE `error` event with the JSON error, then the end.
    func end(_ writer: inout any ResponseBodyWriter, _ error: APIError) async throws {
        try await writer.write(ByteBuffer(string: "event: error\ndata: \(error.json.rendered)\n\n"))
        try await writer.finish(nil)
    }
}
