import Foundation
import LedgerTestSupport
import Testing

/// Garmin's own FIT SDK (PyPI `garmin-fit-sdk`), run by `Tests/Clients/fit_check.py`. `.ci/run` installs it in a
/// virtualenv and names its Python in `REPLEDGER_FIT_PYTHON`; without it these tests are skipped unless
/// `REPLEDGER_REQUIRE_FIT_SDK=1`. The real exports' check (`RealExportsCLITests.check`) runs it on every
/// workout of each of the 42 files it imports.
enum GarminFITSDK {
    static let python = PythonClient.python("REPLEDGER_FIT_PYTHON")
    static var required: Bool { ProcessInfo.processInfo.environment["REPLEDGER_REQUIRE_FIT_SDK"] == "1" }
    static let available = PythonClient.imports("garmin_fit_sdk", python: python)
    struct Failure: Error, CustomStringConvertible { var description: String }

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Clients/fit_check.py").path

    /// Each .fit file of the folder as the SDK reads it.
    static func decode(_ folder: URL) throws -> [String: [String: Any]] {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = [python, script, folder.path]
        let out = folder.appendingPathComponent("decoded.json"), err = folder.appendingPathComponent("decoded.log")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        p.standardOutput = try FileHandle(forWritingTo: out)
        p.standardError = try FileHandle(forWritingTo: err)
        try p.run()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else {
            throw Failure(description: "fit_check.py: " + ((try? String(contentsOf: err, encoding: .utf8)) ?? ""))
        }
        return try #require(JSONSerialization.jsonObject(with: Data(contentsOf: out)) as? [String: [String: Any]])
    }

    /// Every workout of the ledger's history against its FIT file: one file each, whole (integrity and CRC),
    /// a strength-training session, and the sets in history's order with their reps and weights (within FIT's 1/16 kg)
    /// under a category Garmin documents.
    static func check(_ cli: LedgerProcess, name: String) throws {
        let folder = cli.folder.appendingPathComponent("fit-\(UUID().uuidString)")
        let wrote = try cli.run(["export", "fit", folder.path, "--json"])
        #expect(wrote.status == 0, "\(wrote.stderr)")
        let decoded = try decode(folder)
        let history = try #require(try cli.run(["history", "--json", "--limit", "100000"]).json?["workouts"] as? [[String: Any]])
        #expect(decoded.count == history.count, "\(name)")
        #expect(wrote.json?["workouts"] as? Int == history.count)
        let byShortId = Dictionary(decoded.map { (String($0.key.dropLast(4).suffix(8)), $0.value) }, uniquingKeysWith: { a, _ in a })
        let documented: Set<String> = [
            "bench_press", "calf_raise", "cardio", "carry", "chop", "core", "crunch", "curl", "deadlift", "flye", "hip_raise",
            "hip_stability", "hip_swing", "hyperextension", "lateral_raise", "leg_curl", "leg_raise", "lunge", "olympic_lift", "plank",
            "plyo", "pull_up", "push_up", "row", "shoulder_press", "shoulder_stability", "shrug", "sit_up", "squat", "total_body",
            "triceps_extension", "warm_up", "run", "bike", "elliptical", "indoor_row", "sled", "stair_stepper",
        ]
        var checked = 0
        for w in history {
            let id = String((w["workoutId"] as? String ?? "").prefix(8))
            guard let file = byShortId[id] else {
                Issue.record("\(name): no FIT file for workout \(id)")
                continue
            }
            #expect(file["isFit"] as? Bool == true && file["integrity"] as? Bool == true, "\(name) \(id)")
            #expect((file["errors"] as? [Any])?.isEmpty == true, "\(name) \(id): \(file["errors"] ?? "")")
            #expect(file["fileType"] as? String == "activity")
            let sessions = file["sessions"] as? [[String: Any]] ?? []
            #expect(
                sessions.count == 1 && sessions.first?["sport"] as? String == "training"
                    && sessions.first?["subSport"] as? String == "strength_training")
            let expected = (w["exercises"] as? [[String: Any]] ?? []).flatMap { $0["sets"] as? [[String: Any]] ?? [] }
            let sets = file["sets"] as? [[String: Any]] ?? []
            #expect(sets.count == expected.count, "\(name) \(id): \(sets.count) sets in the file, \(expected.count) in history")
            for (got, want) in zip(sets, expected) {
                #expect(got["reps"] as? Int == want["reps"] as? Int, "\(name) \(id)")
                switch (got["weightKg"] as? Double, want["weightKg"] as? Double) {
                case (nil, nil): break
                case (let a?, let b?): #expect(abs(a - b) <= 1.0 / 32 + 1e-9, "\(name) \(id): \(a) kg for \(b) kg")
                case (let a, let b):
                    #expect(b.map { $0 < 0 } == true && a == nil, "\(name) \(id): \(String(describing: a)) for \(String(describing: b))")
                }
                #expect(documented.contains(got["category"] as? String ?? ""), "\(name) \(id): \(got["category"] ?? "none")")
            }
            checked += 1
        }
        #expect(checked == history.count)
    }
}

@Suite("ledger export fit: Garmin's SDK reads every workout", .enabled(if: GarminFITSDK.available || GarminFITSDK.required))
struct GarminFITExportCLITests {
    @Test("the demo's workouts: a folder of files, or one file with --workout; bad requests refused in one line")
    func demo() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        #expect(try cli.run(["demo"]).status == 0)
        try GarminFITSDK.check(cli, name: "demo")

        let one = cli.folder.appendingPathComponent("one")
        try FileManager.default.createDirectory(at: one, withIntermediateDirectories: true)
        let single = try cli.run(["export", "fit", one.appendingPathComponent("last.fit").path, "--workout", "last"])
        #expect(single.status == 0, "\(single.stderr)")
        let decoded = try GarminFITSDK.decode(one)
        #expect(decoded.keys.sorted() == ["last.fit"])
        #expect(decoded["last.fit"]?["integrity"] as? Bool == true)

        for (args, words) in [
            (["export", "csv", "x.csv", "--workout", "last"], "--workout and --since go with fit and health-connect"),
            (["export", "fit", one.appendingPathComponent("last.fit").path], "is a file; fit writes one file per workout into a folder"),
            (["export", "fit", "y.fit", "--workout", "nope"], "nope"),
            (["export", "fit", "z", "--workout", "last", "--since", "2026-01-01"], "give --workout or --since, not both"),
        ] {
            let refused = try cli.run(args)
            #expect(refused.status != 0)
            #expect(refused.stderr.contains(words), "\(refused.stderr)")
        }
    }
}
