import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A TCP proxy of the fault run's own between clients and a server on
/// loopback (or a server and PostgreSQL): the network faults a machine whose
/// kernel has no `netem` can still have. Each connection meets one
/// fate: passed on, delayed, its request dropped before the server sees it,
/// its answer dropped after the server acted (so the client retries what was
/// stored), or cut a moment later whatever it is doing (a database connection
/// lost mid-query). HTTP clients send one request a connection
/// (`Connection: close`), so a connection's fate is its request's.
final class FaultProxy: @unchecked Sendable {
    enum Fate: String, CaseIterable {
        case passed, delayed
        case requestDropped = "request dropped"
        case answerDropped = "answer dropped after the server acted"
        case cutLater = "cut 0.2 to 3 s after it opened"
    }

    let port: Int
    private let target: Int
    private let listener: Int32
    private let choose: @Sendable () -> Fate
    private let lock = NSLock()
    /// Open sockets, each with its connection's number (a socket's number is reused once it is closed).
    private var open: [Int32: Int] = [:]
    private var connections = 0
    private var stopped = false
    private var fates: [Fate: Int] = [:]
    private var healed: Bool

    /// A proxy on a free loopback port to `target`; `choose` gives each connection its fate.
    /// `healed`: every connection passes until `harm()`.
    init(to target: Int, healed: Bool = false, choose: @escaping @Sendable () -> Fate) throws {
        self.target = target
        self.choose = choose
        self.healed = healed
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = Self.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 64) == 0 else {
            close(fd)
            throw ServerFailure.cli("the fault proxy could not listen: errno \(errno)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread { [self] in acceptLoop() }.start()
    }

    var base: String { "http://127.0.0.1:\(port)" }

    /// How many connections met each fate.
    var counts: [Fate: Int] { lock.withLock { fates } }

    /// From now on every connection passes.
    func heal() { lock.withLock { healed = true } }

    /// From now on connections meet the fates `choose` gives.
    func harm() { lock.withLock { healed = false } }

    /// Stops accepting and cuts every open connection.
    func stop() {
        lock.withLock {
            stopped = true
            for s in open.keys { shutdown(s, Int32(SHUT_RDWR)) }
        }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return
            }
            let chosen = choose()
            let (connection, fate) = lock.withLock { () -> (Int?, Fate) in
                let fate = healed ? .passed : chosen
                guard !stopped else { return (nil, fate) }
                fates[fate, default: 0] += 1
                connections += 1
                open[client] = connections
                return (connections, fate)
            }
            guard let connection else {
                close(client)
                return
            }
            Thread { [self] in serve(client, connection, fate) }.start()
        }
    }

    private func serve(_ client: Int32, _ connection: Int, _ fate: Fate) {
        defer { release(client) }
        if fate == .requestDropped { return }
        if fate == .delayed { Thread.sleep(forTimeInterval: Double.random(in: 0.1...1.0)) }
        let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard server >= 0 else { return }
        lock.withLock { open[server] = connection }
        defer { release(server) }
        if fate == .cutLater {
            Thread { [self] in
                Thread.sleep(forTimeInterval: Double.random(in: 0.2...3))
                lock.withLock {
                    for s in [client, server] where open[s] == connection { shutdown(s, Int32(SHUT_RDWR)) }
                }
            }.start()
        }
        var address = Self.loopback(port: target)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        // A server down (killed, not yet started again): the client sees its connection closed.
        guard connected == 0 else { return }
        let upstreamDone = DispatchSemaphore(value: 0)
        Thread {
            Self.pump(from: client, to: server, forward: true)
            shutdown(server, Int32(SHUT_WR))
            upstreamDone.signal()
        }.start()
        // The answer: passed on, or, once the server has begun it (so it acted), dropped with the connection.
        Self.pump(from: server, to: client, forward: fate != .answerDropped, stopAtFirstByte: fate == .answerDropped)
        shutdown(client, Int32(SHUT_RDWR))
        shutdown(server, Int32(SHUT_RDWR))
        // Both sockets stay open until the other direction's thread is done with them: a number closed
        // while it still reads would be given to the next file opened (a process's pipe) and read from.
        upstreamDone.wait()
    }

    /// Copies bytes until the reading side ends (or, with `stopAtFirstByte`, until some arrive).
    private static func pump(from source: Int32, to sink: Int32, forward: Bool, stopAtFirstByte: Bool = false) {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(source, $0.baseAddress, $0.count, 0) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 || stopAtFirstByte { return }
            guard forward else { continue }
            var sent = 0
            while sent < n {
                let m = buffer.withUnsafeBytes { send(sink, $0.baseAddress! + sent, n - sent, Int32(MSG_NOSIGNAL)) }
                if m < 0, errno == EINTR { continue }
                if m <= 0 { return }
                sent += m
            }
        }
    }

    private func release(_ socket: Int32) {
        lock.withLock {
            open[socket] = nil
            close(socket)
        }
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}
