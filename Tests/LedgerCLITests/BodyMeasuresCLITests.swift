import Foundation
import LedgerTestSupport
import Testing

/// Body measurements beyond weight and progress photos (issue 31 point 8):
/// recorded as entered, listed and charted; a photo's bytes stay in its file,
/// which `account erase` removes while it still holds them.
@Suite("ledger body: measurements and progress photos")
struct BodyMeasuresCLITests {
    func sha256(_ path: String) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        p.arguments = [path]
        let pipe = Pipe()
        p.standardOutput = pipe
        try p.run()
        let out = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(String(decoding: out, as: UTF8.self).prefix(64))
    }

    @Test("measurements in cm, in and %, with a weigh-in in the same command; history lists them, --site filters; the report charts them")
    func measurements() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let first = try cli.json([
            "body", "log", "--weight", "82kg", "--waist", "84cm", "--arms", "15in", "--body-fat", "19%", "--at", "2026-11-01T07:00:00Z",
        ])
        #expect(
            first["measurementId"] is String
                && (first["measures"] as? [[String: Any]])?.map { $0["site"] as? String } == ["waist", "arms", "bodyFat"])
        _ = try cli.json(["body", "log", "--waist", "82.5", "--body-fat", "18", "--at", "2026-11-15T07:00:00Z"])

        let history = try cli.json(["body", "history"])
        #expect((history["measurements"] as? [Any])?.count == 1, "the weigh-in")
        let measures = try #require(history["measures"] as? [[String: Any]])
        #expect(measures.map { $0["site"] as? String } == ["waist", "bodyFat", "waist", "arms", "bodyFat"])
        #expect(measures[0]["cm"] as? Double == 82.5 && measures[1]["percent"] as? Double == 18)
        let arms = try #require(measures.first { $0["site"] as? String == "arms" })
        #expect(arms["cm"] as? Double == 38.1 && (arms["entered"] as? [String: Any])?["unit"] as? String == "in")

        let waist = try #require(try cli.json(["body", "history", "--site", "waist"])["measures"] as? [[String: Any]])
        #expect(waist.compactMap { $0["cm"] as? Double } == [82.5, 84])
        let text = try cli.run(["body", "history"]).stdout
        #expect(text.contains("15 in") && text.contains("body fat") && text.contains("82.5 cm"), "\(text)")

        // A lifter in lb gives bare lengths in inches.
        #expect(try cli.run(["settings", "unit", "lb"]).status == 0)
        _ = try cli.json(["body", "log", "--neck", "15", "--at", "2026-11-16T07:00:00Z"])
        let neck = try #require(try cli.json(["body", "history", "--site", "neck"])["measures"] as? [[String: Any]])
        #expect((neck.first?["entered"] as? [String: Any])?["unit"] as? String == "in")

        #expect(try cli.run(["workout", "start", "--at", "2026-11-15T09:00:00Z"]).status == 0)
        #expect(try cli.run(["workout", "log", "last", "squat", "--reps", "5", "--weight", "225", "--at", "2026-11-15T09:10:00Z"]).status == 0)
        let html = cli.folder.appendingPathComponent("report.html").path
        #expect(try cli.run(["report", "--html", html]).status == 0)
        let page = try String(contentsOfFile: html, encoding: .utf8)
        #expect(page.contains("Body measurements") && page.contains("Waist") && page.contains("Body fat"))
    }

    @Test(
        "bad measurements: one line, nothing appended",
        arguments: [
            (["body", "log", "--waist", "82kg"], "give a length in cm or in"),
            (["body", "log", "--waist", "2cm"], "give 5 to 300 cm"),
            (["body", "log", "--body-fat", "90%"], "give 1 to 75 %"),
            (["body", "log", "--body-fat", "18cm"], "give a percentage"),
            (["body", "log"], "give --weight or a measurement"),
            (["body", "log", "--weight", "80kg", "--hips", "big"], "give a length in cm or in"),
            (["body", "photo", "/nonexistent/front.jpg"], "no readable file there"),
            (["body", "history", "--site", "ears"], "ears"),
        ])
    func refusals(args: [String], words: String) throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        #expect(try cli.run(["body", "log", "--weight", "80kg"]).status == 0)
        let before = try cli.eventCount()
        let out = try cli.run(args)
        #expect(out.status == 1 && out.stderr.contains(words), "\(out.stderr)")
        #expect(out.stderr.split(separator: "\n").count == 1, "\(out.stderr)")
        #expect(try cli.eventCount() == before)
    }

    @Test("a photo: its date, pose and SHA-256 in the log, never its bytes; once only; account erase removes the file while it holds those bytes")
    func photos() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let photos = cli.folder.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        let marker = "photo-bytes-\(UUID().uuidString)"
        let front = photos.appendingPathComponent("front.jpg").path, side = photos.appendingPathComponent("side.jpg").path
        try Data((marker + " front").utf8).write(to: URL(fileURLWithPath: front))
        try Data((marker + " side").utf8).write(to: URL(fileURLWithPath: side))

        let recorded = try cli.json(["body", "photo", front, "--pose", "front", "--at", "2026-11-01T07:00:00Z"])
        #expect(recorded["sha256"] as? String == (try sha256(front)))
        _ = try cli.json(["body", "photo", side, "--pose", "side", "--at", "2026-11-01T07:01:00Z"])
        let listed = try #require(try cli.json(["body", "history"])["photos"] as? [[String: Any]])
        #expect(listed.map { $0["pose"] as? String } == ["side", "front"] && listed.last?["path"] as? String == front)
        let before = try cli.eventCount()
        let again = try cli.run(["body", "photo", front])
        #expect(again.status == 1 && again.stderr.contains("recorded already on 2026-11-01"), "\(again.stderr)")
        #expect(try cli.eventCount() == before)
        let log = try Data(contentsOf: URL(fileURLWithPath: cli.db))
        #expect(log.range(of: Data(marker.utf8)) == nil, "the bytes never enter the log")

        // The side photo was edited after it was recorded: not the photo recorded, so it stays.
        try Data("retouched".utf8).write(to: URL(fileURLWithPath: side))
        let out = try cli.run(["account", "erase", "--yes", "--json"])
        #expect(out.status == 0, "\(out.stderr)")
        let report = try #require(out.json)
        #expect(report["photos"] as? Int == 1 && (report["removed"] as? [String])?.contains(front) == true)
        #expect((report["left"] as? [[String: Any]])?.compactMap { $0["path"] as? String } == [side])
        #expect(!FileManager.default.fileExists(atPath: front) && FileManager.default.fileExists(atPath: side))
    }
}
