import Foundation
import RepLedgerService

/// A live-stream subscriber (the lifter's app, an inspector): it follows the
/// account's stream as a browser's `EventSource` does. Each connection reads
/// the log after where it started, page by page, as the server's stream does
/// (`LedgerAPI.livePage`); a dropped connection may lose the end of what the
/// server wrote, and the subscriber reconnects from the last event it received
/// (`Last-Event-ID`).
final class SimulatedSubscriber {
    let name: String
    let token: String
    /// The position the open connection's server side has sent through; nil while disconnected.
    private(set) var connection: Int64?
    /// The last event's position this subscriber received (what it reconnects after).
    private(set) var lastEventId: Int64
    /// Every event received, in the order received.
    private(set) var received: [(position: Int64, json: String)] = []

    init(name: String, token: String, after: Int64) {
        self.name = name
        self.token = token
        lastEventId = after
    }

    /// Opens a connection after the last event received (one further with the planted bug).
    func connect(skipping: Bool) {
        connection = lastEventId + (skipping ? 1 : 0)
    }

    func drop() { connection = nil }

    /// The server's stream wakes and writes what is new; `cut(count)` may lose the connection after the
    /// first lines of a chunk (what was written after them never arrives) → events received now.
    func wake(_ server: SimulatedServer, cut: (Int) -> Int?) throws -> Int {
        var count = 0
        while let after = connection {
            let page = try server.livePage(token: token, after: after)
            let kept = page.lines.isEmpty ? nil : cut(page.lines.count)
            for line in page.lines.prefix(kept ?? page.lines.count) {
                received.append(line)
                lastEventId = line.position
                count += 1
            }
            if kept != nil || page.end != nil {
                connection = nil
                break
            }
            connection = page.lines.last?.position ?? after
            if !page.more { break }
        }
        return count
    }
}
