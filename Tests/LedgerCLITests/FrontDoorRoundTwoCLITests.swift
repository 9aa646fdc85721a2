import Foundation
import LedgerTestSupport
import Testing

/// The front door, round two: what a new user met next. Each test failed on
/// the release before these fixes.
@Suite("front door, round two: the demo's build, dates people type, the outputs seen most, units")
struct FrontDoorRoundTwoCLITests {
    /// Five years of one routine in Strong's 12-column layout, 2019 to 2023, recorded into the ledger today.
    static func history() -> String {
        var csv = "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE\n"
        for year in 2019...2023 {
            for month in [2, 6, 10] {
                let date = String(format: "%04d-%02d-10 18:00:00", year, month)
                let kg = 60 + Double(year - 2019) * 10 + Double(month)
                csv += "\(date),\"A\",1h,\"Squat (Barbell)\",1,\(kg),5,0,0,\"\",\"\",\n"
                csv += "\(date),\"A\",1h,\"Squat (Barbell)\",2,\(kg),5,0,0,\"\",\"\",\n"
            }
        }
        return csv
    }

    static func imported() throws -> LedgerProcess {
        let cli = try LedgerProcess()
        let file = cli.folder.appendingPathComponent("strong.csv")
        try history().write(to: file, atomically: true, encoding: .utf8)
        let out = try cli.run(["import", "strong", file.path, "--unit", "kg", "--timezone", "UTC"])
        #expect(out.status == 0, "\(out.stderr)")
        return cli
    }

    @Test("ledger builds without the server's packages: they are in ledger-server, which serve, server and sync run")
    func demoBuildsWithoutTheServer() throws {
        let ledger = try Data(contentsOf: LedgerProcess.binary)
        let server = try Data(contentsOf: LedgerProcess.binary.deletingLastPathComponent().appendingPathComponent("ledger-server"))
        for module in ["Hummingbird", "PostgresNIO", "AsyncHTTPClient", "NIOPosix"] {
            #expect(ledger.range(of: Data(module.utf8)) == nil, "ledger links \(module)")
            #expect(server.range(of: Data(module.utf8)) != nil, "ledger-server lacks \(module)")
        }
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        // The commands are typed as always, and help lists them.
        let help = try cli.run(["--help"], useDbFlag: false)
        #expect(help.stdout.contains("serve") && help.stdout.contains("sync") && help.stdout.contains("server"))
        let serve = try cli.run(["help", "serve"], useDbFlag: false)
        #expect(serve.status == 0 && serve.stdout.contains("USAGE: ledger serve") && serve.stdout.contains("--postgres"), "\(serve.stderr)")
        #expect(try cli.run(["workout", "start"]).status == 0)
        let status = try cli.run(["--json", "sync", "status"])
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.json?["pending"] as? Int ?? 0 > 0)
        let usage = try cli.run(["sync", "--bogus"])
        #expect(usage.status == 2)
    }

    @Test("Free's chart window says what it is, where the history is and what shows it; Pro asking about 2021 sees 2021")
    func chartWindow() throws {
        let cli = try Self.imported()
        defer { cli.cleanUp() }
        let free = try cli.run(["e1rm", "Squat (Barbell)"])
        #expect(free.status == 0)
        #expect(free.stdout.contains("Squat (Barbell): no sets in Free's chart window, the 30 days "), "\(free.stdout)")
        #expect(free.stdout.contains("Your history of it runs 2019-02-10 to 2023-10-10 (15 workouts): all-time charts come with Pro"))
        #expect(free.stdout.split(separator: "\n").count == 1)
        let json = try #require(try cli.run(["e1rm", "Squat (Barbell)", "--json"]).json)
        #expect((json["history"] as? [String: Any])?["workouts"] as? Int == 15)

        let now = Date()
        let iso = ISO8601DateFormatter()
        let bought = try cli.run([
            "purchase", "repledger_pro_annual", "--transaction", "pro-1",
            "--purchased", iso.string(from: now.addingTimeInterval(-86_400)),
            "--expires", iso.string(from: now.addingTimeInterval(300 * 86_400)),
        ])
        #expect(bought.status == 0, "\(bought.stderr)")
        let pro = try #require(try cli.run(["e1rm", "Squat (Barbell)", "--until", "2021-12", "--json"]).json)
        #expect(pro["chartWindow"] is NSNull, "the Free window came back for a training date before the purchase")
        #expect((pro["points"] as? [Any])?.count == 9)
        let volume = try #require(try cli.run(["volume", "--until", "2021-12", "--json"]).json)
        #expect(volume["chartWindow"] is NSNull)
    }

    @Test("a log time before the log began says so in one line and names --until; replay --until takes a time too")
    func logTimeAndTrainingTime() throws {
        let cli = try Self.imported()
        defer { cli.cleanUp() }
        let prs = try cli.run(["prs", "--as-of", "2021-06-30T20:00:00Z"])
        #expect(prs.status == 0)
        #expect(prs.stdout.contains("No records yet."))
        #expect(
            prs.stderr
                == "note: nothing was recorded in this log by 2021-06-30T20:00:00Z (it begins \(Self.today())), though it holds training from 2019-02-10: --as-of is when things were recorded; for training done by then, use --until 2021-06-30\n",
            "\(prs.stderr)")
        let until = try #require(try cli.run(["prs", "--until", "2021-06-30", "--json"]).json?["exercises"] as? [[String: Any]])
        #expect(until.first?["heaviestKg"] as? Double == 86)
        // A time inside the log, or a position, says nothing more.
        #expect(try cli.run(["prs", "--as-of", "3"]).stderr.isEmpty)

        let diff = try cli.run(["diff", "--from", "2021-10-01"])
        #expect(diff.status == 0)
        #expect(diff.stderr.hasPrefix("note: --from 2021-10-01T00:00:00"), "\(diff.stderr)")
        #expect(diff.stderr.contains("so this diff covers the whole log") && diff.stderr.contains("--until 2021-10-01"))
        #expect(diff.stderr.split(separator: "\n").count == 1)

        // replay --until: a position as before, or a time of the session.
        let all = try #require(try cli.run(["replay", "last", "--json"]).stdout.data(using: .utf8))
        let steps = try #require(try JSONSerialization.jsonObject(with: all) as? [[String: Any]])
        let byTime = try #require(try cli.run(["replay", "last", "--until", "2023-10-10T18:00:00Z", "--json"]).stdout.data(using: .utf8))
        let early = try #require(try JSONSerialization.jsonObject(with: byTime) as? [[String: Any]])
        #expect(!early.isEmpty && early.count < steps.count)
        let position = try #require(steps.first?["position"] as? Int)
        let byPosition = try cli.run(["replay", "last", "--until", String(position)])
        #expect(byPosition.status == 0 && byPosition.stdout.contains("After #\(position)"))
    }

    static func today() -> String {
        let f = DateFormatter()
        f.dateFormat = "yyyy-MM-dd"
        f.timeZone = TimeZone.current
        return f.string(from: Date())
    }

    @Test("repcount says when there is nothing to beat; summary gives one 🏆 line per set; 1 set; restores say they appended nothing")
    func mostSeenOutputs() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        #expect(try cli.run(["workout", "start", "--at", "2026-11-02T10:00:00Z"]).status == 0)
        #expect(
            try cli.run(["repcount", "last", "Bench Press (Barbell)"]).stdout
                == "Nothing to beat yet: no earlier workout of Bench Press (Barbell) to count against.\n")
        for (kg, reps, minute) in [(60, 5, 5), (70, 5, 8), (80, 3, 11)] {
            #expect(
                try cli.run([
                    "workout", "log", "last", "Bench Press (Barbell)", "--weight", "\(kg)kg", "--reps", "\(reps)",
                    "--at", "2026-11-02T10:\(String(format: "%02d", minute)):00Z",
                ]).status == 0)
        }
        #expect(try cli.run(["workout", "log", "last", "Pull Up", "--reps", "8", "--at", "2026-11-02T10:20:00Z"]).status == 0)
        #expect(try cli.run(["workout", "finish", "last", "--at", "2026-11-02T11:00:00Z"]).status == 0)
        let summary = try cli.run(["workout", "summary", "last"]).stdout
        let trophies = summary.split(separator: "\n").filter { $0.contains("🏆") }
        #expect(trophies.count == 4, "\(summary)")  // three sets and the session, not one line per record
        #expect(trophies[2] == "  🏆 Bench Press (Barbell), 80 kg × 3: heaviest 80 kg, e1RM 88 kg")
        #expect(summary.contains("  Pull Up: 1 set, 8 reps"))
        #expect(!summary.contains(" 1 sets"))
        let history = try cli.run(["history"]).stdout
        #expect(history.contains("· 4 sets ·"))

        #expect(try cli.run(["workout", "start", "--at", "2026-11-04T10:00:00Z"]).status == 0)
        #expect(
            try cli.run(["workout", "log", "last", "Bench Press (Barbell)", "--weight", "60kg", "--reps", "4", "--at", "2026-11-04T10:05:00Z"]).status
                == 0)
        #expect(try cli.run(["repcount", "last", "Bench Press (Barbell)"]).stdout == "+0 reps: no set has gone past last time's (2026-11-02) yet.\n")
        #expect(
            try cli.run(["workout", "log", "last", "Bench Press (Barbell)", "--weight", "70kg", "--reps", "7", "--at", "2026-11-04T10:10:00Z"]).status
                == 0)
        #expect(try cli.run(["repcount", "last", "Bench Press (Barbell)"]).stdout == "+2 reps over last time (2026-11-02)\n")
        // prs names a volume a volume: the best set's weight × reps is not "Best set".
        let header = try #require(try cli.run(["prs"]).stdout.split(separator: "\n").first)
        #expect(header.contains("Best set volume") && header.contains("Best session volume"), "\(header)")

        let purchase = [
            "purchase", "repledger_pro_annual", "--transaction", "t-1", "--purchased", "2026-11-01T00:00:00Z",
            "--expires", "2027-11-01T00:00:00Z",
        ]
        #expect(try cli.run(purchase).stdout == "Recorded repledger_pro_annual until 2027-11-01T00:00:00Z\n")
        let count = try cli.eventCount()
        let again = try cli.run(purchase)
        #expect(again.stdout == "Already recorded: transaction t-1 is in the ledger. Nothing appended.\n")
        #expect(try cli.eventCount() == count)
        #expect(try cli.run(purchase + ["--json"]).json?["recorded"] as? Bool == false)

        let demo = try LedgerProcess()
        defer { demo.cleanUp() }
        let tour = try demo.run(["demo"]).stdout
        let plan = try #require(tour.split(separator: "\n").first { $0.hasPrefix("Plan (`ledger entitlements`)") })
        #expect(plan.hasSuffix(".") && !plan.contains("upsell offered after"), "\(plan)")
        // The events the demo did not append are explained: the library, counted from the log.
        let appended = try #require(try demo.run(["demo", "--json"]).json)
        let library = try demo.run(["log", "--json", "--stream", "library"]).stdout.split(separator: "\n").count
        let held = try #require(tour.split(separator: "\n").first { $0.contains("The log holds") })
        #expect(held.contains("The log holds \(appended["events"] as? Int ?? -1) events (\(library) of them the exercise library"), "\(held)")
    }

    @Test("units as the lifter set them: a weigh-in in stone reads in stone, distances in miles, bodyweight work says bodyweight")
    func units() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        #expect(try cli.run(["body", "log", "--weight", "13st 2lb"]).stdout == "Weighed in at 13 st 2 lb\n")
        #expect(try cli.run(["body", "log", "--weight", "181lb"]).stdout == "Weighed in at 181 lb\n")

        #expect(try cli.run(["workout", "start", "--at", "2026-11-02T07:00:00Z"]).status == 0)
        #expect(
            try cli.run(["workout", "log", "last", "Running", "--distance", "3mi", "--duration", "25m", "--at", "2026-11-02T07:30:00Z"]).stdout
                .contains("5 km") == false)
        #expect(try cli.run(["workout", "log", "last", "Pull Up", "--reps", "8", "--at", "2026-11-02T07:40:00Z"]).status == 0)
        #expect(try cli.run(["workout", "finish", "last", "--at", "2026-11-02T08:00:00Z"]).status == 0)
        #expect(try cli.run(["history"]).stdout.contains("Running: 4.83 km in 25:00 (5:11 /km)"))
        let set = try cli.run(["settings", "distance", "mi", "--json"])
        #expect(set.json?["distance"] as? String == "mi")
        #expect(try cli.run(["history"]).stdout.contains("Running: 3 mi in 25:00 (8:20 /mi)"))
        #expect(try cli.run(["prs"]).stdout.contains("3 mi"))
        // The setting is part of the fold a snapshot keeps: answered from a snapshot, distances still read in miles.
        #expect(try cli.run(["snapshot", "create"]).status == 0)
        let fromSnapshot = try cli.run(["workout", "summary", "last", "--verbose"])
        #expect(fromSnapshot.stderr.contains("answered from snapshot"), "\(fromSnapshot.stderr)")
        #expect(fromSnapshot.stdout.contains("Running: 1 set, 3 mi in 25:00 (8:20 /mi)"), "\(fromSnapshot.stdout)")
        #expect(try cli.run(["settings", "distance", "furlongs"]).status == 1)

        #expect(try cli.run(["next", "Pull Up"]).stdout.hasPrefix("Pull Up: bodyweight × 9–12 "))
        #expect(
            try cli.run(["next", "Push Up"]).stdout.hasPrefix("Push Up: bodyweight × 8–12 (double: no session yet: bodyweight, aim for 12 reps)"))
        // A bodyweight exercise done with no load progresses by reps: never "+2.5 kg" for someone with no weights.
        #expect(try cli.run(["workout", "start", "--at", "2026-11-05T07:00:00Z"]).status == 0)
        for minute in ["05", "08", "11"] {
            #expect(try cli.run(["workout", "log", "last", "Push Up", "--reps", "12", "--at", "2026-11-05T07:\(minute):00Z"]).status == 0)
        }
        #expect(try cli.run(["workout", "finish", "last", "--at", "2026-11-05T07:20:00Z"]).status == 0)
        let pushUps = try cli.run(["next", "Push Up"]).stdout
        #expect(pushUps.hasPrefix("Push Up: bodyweight × 13–15 (double: every set reached 12 reps at bodyweight: aim for 13"), "\(pushUps)")
        #expect(!pushUps.contains("kg") && !pushUps.contains("lb"), "\(pushUps)")
        // A first session has an effort to choose the weight by, not "a weight of your choice".
        let firstBench = try cli.run(["next", "Bench Press (Barbell)"]).stdout
        #expect(firstBench.hasPrefix("Bench Press (Barbell): a weight at RPE 8 × 8–12"), "\(firstBench)")
        #expect(firstBench.contains("start at a weight you could lift 14 times, so 12 reps leave 2 in reserve (RPE 8)"))
        #expect(try cli.run(["next", "Bench Press (Barbell)", "--json"]).json?["rpe"] as? Double == 8)
    }
}
