import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A live-stream subscriber of the fault run, as a browser's `EventSource`
/// is: it reads `GET …/events/live` over a plain socket (HTTP/1.1, chunked),
/// records each event it receives, and when the connection ends (a server
/// killed, a fault) connects again with `Last-Event-ID`, to each server in
/// turn. Every event becomes a history line, so the checker can ask for each
/// position once and in order.
struct StreamFollower {
    let client: String
    let ports: [Int]
    let account: String
    let token: String
    let history: FaultHistory

    /// Follows until `done(lastPosition)` says to stop; returns the last position received.
    func follow(until done: (Int) -> Bool) -> Int {
        var last = 0, attempt = 0
        while !done(last) {
            let port = ports[attempt % ports.count]
            attempt += 1
            let start = history.now
            let ended = connection(port: port, after: last, until: done) { position, id in
                guard position > 0 else { return }
                history.record(["client": client, "op": "event", "position": position, "id": id, "start": start, "end": history.now])
                last = max(last, position)
            }
            history.record(["client": client, "op": "reconnect", "after": last, "start": start, "end": history.now, "why": ended])
            if !done(last) { Thread.sleep(forTimeInterval: 0.05) }
        }
        return last
    }

    /// One connection after `after` → why it ended.
    private func connection(port: Int, after: Int, until done: (Int) -> Bool, received: (Int, String) -> Void) -> String {
        guard let socket = try? RawSocket(port: port) else { return "refused" }
        let s = socket.fd
        // A read gives up after a second, so that `done` is asked even on a quiet stream.
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        socket.send(
            "GET /v1/accounts/\(account)/events/live HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAuthorization: Bearer \(token)\r\n"
                + "Last-Event-ID: \(after)\r\nAccept: text/event-stream\r\n\r\n")
        var raw: [UInt8] = [], body: [UInt8] = [], headersDone = false, chunked = false, last = after
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(s, $0.baseAddress, $0.count, 0) }
            // Asked after every read: a stream's keep-alives arrive more often than a read gives up.
            if done(last) { return "done" }
            if n < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { continue }
            if n <= 0 { return "closed" }
            raw += buffer[0..<n]
            if !headersDone {
                guard let end = Self.find([13, 10, 13, 10], in: raw) else { continue }
                let head = String(decoding: raw[0..<end], as: UTF8.self)
                guard head.hasPrefix("HTTP/1.1 200") else { return "answered \(head.prefix(12))" }
                chunked = head.lowercased().contains("transfer-encoding: chunked")
                raw.removeFirst(end + 4)
                headersDone = true
            }
            if chunked {
                body += Self.dechunk(&raw)
            } else {
                body += raw
                raw.removeAll()
            }
            // Whole SSE events: blocks ended by a blank line.
            var cursor = 0
            while let end = Self.find([10, 10], in: body, from: cursor) {
                let block = String(decoding: body[cursor..<end], as: UTF8.self)
                cursor = end + 2
                var position = 0, id = ""
                for line in block.split(separator: "\n") {
                    if line.hasPrefix("event: error") { return "error event" }
                    if line.hasPrefix("id: ") { position = Int(line.dropFirst(4)) ?? 0 }
                    if line.hasPrefix("data: "), let r = line.range(of: #""eventId":"[^"]+""#, options: .regularExpression) {
                        id = String(line[r].dropFirst(11).dropLast())
                    }
                }
                if position > 0 {
                    received(position, id)
                    last = position
                }
            }
            body.removeFirst(cursor)
        }
    }

    /// Takes the whole chunks from `raw` → their bytes.
    private static func dechunk(_ raw: inout [UInt8]) -> [UInt8] {
        var out: [UInt8] = [], cursor = 0
        while let lineEnd = find([13, 10], in: raw, from: cursor) {
            let size = Int(String(decoding: raw[cursor..<lineEnd], as: UTF8.self).split(separator: ";").first ?? "", radix: 16) ?? 0
            guard raw.count >= lineEnd + 2 + size + 2 else { break }
            out += raw[(lineEnd + 2)..<(lineEnd + 2 + size)]
            cursor = lineEnd + 2 + size + 2
        }
        raw.removeFirst(cursor)
        return out
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int = 0) -> Int? {
        guard bytes.count - start >= needle.count else { return nil }
        for i in start...(bytes.count - needle.count) where bytes[i] == needle[0] && bytes[i + 1] == needle[1] {
            if needle.count == 2 || Array(bytes[i..<(i + needle.count)]) == needle { return i }
        }
        return nil
    }
}
