import Foundation
import LedgerTestSupport
import Testing

@testable import RepLedgerCore
@testable import RepLedgerProjections

/// `ExerciseMerged` (issue 52, point 7) in the fold: a merged exercise's sets
/// count as the one it joined wherever the merge falls in the log, the
/// snapshot carries the merge, and the records milestone never answers over it.
@Suite("Exercise merges in the fold")
struct ExerciseMergeTests {
    /// A custom "Chest Fly" trained in three workouts, then merged into the library's dumbbell fly.
    static func history() throws -> (events: [EventEnvelope], merge: Int) {
        var b = LogBuilder()
        var custom = ""
        try b.run("2026-01-02T08:00:00Z") { custom = try $0.defineExercise(name: "Chest Fly", primaryMuscles: [.chest]) }
        try b.workout("2026-01-05T08:00:00Z", sets: [working(custom, 30, 12), working("dumbbell-fly", 20, 10)])
        try b.workout("2026-01-08T08:00:00Z", sets: [working(custom, 34, 10)])
        try b.run("2026-01-09T08:00:00Z") { try $0.mergeExercise("Chest Fly", into: "dumbbell-fly") }
        let merge = b.envelopes.count - 1
        try b.workout("2026-01-12T08:00:00Z", sets: [working("dumbbell-fly", 32, 8)])
        return (b.envelopes, merge)
    }

    static func fold(_ events: [EventEnvelope]) -> TrainingLogProjection {
        var log = TrainingLogProjection()
        for (i, e) in events.enumerated() {
            var renumbered = e
            renumbered.position = Int64(i + 1)
            log.apply(renumbered)
        }
        return log
    }

    @Test("the merged exercise's sets count as the one it joined, whether the merge comes before or after them")
    func mergeWherever() throws {
        let (events, merge) = try Self.history()
        let asRecorded = Self.fold(events)
        var mergeLast = events
        mergeLast.append(mergeLast.remove(at: merge))
        // Right after the custom exercise is defined, before any of its sets (a device that had not synced the merge).
        var mergeFirst = events
        let defined = try #require(events.firstIndex { if case .exerciseDefined(let d) = $0.event { d.custom } else { false } })
        mergeFirst.insert(mergeFirst.remove(at: merge), at: defined + 1)
        for log in [asRecorded, Self.fold(mergeLast), Self.fold(mergeFirst)] {
            let ids = Set(log.workouts.values.flatMap { $0.sets.map(\.exerciseId) })
            #expect(ids == ["dumbbell-fly"])
            let fly = try #require(PersonalRecordsProjection.compute(log).first { $0.exerciseId == "dumbbell-fly" })
            #expect(fly.heaviestKg == 34)
        }
        #expect(Self.fold(mergeLast).workouts == asRecorded.workouts)
    }

    @Test("a snapshot taken after the merge carries it: the fold resumed from it equals the whole fold")
    func snapshotCarriesTheMerge() throws {
        let (events, merge) = try Self.history()
        let whole = Self.fold(events)
        let cut = merge + 1
        let restored = try TrainingLogProjection(snapshot: Self.fold(Array(events[..<cut])).snapshotBytes)
        #expect(restored.library.merges == [LibraryState.Merge(exerciseId: "chest-fly", into: "dumbbell-fly")])
        var resumed = restored
        for (i, e) in events.enumerated().dropFirst(cut) {
            var renumbered = e
            renumbered.position = Int64(i + 1)
            resumed.apply(renumbered)
        }
        #expect(resumed.snapshotBytes == whole.snapshotBytes)
    }

    @Test("a records milestone taken before the merge does not carry over it; one after it does")
    func milestoneStopsAtTheMerge() throws {
        let (events, merge) = try Self.history()
        var before = RecordsMilestone(Self.fold(Array(events[..<merge])), rules: .default)
        let carried = before.apply(RecordedEvent(events[merge]))
        #expect(!carried)
        var after = RecordsMilestone(Self.fold(Array(events[...merge])), rules: .default)
        for e in events.dropFirst(merge + 1) {
            let ok = after.apply(RecordedEvent(e))
            #expect(ok)
        }
        let records = try #require(after.records(rules: .default))
        let expected = PersonalRecordsProjection.compute(Self.fold(events), timeline: false)
        #expect(records == expected)
    }
}
