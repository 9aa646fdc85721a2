import Foundation
import LedgerTestSupport
import RepLedgerSQLite
import Testing

/// What the README tells a newcomer to run, run as written: the tour on the demo's ledger, the two
/// executables installed on PATH as the assistant's configuration runs them, and the questionnaire
/// and template list a newcomer reaches first.
@Suite("front door, round three: the README as written, installed binaries, the first answers")
struct FrontDoorRoundThreeCLITests {
    static let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("README.md")

    /// The README's tour: every `swift run ledger …` line of its "ten-line tour" block, as arguments.
    static func tour() throws -> [[String]] {
        let text = try String(contentsOf: readme, encoding: .utf8)
        let start = try #require(text.range(of: "## A ten-line tour"))
        let block = try #require(text[start.upperBound...].range(of: "```sh\n"))
        let end = try #require(text[block.upperBound...].range(of: "```"))
        return text[block.upperBound..<end.lowerBound].split(separator: "\n").compactMap { line in
            guard line.hasPrefix("swift run ledger ") else { return nil }
            let command = line.dropFirst("swift run ledger ".count).components(separatedBy: " #").first ?? ""
            return words(command)
        }
    }

    /// A shell's words: spaces split, double quotes group.
    static func words(_ line: String) -> [String] {
        var words: [String] = [], word = "", quoted = false, started = false
        for c in line {
            if c == "\"" {
                quoted.toggle()
                started = true
            } else if c == " " && !quoted {
                if started { words.append(word) }
                word = ""
                started = false
            } else {
                word.append(c)
                started = true
            }
        }
        if started { words.append(word) }
        return words
    }

    @Test("the README's tour runs as written on the demo's ledger, and its dated records are the demo's")
    func readmeTour() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        #expect(try cli.run(["demo"]).status == 0)
        // The tour imports a Strong export by this name: a small one, in pounds.
        let csv = """
            Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE
            2025-03-03 18:00:00,"Legs",1h,"Squat (Barbell)",1,225,5,0,0,"","",
            2025-03-03 18:00:00,"Legs",1h,"Squat (Barbell)",2,225,5,0,0,"","",

            """
        try csv.write(to: cli.folder.appendingPathComponent("strong_workouts.csv"), atomically: true, encoding: .utf8)
        let lines = try Self.tour()
        #expect(lines.count >= 10, "\(lines)")
        for args in lines {
            let out = try cli.run(args)
            #expect(out.status == 0, "ledger \(args.joined(separator: " ")): \(out.stderr)")
            if args.first == "prs" {
                #expect(!out.stdout.contains("No records yet") && out.stdout.contains("Bench Press (Barbell)"), "\(out.stdout.prefix(400))")
            }
        }
        #expect(FileManager.default.fileExists(atPath: cli.folder.appendingPathComponent("report.html").path))
    }

    @Test("installed on PATH as the user guide says, ledger finds ledger-server beside it: help and the assistant's MCP server answer")
    func installedOnPath() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let bin = cli.folder.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        for name in ["ledger", "ledger-server"] {
            try FileManager.default.copyItem(
                at: LedgerProcess.binary.deletingLastPathComponent().appendingPathComponent(name), to: bin.appendingPathComponent(name))
        }
        let path = bin.path + ":/usr/bin:/bin"
        let help = try Self.runOnPath(["help", "inspect"], path: path, folder: cli.folder, input: nil)
        #expect(help.status == 0 && help.stdout.contains("ledger-server"), "\(help.stderr)")

        // The README's MCP configuration: {"command": "ledger", "args": ["mcp", "--db", FILE]}.
        let initialize =
            #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"readme","version":"1"}}}"#
        let mcp = try Self.runOnPath(["mcp", "--db", cli.db], path: path, folder: cli.folder, input: initialize + "\n")
        #expect(mcp.stdout.contains(#""serverInfo""#) && mcp.stdout.contains(#""id":1"#), "\(mcp.stdout.prefix(400)) \(mcp.stderr.prefix(400))")
    }

    /// Runs `ledger ARGS` found on `path` (no SwiftPM build folder near it). With `input`, writes it and,
    /// as a client does, keeps stdin open until a line of answer came back, then closes it. Killed if it is
    /// still running after two minutes.
    static func runOnPath(_ args: [String], path: String, folder: URL, input: String?) throws -> (status: Int32, stdout: String, stderr: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["ledger"] + args
        p.environment = ["PATH": path, "HOME": folder.path]
        p.currentDirectoryURL = folder
        let stdin = Pipe(), stdout = Pipe()
        let errFile = folder.appendingPathComponent("stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: errFile.path, contents: nil)
        let stderr = try FileHandle(forWritingTo: errFile)
        p.standardInput = stdin
        p.standardOutput = stdout
        p.standardError = stderr
        try p.run()
        let pid = p.processIdentifier
        let watchdog = Thread {
            let deadline = Date().addingTimeInterval(120)
            while Date() < deadline, kill(pid, 0) == 0 { usleep(50_000) }
            if kill(pid, 0) == 0 { kill(pid, SIGKILL) }
        }
        watchdog.start()
        var out = Data()
        if let input {
            stdin.fileHandleForWriting.write(Data(input.utf8))
            while !out.contains(UInt8(ascii: "\n")) {
                let chunk = stdout.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                out.append(chunk)
            }
        }
        try stdin.fileHandleForWriting.close()
        out.append(stdout.fileHandleForReading.readDataToEndOfFile())
        p.waitUntilExit()
        try stderr.close()
        let err = (try? String(contentsOf: errFile, encoding: .utf8)) ?? ""
        return (p.terminationStatus, String(decoding: out, as: UTF8.self), err)
    }

    @Test("the questionnaire takes full-gym, and every equipment word is spelled as the errors spell it")
    func questionnaireEquipment() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let gym = try cli.run([
            "program", "questionnaire", "--days", "4", "--minutes", "75", "--experience", "intermediate", "--equipment", "full-gym",
        ])
        #expect(gym.status == 0, "\(gym.stderr)")
        let program = try cli.run(["program", "generate", "--seed", "3", "--json"])
        #expect(program.status == 0, "\(program.stderr)")
        let names = ((program.json?["sessions"] as? [[String: Any]]) ?? []).flatMap { ($0["exercises"] as? [[String: Any]]) ?? [] }
            .compactMap { $0["name"] as? String }
        #expect(names.contains { $0.contains("(Barbell)") } && names.contains { $0.contains("(Cable)") || $0.contains("(Machine)") }, "\(names)")

        let unknown = try cli.run(["program", "questionnaire", "--days", "3", "--minutes", "60", "--experience", "beginner", "--equipment", "gym"])
        #expect(unknown.status == 1 && unknown.stderr.contains("full-gym") && unknown.stderr.contains("smith-machine"))
        let help = try cli.run(["program", "questionnaire", "--help"], useDbFlag: false)
        let flat = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(flat.contains("smith-machine") && !flat.contains("smithMachine") && flat.contains("full-gym"), "\(help.stdout)")
    }

    @Test("template list on the demo lists the routines workout start --template takes")
    func demoRoutines() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        #expect(try cli.run(["demo"]).status == 0)
        let list = try #require(try cli.run(["template", "list", "--json"]).json)
        let routines = try #require(list["routines"] as? [[String: Any]])
        #expect(Set(routines.compactMap { $0["name"] as? String }) == ["Upper A", "Upper B", "Lower A", "Lower B"])
        #expect(routines.allSatisfy { $0["imported"] as? Bool == false && $0["importedFrom"] is NSNull })
        let text = try cli.run(["template", "list"])
        #expect(text.stdout.contains("Upper A") && text.stdout.contains("Logged here"), "\(text.stdout)")
        #expect(try cli.run(["workout", "start", "--template", "Upper A"]).status == 0)
    }

    @Test("Free's chart window names what it hides, and how to see it, in volume, e1rm and the report, in text and JSON")
    func hiddenHistoryIsNamed() throws {
        let cli = try FrontDoorRoundTwoCLITests.imported()
        defer { cli.cleanUp() }
        // Five years, three workouts a year, all long before the window.
        let text = try cli.run(["volume", "--by", "week"])
        #expect(text.status == 0)
        #expect(text.stdout.contains("hides 15 workouts from 2019-02-10 to 2023-10-10"), "\(text.stdout)")
        #expect(text.stdout.contains("`--until 2023-10-10`") && text.stdout.contains("repledger_pro_monthly") && !text.stdout.contains("Week"))
        let json = try #require(try cli.run(["volume", "--by", "week", "--json"]).json)
        let hidden = try #require(json["hidden"] as? [String: Any])
        #expect(hidden["workouts"] as? Int == 15 && (hidden["from"] as? String)?.hasPrefix("2019-02-10") == true)
        // The way it names shows the last window of that history on Free.
        let until = try cli.run(["volume", "--by", "week", "--until", "2023-10-10"])
        #expect(until.stdout.contains("2023-W41") && until.stdout.contains("hides 14 workouts"), "\(until.stdout)")

        let e1rm = try #require(try cli.run(["e1rm", "squat", "--until", "2023-10-10", "--json"]).json)
        #expect((e1rm["points"] as? [Any])?.count == 1 && (e1rm["hidden"] as? [String: Any])?["workouts"] as? Int == 14)
        let e1rmText = try cli.run(["e1rm", "squat"])
        #expect(e1rmText.stdout.contains("`--until 2023-10-10`"), "\(e1rmText.stdout)")

        let report = cli.folder.appendingPathComponent("report.html").path
        let made = try #require(try cli.run(["report", "--html", report, "--json"]).json)
        #expect((made["hidden"] as? [String: Any])?["workouts"] as? Int == 15)
        let page = try String(contentsOfFile: report, encoding: .utf8)
        #expect(page.contains(#"id="hidden""#) && page.contains("hides 15 workouts"))

        // On Pro nothing is hidden, and nothing says so.
        #expect(
            try cli.run([
                "purchase", "repledger_pro_annual", "--transaction", "t1", "--purchased", "2026-01-01T00:00:00Z", "--expires", "2099-01-01T00:00:00Z",
            ]).status == 0)
        let pro = try #require(try cli.run(["volume", "--by", "week", "--json"]).json)
        #expect(pro["hidden"] is NSNull && (pro["rows"] as? [Any])?.count == 15)
    }

    @Test("history pages a long history with its total; a fresh ledger's lists say what fills them; bars start at zero")
    func outputsALifterReads() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        // A fresh ledger (a setting makes the file): each empty answer says what fills it.
        #expect(try cli.run(["settings", "unit", "kg"]).status == 0)
        #expect(try cli.run(["volume"]).stdout.contains("`ledger workout log` records a set"))
        #expect(try cli.run(["exercise", "list", "--recent"]).stdout.contains("Nothing done yet"))
        #expect(try cli.run(["exercise", "list", "--favourites"]).stdout.contains("`ledger exercise favourite EXERCISE`"))

        #expect(try cli.run(["demo"]).status == 0, "the demo on a ledger holding only a setting")
        let first = try cli.run(["history"])
        let total = try #require((try cli.run(["history", "--json"]).json?["workouts"] as? [Any])?.count)
        #expect(total > 10)
        #expect(first.stdout.components(separatedBy: "\n").filter { $0.hasPrefix("  20") }.count == 10)
        #expect(
            first.stdout.contains("Workouts 1–10 of \(total), newest first: `ledger history --offset 10` shows the next 10"),
            "\(first.stdout.suffix(300))")
        let last = try cli.run(["history", "--offset", "\(total - 2)"])
        #expect(last.stdout.contains("Workouts \(total - 1)–\(total) of \(total), newest first."), "\(last.stdout.suffix(200))")

        // Bars from zero: two close values get bars of close lengths.
        let bars = try cli.run(["e1rm", "bench", "--until", "2026-10-01"]).stdout.split(separator: "\n").filter { $0.contains("█") }
        let lengths = bars.map { $0.filter { $0 == "█" }.count }
        #expect(lengths.count > 1 && lengths.min()! * 10 >= lengths.max()! * 7, "\(bars)")

        // A workout in progress says how long it has run.
        let started = try cli.run(["workout", "start", "--json"])
        #expect(started.status == 0, "\(started.stderr)")
        #expect(try cli.run(["workout", "summary", "last"]).stdout.contains("min so far"))
        #expect(try cli.run(["history", "--limit", "1"]).stdout.contains("in progress, started"))
    }

    @Test("account erase removes the sync token file with the rest, and says so")
    func eraseTakesTheTokenFile() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        #expect(try cli.run(["demo"]).status == 0)
        let token = cli.folder.appendingPathComponent("ledger.sqlite.token").path
        try "a-token".write(toFile: token, atomically: true, encoding: .utf8)
        // The sync target is written as `ledger sync URL --token-file` writes it, without reaching a server.
        let store = try SQLiteEventStore(path: cli.db)
        try store.saveSyncTarget(remote: "http://127.0.0.1:9", account: UUID().uuidString.lowercased(), tokenFile: token)
        let plan = try cli.run(["account", "erase"])
        #expect(plan.status == 1 && FileManager.default.fileExists(atPath: token))
        let erased = try #require(try cli.run(["account", "erase", "--yes", "--json"]).json)
        #expect(erased["tokenFile"] as? String == token && (erased["removed"] as? [String])?.contains(token) == true)
        #expect(!FileManager.default.fileExists(atPath: token) && !FileManager.default.fileExists(atPath: cli.db))
    }
}
