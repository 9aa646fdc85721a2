import Foundation
import LedgerTestSupport
import Testing

/// `ledger account erase` (DOMAIN.md §11) on a device.
@Suite("account erasure on a device")
struct DeviceErasureCLITests {
    static let marker = "zq-marker-\(UUID().uuidString.prefix(8))"

    func filesContaining(_ needle: String, under folder: URL) throws -> [String] {
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        return files.filter { url in
            guard let data = try? Data(contentsOf: url) else { return false }
            return data.range(of: Data(needle.utf8)) != nil
        }.map(\.path)
    }

    @Test("without --yes nothing is removed; with it the ledger, its snapshots and its exports go, and no trace of the data is left")
    func erase() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let m = Self.marker
        #expect(try cli.run(["exercise", "add", "Curl \(m)", "--muscle", "biceps"]).status == 0)
        #expect(try cli.run(["workout", "start", "--name", "Workout \(m)"]).status == 0)
        #expect(try cli.run(["workout", "log", "last", "Curl \(m)", "--reps", "10", "--weight", "20", "--notes", "note \(m)"]).status == 0)
        #expect(try cli.run(["workout", "finish", "last"]).status == 0)
        #expect(try cli.run(["snapshot", "create"]).status == 0)
        let exports = cli.folder.appendingPathComponent("exports")
        try FileManager.default.createDirectory(at: exports, withIntermediateDirectories: true)
        let jsonl = exports.appendingPathComponent("backup.jsonl").path, csv = exports.appendingPathComponent("history.csv").path
        let html = cli.folder.appendingPathComponent("report.html").path
        let changed = exports.appendingPathComponent("changed.csv").path, moved = exports.appendingPathComponent("moved.csv").path
        for (format, file) in [("jsonl", jsonl), ("csv", csv), ("csv", changed), ("csv", moved)] {
            #expect(try cli.run(["export", format, file]).status == 0)
        }
        #expect(try cli.run(["report", "--html", html]).status == 0)
        // A file the lifter changed after the export is no longer the ledger's to remove; a moved one cannot be found.
        try Data("someone else's notes\n".utf8).write(to: URL(fileURLWithPath: changed))
        let elsewhere = cli.folder.deletingLastPathComponent().appendingPathComponent("moved-\(UUID().uuidString).csv").path
        try FileManager.default.moveItem(atPath: moved, toPath: elsewhere)
        defer { try? FileManager.default.removeItem(atPath: elsewhere) }

        let before = try filesContaining(m, under: cli.folder)
        #expect(before.contains(cli.db) || before.contains(cli.db + "-wal"))
        let refused = try cli.run(["account", "erase"])
        #expect(refused.status == 1 && refused.stderr.contains("run again with --yes"))
        #expect(try filesContaining(m, under: cli.folder) == before)

        let out = try cli.run(["account", "erase", "--yes", "--json"])
        #expect(out.status == 0, "\(out.stderr)")
        let report = try #require(out.json)
        let removed = try #require(report["removed"] as? [String])
        for file in [jsonl, csv, html, cli.db] {
            #expect(removed.contains(URL(fileURLWithPath: file).standardizedFileURL.path) || removed.contains(file), "\(file)")
        }
        #expect(report["exports"] as? Int == 3)
        #expect((report["snapshots"] as? Int ?? 0) >= 1)
        #expect((report["events"] as? Int ?? 0) > 80)
        let left = (report["left"] as? [[String: Any]])?.compactMap { $0["path"] as? String } ?? []
        #expect(left.count == 2 && left.contains { $0.hasSuffix("changed.csv") } && left.contains { $0.hasSuffix("moved.csv") })

        #expect(try filesContaining(m, under: cli.folder).isEmpty)
        for suffix in ["", "-wal", "-shm"] { #expect(!FileManager.default.fileExists(atPath: cli.db + suffix)) }
        #expect(FileManager.default.fileExists(atPath: changed))
        // Nothing left to erase: a query now says there is no ledger.
        #expect(try cli.run(["prs"]).status == 4)
    }
}
