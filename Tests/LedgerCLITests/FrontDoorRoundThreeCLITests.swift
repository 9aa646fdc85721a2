import Foundation
import LedgerTestSupport
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

    @Test("installed on PATH as the README says, ledger finds ledger-server beside it: help and the assistant's MCP server answer")
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
        let initialize = #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"readme","version":"1"}}}"#
        let mcp = try Self.runOnPath(["mcp", "--db", cli.db], path: path, folder: cli.folder, input: initialize + "\n")
        #expect(mcp.stdout.contains(#""serverInfo""#) && mcp.stdout.contains(#""id":1"#), "\(mcp.stdout.prefix(400)) \(mcp.stderr.prefix(400))")
    }

    /// Runs `ledger ARGS` found on `path` (no SwiftPM build folder near it), with `input` on stdin then closed;
    /// killed if it is still running after two minutes.
    static func runOnPath(_ args: [String], path: String, folder: URL, input: String?) throws -> (status: Int32, stdout: String, stderr: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["ledger"] + args
        p.environment = ["PATH": path, "HOME": folder.path]
        p.currentDirectoryURL = folder
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
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
        if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
        try stdin.fileHandleForWriting.close()
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }

    @Test("the questionnaire takes full-gym, and every equipment word is spelled as the errors spell it")
    func questionnaireEquipment() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let gym = try cli.run(["program", "questionnaire", "--days", "4", "--minutes", "75", "--experience", "intermediate", "--equipment", "full-gym"])
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
}
