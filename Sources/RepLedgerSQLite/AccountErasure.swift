import Foundation
import RepLedgerCore

/// Erasing the account on a device (DOMAIN.md §11): the ledger file with its
/// -wal, -shm and -journal files (snapshots live inside it), every file the
/// ledger exported, as its `ExportWritten` events name them, every
/// progress photo its `ProgressPhotoRecorded` events name, and the token file
/// its sync target names (a credential that opens the account on its server).
public enum AccountErasure {
    public struct Report: Sendable, Equatable {
        /// What was (or, for a plan, would be) removed, in order.
        public var removed: [String]
        public var events: Int64
        public var snapshots: Int64
        public var exports: Int
        public var photos: Int = 0
        /// The sync token file removed (or to be), if the ledger synced with one.
        public var tokenFile: String? = nil
        /// Exported files not removed, with why (moved, or changed since the ledger wrote them).
        public var left: [(path: String, reason: String)]

        public static func == (a: Report, b: Report) -> Bool {
            a.removed == b.removed && a.events == b.events && a.snapshots == b.snapshots && a.exports == b.exports && a.photos == b.photos
                && a.left.map(\.path) == b.left.map(\.path)
        }
    }

    /// The SHA-256 of a file's bytes, hex, as `ExportWritten` records it.
    public static func digest(ofFile path: String) -> String? {
        FileManager.default.contents(atPath: path).map { Digest.sha256(Array($0)).hex }
    }

    /// What erasing would remove, read without writing anything.
    public static func plan(path: String) throws -> Report {
        let store = try SQLiteEventStore(path: path, access: .readOnly)
        // The last record of each path says what it should hold now.
        var written: [String: ExportWritten] = [:]
        var order: [String] = []
        try store.read(EventQuery(stream: .exports)) { e in
            guard case .exportWritten(let x) = e.event else { return }
            if written[x.path] == nil { order.append(x.path) }
            written[x.path] = x
        }
        // A photo's file is the lifter's own: removed only while it holds the bytes recorded.
        var photos: [(path: String, sha256: String)] = []
        try store.read(EventQuery(stream: .body)) { e in
            if case .progressPhotoRecorded(let p) = e.event, !photos.contains(where: { $0.path == p.path }) { photos.append((p.path, p.sha256)) }
        }
        var exports: [String] = [], photoFiles: [String] = [], left: [(path: String, reason: String)] = []
        func check(_ p: String, _ sha256: String, into kept: inout [String], changed: String) {
            if !isFile(p) {
                left.append((p, "not there any more (moved or removed since it was recorded)"))
            } else if digest(ofFile: p) != sha256 {
                left.append((p, changed))
            } else {
                kept.append(p)
            }
        }
        for p in order { check(p, written[p]!.sha256, into: &exports, changed: "changed since the ledger wrote it: not ours to remove") }
        for p in photos { check(p.path, p.sha256, into: &photoFiles, changed: "not the photo recorded (changed since): not ours to remove") }
        let snapshots = (try? store.database.scalarInt("SELECT COUNT(*) FROM snapshots")) ?? 0
        let token = (try? store.syncState()).flatMap { $0 }.map(\.tokenFile).flatMap { isFile($0) ? $0 : nil }
        let files = [path, path + "-wal", path + "-shm", path + "-journal"]
        return Report(
            removed: exports + photoFiles + (token.map { [$0] } ?? []) + files.filter { FileManager.default.fileExists(atPath: $0) },
            events: try store.count(), snapshots: snapshots, exports: exports.count, photos: photoFiles.count, tokenFile: token, left: left)
    }

    /// Removes everything `plan` names. Each file is overwritten with zeros and synced before it
    /// is unlinked (best effort: a copy-on-write or flash medium may keep old blocks; see the README).
    public static func erase(path: String) throws -> Report {
        let report = try plan(path: path)
        for file in report.removed where FileManager.default.fileExists(atPath: file) {
            overwrite(file)
            try FileManager.default.removeItem(atPath: file)
        }
        return report
    }

    private static func isFile(_ path: String) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &directory) && !directory.boolValue
    }

    private static func overwrite(_ path: String) {
        guard let handle = FileHandle(forUpdatingAtPath: path) else { return }
        defer { try? handle.close() }
        guard let size = try? handle.seekToEnd(), (try? handle.seek(toOffset: 0)) != nil else { return }
        let block = Data(count: 1 << 16)
        var left = size
        while left > 0 {
            let n = Int(min(UInt64(block.count), left))
            guard (try? handle.write(contentsOf: block.prefix(n))) != nil else { return }
            left -= UInt64(n)
        }
        try? handle.synchronize()
    }
}
