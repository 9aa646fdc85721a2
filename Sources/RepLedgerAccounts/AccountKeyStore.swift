import Foundation
import RepLedgerCore

/// Each account's AES-GCM key, one file per account in a directory apart
/// from the events (`ledger serve --keys DIR`, default `DATA/keys`), and a
/// tombstone for each account erased. Destroying a key is what makes every
/// surviving copy of the account's rows (WAL, replica, an old backup)
/// unreadable; the tombstone is what lets a restored backup's rows be
/// recognised and refused (`410 erased`) instead of mistaken for a
/// misconfigured key store (`503`).
///
/// Files are written whole to a temporary name, fsynced, renamed into place
/// and the directory fsynced: a crash leaves the old file or the new one.
/// Nothing here caches: several server processes may share the directory.
public final class AccountKeyStore: Sendable {
    public let directory: String

    /// Why a key could not be had.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// The directory itself is missing or cannot be read.
        case unavailable(directory: String, reason: String)
        /// The account has no key here (and was not erased): another key store's, or one restored without it.
        case missingKey(account: String, directory: String)
        case unreadableKey(account: String, reason: String)
        /// The account was erased: its key is destroyed.
        case erased(account: String)
        case cannotWrite(directory: String, reason: String)

        public var description: String {
            switch self {
            case .unavailable(let d, let r):
                return "key store \(d) is unavailable (\(r)): no account can be read or written; mount it or point --keys at it"
            case .missingKey(let a, let d):
                return "key store \(d) has no key for account \(a), which was not erased: is --keys the directory this account was created with?"
            case .unreadableKey(let a, let r): return "the key of account \(a) cannot be read: \(r)"
            case .erased(let a): return "account \(a) was erased: its key is destroyed and its events can never be read"
            case .cannotWrite(let d, let r): return "key store \(d) cannot be written (\(r))"
            }
        }
    }

    static let magic: [UInt8] = Array("RLK1".utf8)

    /// Opens the key store at `directory`, creating it (mode 0700) when `create` is set.
    public init(directory: String, create: Bool) throws {
        self.directory = directory
        if create, !FileManager.default.fileExists(atPath: directory) {
            do {
                try FileManager.default.createDirectory(
                    atPath: directory, withIntermediateDirectories: true,
                    attributes: [.posixPermissions: 0o700])
            } catch {
                throw Failure.cannotWrite(directory: directory, reason: "\(error.localizedDescription)")
            }
        }
    }

    package func keyPath(_ account: String) -> String { "\(directory)/\(account).key" }
    func tombstonePath(_ account: String) -> String { "\(directory)/\(account).erased" }

    /// Checks the directory can be listed (a clear failure rather than a per-account one).
    public func checkAvailable() throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) else {
            throw Failure.unavailable(directory: directory, reason: "it does not exist")
        }
        guard isDirectory.boolValue else { throw Failure.unavailable(directory: directory, reason: "it is not a directory") }
        guard let dir = opendir(directory) else {
            throw Failure.unavailable(directory: directory, reason: String(cString: strerror(errno)))
        }
        closedir(dir)
    }

    /// A new key for a new account → its cipher. Refuses to replace a key or
    /// to revive an erased account.
    public func createKey(for account: String) throws -> PayloadCipher {
        try checkAvailable()
        if isErased(account) { throw Failure.erased(account: account) }
        let key = PayloadCipher.newKey()
        try writeWhole(Self.magic + key, to: keyPath(account), replacing: false)
        return try PayloadCipher(key: key)
    }

    /// The account's key, made now if it has none (sealing an account stored before encryption at rest).
    public func existingOrNewKey(for account: String) throws -> PayloadCipher {
        do {
            return try cipher(for: account)
        } catch Failure.missingKey {
            return try createKey(for: account)
        }
    }

    /// The account's cipher.
    public func cipher(for account: String) throws -> PayloadCipher {
        if isErased(account) { throw Failure.erased(account: account) }
        let path = keyPath(account)
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let reason = errno
            try checkAvailable()
            if reason == ENOENT { throw Failure.missingKey(account: account, directory: directory) }
            throw Failure.unreadableKey(account: account, reason: String(cString: strerror(reason)))
        }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: Self.magic.count + PayloadCipher.keyBytes + 1)
        let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard n == Self.magic.count + PayloadCipher.keyBytes, Array(bytes.prefix(Self.magic.count)) == Self.magic else {
            throw Failure.unreadableKey(
                account: account, reason: n < 0 ? String(cString: strerror(errno)) : "\(path) is not a RepLedger key (\(n) bytes)")
        }
        return try PayloadCipher(key: Array(bytes[Self.magic.count..<n]))
    }

    /// True once the account's erasure began (its tombstone is written).
    public func isErased(_ account: String) -> Bool {
        access(tombstonePath(account), F_OK) == 0
    }

    /// Erasure's first step: the tombstone is made durable, then the key is
    /// overwritten, fsynced and unlinked, and the directory fsynced. A crash
    /// in between leaves an erased account whose key `finishErasures` removes.
    /// → whether a key was destroyed now.
    @discardableResult
    public func destroyKey(of account: String, at time: Timestamp) throws -> Bool {
        try checkAvailable()
        try writeWhole(Array("erased at \(time.iso8601)\n".utf8), to: tombstonePath(account), replacing: true)
        return try removeKey(account)
    }

    /// Removes the key of an account that never came into use (no tombstone: the id was never seen).
    public func discardKey(of account: String) throws {
        _ = try removeKey(account)
    }

    /// Destroys the keys of accounts whose erasure a crash interrupted → their ids.
    public func finishErasures() throws -> [String] {
        try checkAvailable()
        let names = try FileManager.default.contentsOfDirectory(atPath: directory)
        var finished: [String] = []
        for name in names where name.hasSuffix(".erased") {
            let account = String(name.dropLast(".erased".count))
            if try removeKey(account) { finished.append(account) }
        }
        return finished
    }

    private func removeKey(_ account: String) throws -> Bool {
        let path = keyPath(account)
        guard FileManager.default.fileExists(atPath: path) else { return false }
        // Overwritten first: on a file system that rewrites in place the bytes are gone,
        // not only unlinked (copy-on-write and flash may keep them; see the README).
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        if fd >= 0 {
            let zeros = [UInt8](repeating: 0, count: Self.magic.count + PayloadCipher.keyBytes)
            _ = zeros.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            fsync(fd)
            close(fd)
        }
        guard unlink(path) == 0 || errno == ENOENT else {
            throw Failure.cannotWrite(directory: directory, reason: "removing \(path): \(String(cString: strerror(errno)))")
        }
        try syncDirectory()
        return true
    }

    /// Writes `bytes` to `path` whole: a temporary file, fsync, then rename (or
    /// link, which refuses an existing file), then the directory fsynced.
    private func writeWhole(_ bytes: [UInt8], to path: String, replacing: Bool) throws {
        let temporary = "\(directory)/.tmp-\(UUID().uuidString)"
        func fail(_ what: String) -> Failure {
            .cannotWrite(directory: directory, reason: "\(what): \(String(cString: strerror(errno)))")
        }
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw fail("creating a file") }
        defer { unlink(temporary) }
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        let synced = fsync(fd) == 0
        close(fd)
        guard written == bytes.count, synced else { throw fail("writing a file") }
        if replacing {
            guard rename(temporary, path) == 0 else { throw fail("renaming into place") }
        } else {
            guard link(temporary, path) == 0 else {
                if errno == EEXIST { throw Failure.cannotWrite(directory: directory, reason: "\(path) exists already; a key is never replaced") }
                throw fail("linking into place")
            }
        }
        try syncDirectory()
    }

    private func syncDirectory() throws { try Self.syncDirectory(directory) }

    /// Makes a rename or unlink in `directory` durable.
    static func syncDirectory(_ directory: String) throws {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw Failure.cannotWrite(directory: directory, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw Failure.cannotWrite(directory: directory, reason: "fsync: \(String(cString: strerror(errno)))") }
    }
}
