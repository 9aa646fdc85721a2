import Foundation
import LedgerTestSupport
import Testing

@testable import RepLedgerCore
@testable import RepLedgerExport
@testable import RepLedgerImport
@testable import RepLedgerProjections

@Suite("FIT and Health Connect files, byte for byte")
struct FITAndHealthConnectTests {
    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("RepLedgerImportTests/Fixtures")

    /// The demo's twelve weeks (sets logged live) and a Hevy export (every set at its workout's start).
    static func ledgers() throws -> [(name: String, ledger: MemoryLedger)] {
        let hevy = try MemoryLedger()
        _ = try hevy.ledger.importExport(
            ImportRequest(
                source: .hevy, text: try String(contentsOf: fixtures.appendingPathComponent("hevy-repeated-blocks.csv"), encoding: .utf8),
                fileName: "hevy.csv", timeZone: try ImportTimeZone(parsing: "Europe/Paris")))
        return [("demo", try MemoryLedger.demo()), ("hevy", hevy)]
    }

    @Test("a FIT file's header says FIT 2.0 and its size, and both CRCs hold (a CRC over data and its CRC is 0)")
    func fitFraming() throws {
        let log = try TrainingLogProjection.build(from: try MemoryLedger.demo().store)
        let w = try #require(WorkoutHistoryProjection.workouts(log).first)
        let bytes = FITActivity.file(w, in: log)
        #expect(bytes[0] == 14 && bytes[1] == 0x20)
        #expect(Array(bytes[8..<12]) == Array(".FIT".utf8))
        let size = (0..<4).reduce(0) { $0 | Int(bytes[4 + $1]) << (8 * $1) }
        #expect(size == bytes.count - 16)
        #expect(FITEncoder.crc(Array(bytes[0..<14])) == 0)
        #expect(FITEncoder.crc(bytes) == 0)
        // The same workout writes the same bytes.
        #expect(FITActivity.file(w, in: log) == bytes)
    }

    @Test("the set timeline: live sets end when they were completed, imported ones share the workout's time in order, rests between")
    func timeline() throws {
        for (name, t) in try Self.ledgers() {
            let log = try TrainingLogProjection.build(from: t.store)
            for w in WorkoutHistoryProjection.workouts(log) {
                let line = SetTimeline(w, state: log.workouts[w.workoutId])
                #expect(line.sets.count == w.exercises.reduce(0) { $0 + $1.sets.count }, "\(name)")
                for (a, b) in zip(line.sets, line.sets.dropFirst()) {
                    #expect(a.start.millis <= a.end.millis && a.end.millis + a.restAfterMillis == b.start.millis, "\(name) \(w.name)")
                }
                #expect(line.sets.first.map { $0.start.millis >= w.startedAt.millis } ?? true)
                if let end = w.finishedAt { #expect(line.sets.last.map { $0.end.millis <= end.millis } ?? true, "\(name) \(w.name)") }
            }
        }
    }

    @Test("Health Connect sessions match the golden files (REPLEDGER_WRITE_GOLDEN=1 writes them again)")
    func healthConnectGolden() throws {
        for (name, t) in try Self.ledgers() {
            let log = try TrainingLogProjection.build(from: t.store)
            let text = HealthConnectFormat.render(Array(WorkoutHistoryProjection.workouts(log).reversed()), in: log)
            let file = Self.golden.appendingPathComponent("health-connect-\(name).json")
            if ProcessInfo.processInfo.environment["REPLEDGER_WRITE_GOLDEN"] == "1" {
                try Data(text.utf8).write(to: file)
            }
            let expected = try String(contentsOf: file, encoding: .utf8)
            #expect(text == expected, "health-connect-\(name).json differs")
            // Every line a session, every set a segment.
            let sessions = try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
            #expect(sessions.count == WorkoutHistoryProjection.workouts(log).count)
            #expect(sessions.allSatisfy { $0["exerciseType"] as? String == "EXERCISE_TYPE_STRENGTH_TRAINING" })
            let segments = sessions.reduce(0) { $0 + (($1["segments"] as? [Any])?.count ?? 0) }
            #expect(segments == WorkoutHistoryProjection.workouts(log).reduce(0) { $0 + $1.exercises.reduce(0) { $0 + $1.sets.count } })
        }
    }
}
