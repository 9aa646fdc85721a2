import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A raw TCP connection to the server, for what an HTTP client will not send.
/// Sendable so a blocking read can wait on a thread of its own; one thread uses it at a time.
final class RawSocket: @unchecked Sendable {
    let fd: Int32

    /// `from`: the loopback address to connect from (127.0.0.0/8 is all the machine's), to act as many clients.
    init(port: Int, from source: String? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else { throw ServerFailure.cli("bind to \(source) failed: \(errno)") }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw ServerFailure.cli("connect failed: \(errno)") }
    }

    deinit { close(fd) }

    /// Whether `text` holds a response's head, or its head and whole body when it gives a Content-Length.
    static func wholeResponse(_ text: String) -> Bool {
        guard let end = text.range(of: "\r\n\r\n") else { return false }
        let head = text[..<end.lowerBound].lowercased()
        guard let line = head.split(separator: "\r\n").first(where: { $0.hasPrefix("content-length:") }),
            let length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces))
        else { return true }
        return text[end.upperBound...].utf8.count >= length
    }

    /// Whether `text` holds a response's head (a stream's answer, whose body never ends).
    static func responseHead(_ text: String) -> Bool { text.contains("\r\n\r\n") }

    /// Sends every byte of `text`, a NUL included.
    func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBufferPointer { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Whether the server has answered (or closed) already, without waiting.
    var hasAnswer: Bool {
        var byte: UInt8 = 0
        let n = recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return n >= 0 || (errno != EAGAIN && errno != EWOULDBLOCK)
    }

    /// Reads until the server closes the connection, `done` holds of what
    /// arrived, or `seconds` pass → what arrived and whether it closed.
    func read(for seconds: Double, until done: (String) -> Bool = { _ in false }) -> (text: String, closed: Bool) {
        var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n == 0 { return (String(decoding: data, as: UTF8.self), true) }
            if n > 0 {
                data += buffer[0..<n]
                if done(String(decoding: data, as: UTF8.self)) { return (String(decoding: data, as: UTF8.self), false) }
            } else if errno != EAGAIN && errno != EWOULDBLOCK {
                return (String(decoding: data, as: UTF8.self), true)
            }
        }
        return (String(decoding: data, as: UTF8.self), false)
    }
}

extension RawSocket {
    /// A push of 1,000 bytes whose body stops after its first 11 (`{"events":[`): it holds one of the account's
    /// requests in progress until the rest is sent (`String(repeating: " ", count: 989)` ends it, answered).
    static func unfinishedPush(_ server: ServerProcess, account: ServerProcess.Account) throws -> RawSocket {
        let socket = try RawSocket(port: server.port)
        socket.send(
            "POST /v1/accounts/\(account.id)/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(account.token)\r\n"
                + "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"events\":[")
        return socket
    }
}
