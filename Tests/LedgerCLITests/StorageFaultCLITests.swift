import Foundation
import LedgerTestSupport
import RepLedgerCore
import Testing

/// Real storage faults: a full disk (a small tmpfs filled up), a read-only
/// medium (a read-only bind mount) and damaged pages. Every exit-4 error is
/// one line that says what happened and what to do.
enum Mounts {
    @discardableResult
    static func run(_ args: [String]) -> Int32 {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/mount")
        p.arguments = args
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return -1 }
        p.waitUntilExit()
        return p.terminationStatus
    }

    static func unmount(_ path: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/umount")
        p.arguments = [path]
        try? p.run()
        p.waitUntilExit()
    }

    /// Mounting needs root with CAP_SYS_ADMIN (CI has it); probed once with a tiny tmpfs.
    static let available: Bool = {
        let probe = FileManager.default.temporaryDirectory.appendingPathComponent("mount-probe-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: probe, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: probe) }
        guard run(["-t", "tmpfs", "-o", "size=64k", "tmpfs", probe]) == 0 else { return false }
        unmount(probe)
        return true
    }()
}

func expectOneLine(_ out: LedgerProcess.Output, _ needle: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(out.status == 4, "\(out.stderr)", sourceLocation: sourceLocation)
    #expect(out.stderr.hasPrefix("error: ") && out.stderr.split(separator: "\n").count == 1, "\(out.stderr)", sourceLocation: sourceLocation)
    #expect(out.stderr.contains(needle), "\(out.stderr)", sourceLocation: sourceLocation)
    for sql in ["INSERT", "SELECT", "CREATE", "PRAGMA", "SQLite code"] {
        #expect(!out.stderr.contains(sql), "\(out.stderr)", sourceLocation: sourceLocation)
    }
}

@Suite("storage faults: full disk, read-only medium, damaged pages", .serialized)
struct StorageFaultCLITests {
    @Test(
        "a full disk: the append fails in one line with nothing written; queries and verify still answer; freeing space recovers",
        .enabled(if: Mounts.available, "mount is not permitted here (needs root with CAP_SYS_ADMIN)"))
    func fullDisk() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let disk = cli.folder.appendingPathComponent("disk").path
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
        #expect(Mounts.run(["-t", "tmpfs", "-o", "size=2m", "tmpfs", disk]) == 0)
        defer { Mounts.unmount(disk) }
        let db = disk + "/ledger.sqlite"
        func run(_ args: [String]) throws -> LedgerProcess.Output { try cli.run(args + ["--db", db], useDbFlag: false) }
        #expect(try run(["workout", "start"]).status == 0)
        let events = try run(["log", "--json"]).stdout.split(separator: "\n").count

        // Fill the disk.
        let filler = disk + "/filler"
        #expect(FileManager.default.createFile(atPath: filler, contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: filler))
        let block = Data(count: 64 * 1024)
        while (try? handle.write(contentsOf: block)) != nil {}
        try? handle.close()

        expectOneLine(
            try run(["workout", "log", "last", "deadlift", "--reps", "5", "--weight", "100"]),
            "the disk is full: free space and retry; nothing was written")
        let verified = try run(["verify", "--json"])
        #expect(verified.status == 0, "\(verified.stderr)")
        #expect(verified.json?["events"] as? Int == events)
        #expect(try run(["prs"]).status == 0)

        try FileManager.default.removeItem(atPath: filler)
        #expect(try run(["workout", "log", "last", "deadlift", "--reps", "5", "--weight", "100"]).status == 0)
        #expect(try run(["verify"]).status == 0)
    }

    @Test(
        "a read-only medium: verify and queries answer, a recording command says read-only, the file is unchanged",
        .enabled(if: Mounts.available, "mount is not permitted here (needs root with CAP_SYS_ADMIN)"))
    func readOnlyMedium() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        #expect(try cli.run(["demo"]).status == 0)
        let source = URL(fileURLWithPath: cli.db).deletingLastPathComponent().path
        let view = cli.folder.deletingLastPathComponent().appendingPathComponent("ro-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: view, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: view) }
        #expect(Mounts.run(["--bind", source, view]) == 0)
        defer { Mounts.unmount(view) }
        #expect(Mounts.run(["-o", "remount,bind,ro", view]) == 0)
        let db = view + "/" + URL(fileURLWithPath: cli.db).lastPathComponent
        let before = try Data(contentsOf: URL(fileURLWithPath: cli.db))
        func run(_ args: [String]) throws -> LedgerProcess.Output { try cli.run(args + ["--db", db], useDbFlag: false) }

        let verified = try run(["verify", "--json"])
        #expect(verified.status == 0 && verified.json?["ok"] as? Bool == true, "\(verified.stderr)")
        #expect(try run(["prs", "--json"]).json?["exercises"] is [Any])
        #expect(try run(["history", "--limit", "1"]).status == 0)
        expectOneLine(try run(["workout", "start"]), "the ledger file is read-only")
        expectOneLine(try run(["snapshot", "create"]), "read-only")
        #expect(try Data(contentsOf: URL(fileURLWithPath: cli.db)) == before)
    }

    @Test("damaged pages: queries fail in one line naming the damage and what to do, never SQL or raw bytes")
    func damagedPages() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        #expect(try cli.run(["demo"]).status == 0)
        // The demo's process checkpointed its WAL on exit: the log is in the main file. Overwrite pages in its middle.
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: cli.db))
        let size = try handle.seekToEnd()
        try handle.seek(toOffset: size / 2 - size / 2 % 4096)
        try handle.write(contentsOf: Data(repeating: 0xA5, count: 3 * 4096))
        try handle.close()
        for args in [["history"], ["log", "--json"], ["prs"]] {
            let out = try cli.run(args)
            #expect(out.status == 4, "\(args): \(out.status) \(out.stderr)")
            #expect(out.stderr.split(separator: "\n").count == 1, "\(args): \(out.stderr)")
            #expect(out.stderr.contains("damaged") && out.stderr.contains("ledger verify"), "\(args): \(out.stderr)")
            #expect(!out.stderr.contains("SELECT") && !out.stderr.contains("\u{FFFD}"), "\(args): \(out.stderr)")
        }
        let verify = try cli.run(["verify"])
        #expect(verify.status == 3 || verify.status == 4)
    }
}
