import Foundation
import RepLedgerCore

/// Where a PostgreSQL database is: one or several hosts (a primary and its
/// standbys) sharing a user, a password and a database name, read from
/// libpq-style URLs.
///
/// `postgres://user:secret@primary:5432,standby:5433/repledger?target_session_attrs=read-write`
/// lists the hosts in one URL; several URLs naming the same user and
/// database (`--postgres A --postgres B`) list them too. A pool that writes
/// takes only a host that accepts writes (libpq's `read-write`), so after a
/// failover it finds the promoted standby by itself.
public struct PostgresLocation: Sendable, Equatable {
    public struct Host: Sendable, Equatable {
        public var name: String
        public var port: Int
        public init(name: String, port: Int = 5432) {
            self.name = name
            self.port = port
        }
    }

    /// Which hosts a connection may be made to.
    public enum Target: String, Sendable {
        /// A host that accepts writes (`target_session_attrs=read-write` or `primary`).
        case readWrite
        /// Any host that answers: a hot standby or the primary (for reads).
        case any
    }

    public enum Failure: Error, Equatable, CustomStringConvertible {
        case malformed(String)
        case mismatched(String)
        case unsupportedTarget(String)
        case unsupportedSSLMode(String)

        public var description: String {
            switch self {
            case .malformed(let url):
                return "\(url) is not a PostgreSQL URL such as postgres://USER:PASSWORD@HOST:5432[,HOST2:5432]/DATABASE"
            case .mismatched(let what):
                return "the PostgreSQL URLs of one database must name the same \(what)"
            case .unsupportedTarget(let value):
                return "target_session_attrs=\(value) is not supported here: the server writes, so it connects only to read-write (or primary) hosts"
            case .unsupportedSSLMode(let value):
                return "sslmode=\(value) is not supported here: connections are not encrypted, so only sslmode=disable, allow or prefer can be kept"
            }
        }
    }

    public var hosts: [Host]
    public var user: String
    public var password: String?
    public var database: String
    public var target: Target

    /// One URL, with one host or several. The password is the URL's (`user:PASSWORD@` or `?password=`),
    /// else `password` (`--postgres-password-file`), else libpq's `PGPASSWORD`, else the first matching
    /// line of libpq's password file (`PGPASSFILE`, or `~/.pgpass`): a password need not be on the command line.
    public init(
        url: String, target: Target = .readWrite, password fallback: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws {
        let scheme = ["postgres://", "postgresql://"].first { url.hasPrefix($0) }
        guard let scheme else { throw Failure.malformed(Self.redacted(url)) }
        var rest = Substring(url.dropFirst(scheme.count))
        var query = Substring("")
        if let q = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: q)...]
            rest = rest[..<q]
        }
        // [userinfo@]hosts/database: without a user, libpq's (PGUSER, else the system user), as in the
        // URL pg_auto_failover's monitor gives (`pg_autoctl show uri --formation default`).
        let at = rest.lastIndex(of: "@")
        let userinfo = at.map { rest[..<$0] } ?? ""
        var authority = at.map { rest[rest.index(after: $0)...] } ?? rest
        var path = Substring("")
        if let slash = authority.firstIndex(of: "/") {
            path = authority[authority.index(after: slash)...]
            authority = authority[..<slash]
        }
        let credentials = userinfo.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let named = String(credentials[0]).removingPercentEncoding ?? String(credentials[0])
        let user = at == nil ? environment["PGUSER"] ?? Self.systemUser() : named
        guard !user.isEmpty else { throw Failure.malformed(Self.redacted(url)) }
        self.user = user
        password = credentials.count == 2 ? (String(credentials[1]).removingPercentEncoding ?? String(credentials[1])) : nil
        hosts = try authority.split(separator: ",", omittingEmptySubsequences: false).map { try Self.host($0, url) }
        guard !hosts.isEmpty else { throw Failure.malformed(Self.redacted(url)) }
        let name = String(path).removingPercentEncoding ?? String(path)
        database = name.isEmpty ? user : name
        self.target = target
        for pair in query.split(separator: "&") where pair.hasPrefix("password=") {
            let value = String(pair.dropFirst("password=".count))
            password = value.removingPercentEncoding ?? value
        }
        if password == nil {
            password =
                fallback ?? environment["PGPASSWORD"]
                ?? Self.passwordFile(environment).flatMap { lines in
                    Self.matching(lines, host: hosts[0], database: database, user: user)
                }
        }
        for pair in query.split(separator: "&") where pair.hasPrefix("target_session_attrs=") {
            let value = String(pair.dropFirst("target_session_attrs=".count))
            switch (value, target) {
            case ("read-write", _), ("primary", _): self.target = .readWrite
            case ("any", .any), ("read-only", .any), ("standby", .any), ("prefer-standby", .any): self.target = .any
            default: throw Failure.unsupportedTarget(value)
            }
        }
        // Connections are plain: a mode that would only prefer TLS is kept, one that demands it is refused
        // rather than silently weakened.
        for pair in query.split(separator: "&") where pair.hasPrefix("sslmode=") {
            let value = String(pair.dropFirst("sslmode=".count))
            guard ["disable", "allow", "prefer"].contains(value) else { throw Failure.unsupportedSSLMode(value) }
        }
    }

    /// The name of the user this process runs as (libpq's default role).
    static func systemUser() -> String {
        guard let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name else { return "" }
        return String(cString: name)
    }

    /// Several URLs of one database (`--postgres` given more than once): their hosts in order.
    public init(urls: [String], target: Target = .readWrite, password: String? = nil) throws {
        guard let first = urls.first else { throw Failure.malformed("") }
        self = try PostgresLocation(url: first, target: target, password: password)
        for url in urls.dropFirst() {
            let other = try PostgresLocation(url: url, target: target, password: password)
            guard other.user == user, other.password == self.password else { throw Failure.mismatched("user and password") }
            guard other.database == database else { throw Failure.mismatched("database") }
            guard other.target == self.target else { throw Failure.mismatched("target_session_attrs") }
            hosts += other.hosts.filter { !hosts.contains($0) }
        }
    }

    /// Where, without the password: for messages and logs.
    public var description: String {
        "\(user)@\(hosts.map { "\($0.name):\($0.port)" }.joined(separator: ","))/\(database)"
    }

    /// `host`, `host:port` or `[v6]:port`.
    private static func host(_ text: Substring, _ url: String) throws -> Host {
        var name = text, port = 5432
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            name = text[text.index(after: text.startIndex)..<close]
            let after = text[text.index(after: close)...]
            if after.hasPrefix(":") {
                guard let p = Int(after.dropFirst()) else { throw Failure.malformed(redacted(url)) }
                port = p
            }
        } else if let colon = text.lastIndex(of: ":") {
            guard let p = Int(text[text.index(after: colon)...]) else { throw Failure.malformed(redacted(url)) }
            name = text[..<colon]
            port = p
        }
        guard !name.isEmpty, (1...65535).contains(port) else { throw Failure.malformed(redacted(url)) }
        return Host(name: String(name), port: port)
    }

    /// Text that may hold a URL, as it may be shown: any password replaced, whatever the URL's shape (a
    /// mistyped scheme included): after the user in `user:secret@`, and any query parameter naming a password.
    public static func redacted(_ text: String) -> String {
        var shown = text.replacingOccurrences(
            of: #"(?i)(password=)[^&\s]*"#, with: "$1…", options: .regularExpression)
        guard let at = shown.lastIndex(of: "@") else { return shown }
        let before = shown[..<at]
        // A scheme of any spelling followed by slashes (postgres://, postgres:/, postgresql:///) is not the user.
        let start = before.range(of: #"^[A-Za-z][A-Za-z0-9+.-]*:/+"#, options: .regularExpression)?.upperBound ?? before.startIndex
        if let colon = before[start...].firstIndex(of: ":") {
            shown = String(shown[...colon]) + "…" + String(shown[at...])
        }
        return shown
    }

    /// The lines of libpq's password file, when it exists and only its owner may read it (as libpq requires).
    static func passwordFile(_ environment: [String: String]) -> [Substring]? {
        guard let path = environment["PGPASSFILE"] ?? environment["HOME"].map({ $0 + "/.pgpass" }),
            let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            (attributes[.posixPermissions] as? Int ?? 0o777) & 0o077 == 0,
            let text = try? String(contentsOfFile: path, encoding: .utf8)
        else { return nil }
        return text.split(whereSeparator: \.isNewline)
    }

    /// The password of the first `host:port:database:user:password` line that matches (`*` matches anything).
    static func matching(_ lines: [Substring], host: Host, database: String, user: String) -> String? {
        for line in lines where !line.hasPrefix("#") {
            // Fields are split at unescaped colons; `\:` and `\\` stand for themselves.
            var fields: [String] = [], field = "", escaped = false
            for c in line {
                if escaped {
                    field.append(c)
                    escaped = false
                } else if c == "\\" {
                    escaped = true
                } else if c == ":" && fields.count < 4 {
                    fields.append(field)
                    field = ""
                } else {
                    field.append(c)
                }
            }
            fields.append(field)
            guard fields.count == 5 else { continue }
            let wanted = [host.name, String(host.port), database, user]
            if zip(fields.prefix(4), wanted).allSatisfy({ $0 == "*" || $0 == $1 }) { return fields[4] }
        }
        return nil
    }
}
