import Foundation
import LedgerTestSupport
import Testing

/// The session fixtures kept in the repository (saved from the inspector's
/// session page), replayed by `ledger check-fixture`: each must match this
/// build's views exactly, so a change that moves a number fails here until
/// the fixture is saved again on purpose. Their bytes never change otherwise.
struct SessionFixtureCLITests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/sessions")

    static var fixtures: [URL] {
        ((try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? [])
            .filter { $0.pathExtension == "fixture" }.sorted { $0.path < $1.path }
    }

    @Test func everyKeptFixtureMatchesThisBuild() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        #expect(!Self.fixtures.isEmpty, "no fixture in \(Self.folder.path)")
        for fixture in Self.fixtures {
            let out = try cli.run(["check-fixture", fixture.path], useDbFlag: false)
            #expect(out.status == 0 && out.stdout.hasPrefix("ok:"), "\(fixture.lastPathComponent): \(out.stderr)")
        }
    }

    @Test func aMovedNumberIsNamedAndAnEditedEventFailsItsHash() throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let fixture = try #require(Self.fixtures.first)
        var lines = try String(contentsOf: fixture, encoding: .utf8).components(separatedBy: "\n")
        let header = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        let expected = try #require(((header["expected"] as? [String: Any])?["asOf"] as? [String: Any])?["records"] as? [String: Any])
        let first = try #require((expected["exercises"] as? [[String: Any]])?.first)
        let heaviest = try #require(first["heaviestKg"] as? Double)
        let written = JSONSerialization.string(heaviest)

        // One expected figure moved by hand: named by its path, with both values.
        let moved = cli.folder.appendingPathComponent("moved.fixture")
        var changed = lines
        changed[0] = lines[0].replacingOccurrences(of: "\"heaviestKg\":\(written)", with: "\"heaviestKg\":\(written)1")
        #expect(changed[0] != lines[0])
        try changed.joined(separator: "\n").write(to: moved, atomically: true, encoding: .utf8)
        let out = try cli.run(["check-fixture", moved.path], useDbFlag: false)
        #expect(out.status == 1 && out.stderr.hasPrefix("differs: asOf.records.exercises[0].heaviestKg: expected"), "\(out.stderr)")
        #expect(out.stderr.split(separator: "\n").count == 1)

        // An event edited by hand fails its hash before anything is compared.
        let edited = cli.folder.appendingPathComponent("edited.fixture")
        lines[10] = lines[10].replacingOccurrences(of: #""device":""#, with: #""device":"x"#)
        try lines.joined(separator: "\n").write(to: edited, atomically: true, encoding: .utf8)
        let broken = try cli.run(["check-fixture", edited.path], useDbFlag: false)
        #expect(broken.status == 3 && broken.stderr.contains("the hash of event 10 does not match"), "\(broken.stderr)")

        let notOne = try cli.run(["check-fixture", cli.folder.path + "/nothing.fixture"], useDbFlag: false)
        #expect(notOne.status != 0 && notOne.stderr.split(separator: "\n").count == 1)
    }
}

extension JSONSerialization {
    /// A number as JSON writes it.
    static func string(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e15 ? String(Int64(x)) : "\(x)"
    }
}
