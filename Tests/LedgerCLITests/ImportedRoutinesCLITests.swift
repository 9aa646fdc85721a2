import Foundation
import LedgerTestSupport
import Testing

/// Issue 52, point 5: the routines a Strong history brings are listed beside
/// the templates, suggested for a name close to theirs, and started only by
/// their own name. On a real export with 42 routines; the expected routines
/// come from the test's own reading of the file.
@Suite("ledger template list: imported routines", .needsSharedData(.realExports))
struct ImportedRoutinesCLITests {
    /// name (lowercased) → its workouts' start times as the file writes them.
    static func routines(in path: String) throws -> [String: Set<String>] {
        let records = RealExports.records(try String(contentsOfFile: path, encoding: .utf8), delimiter: ",")
        let header = try #require(records.first)
        let date = try #require(header.firstIndex(of: "Date")), name = try #require(header.firstIndex(of: "Workout Name"))
        var starts: [String: Set<String>] = [:]
        for r in records.dropFirst() where r.count > name {
            starts[r[name].trimmingCharacters(in: .whitespaces).lowercased(), default: []].insert(r[date])
        }
        return starts
    }

    @Test("42 routines listed, most recent first, each with its workouts; 'chest' suggests 2/M Chest and starts nothing; its own name starts it")
    func routinesAreTemplatesYouCanSee() throws {
        let path = RealExports.folder.appendingPathComponent("strong_hipml_strong-unwrapped.csv").path
        let expected = try Self.routines(in: path)
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        #expect(try cli.run(["import", "strong", path, "--unit", "lb", "--timezone", "UTC"]).status == 0)

        let list = try #require(try cli.run(["template", "list", "--json"]).json)
        #expect((list["templates"] as? [Any])?.isEmpty == true)
        let routines = try #require(list["routines"] as? [[String: Any]])
        #expect(routines.count == expected.count)
        #expect(expected.count == 42)
        for r in routines {
            let name = try #require(r["name"] as? String)
            let starts = try #require(expected[name.lowercased()], "\(name) is not a routine of the file")
            #expect(r["workouts"] as? Int == starts.count, "\(name)")
            // The file's times are UTC (imported with --timezone UTC): "2024-12-17 04:46:48" is 2024-12-17T04:46:48Z.
            #expect(r["lastDoneAt"] as? String == starts.max()!.replacingOccurrences(of: " ", with: "T") + "Z", "\(name)")
            #expect(r["imported"] as? Bool == true && r["importedFrom"] as? String == "strong")
        }
        let lastDone = routines.compactMap { $0["lastDoneAt"] as? String }
        #expect(lastDone == lastDone.sorted(by: >))

        let text = try cli.run(["template", "list"])
        #expect(text.stdout.contains("Routines in your history") && text.stdout.contains("2/M Chest"), "\(text.stdout.prefix(400))")

        // A name close to several routines is a question, not a years-old routine started by a prefix.
        let events = try #require(try cli.run(["verify", "--json"]).json?["events"] as? Int)
        let close = try cli.run(["workout", "start", "--template", "chest"])
        #expect(close.status != 0)
        #expect(close.stderr.contains("did you mean 2/M Chest,"), "\(close.stderr)")
        #expect(close.stderr.components(separatedBy: "\n").filter { !$0.isEmpty }.count == 1)
        #expect(try cli.run(["verify", "--json"]).json?["events"] as? Int == events)

        // Its own name, any case, plans the routine's last workout: the exercises the list shows.
        let chest = try #require(routines.first { $0["name"] as? String == "2/M Chest" })
        let started = try cli.run(["workout", "start", "--template", "2/m chest", "--at", "now", "--json"])
        #expect(started.status == 0, "\(started.stderr)")
        let id = try #require(started.json?["workoutId"] as? String)
        let show = try #require(try cli.run(["workout", "show", id, "--json"]).json)
        let planned = (show["exercises"] as? [[String: Any]] ?? []).compactMap { $0["exercise"] as? String }
        #expect(planned == chest["exercises"] as? [String])
        #expect(planned.count == 6)
    }
}
