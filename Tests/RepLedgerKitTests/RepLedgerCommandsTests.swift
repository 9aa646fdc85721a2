import Foundation
import RepLedgerKit
import Testing

/// The kit's commands beyond a session's sets, each checked by what the read
/// models answer afterwards, on a real ledger file.
@Suite struct RepLedgerCommandsTests {
    static func withLedger(_ body: (RepLedger, String) async throws -> Void) async throws {
        let path = RepLedgerTests.file()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        try await body(try RepLedger(path: path, device: "phone"), path)
    }

    @Test func aSetIsEditedAndDeletedAndTheReplaySaysSoStepByStep() async throws {
        try await Self.withLedger { ledger, _ in
            let workout = try await ledger.startWorkout(name: "Pull")
            let first = try await ledger.logSet("Deadlift (Barbell)", weightKg: 140, reps: 5, in: workout)
            let second = try await ledger.logSet("Deadlift (Barbell)", weightKg: 150, reps: 3, in: workout)
            try await ledger.editSet(first, in: workout, weightKg: 145)
            try await ledger.deleteSet(second, in: workout)
            try await ledger.finishWorkout(workout)

            let row = try #require(try await ledger.history(limit: 1).first)
            #expect(row.sets == 1 && row.tonnageKg == 145 * 5, "\(row)")
            let steps = try await ledger.replay(workout)
            // Started, the exercise added, two sets, the edit, the deletion, finished.
            #expect(steps.count == 7, "\(steps.map(\.change))")
            #expect(steps[4].change.contains("145"), "\(steps[4].change)")
            #expect(steps.last?.state.status == .finished)
            // Replay to a point: before the edit the workout holds both sets at their first weights.
            let early = try await ledger.replay(workout, through: .position(steps[3].envelope.position))
            #expect(early.count == 4 && early.last?.state.sets.map(\.metrics.weight?.kilograms) == [140, 150])

            let why = try await ledger.why(.prs, "Deadlift (Barbell)")
            let heaviest = try #require(why.numbers.first { $0.kind == "heaviest" })
            #expect(heaviest.value == 145 && heaviest.events.contains { $0.envelope.position == steps[4].envelope.position })
            #expect(try await ledger.verify().ok)
        }
    }

    @Test func templatesAreCreatedStartedSharedAndImportedIntoAnotherLedger() async throws {
        try await Self.withLedger { ledger, _ in
            let id = try await ledger.createTemplate(name: "Upper A", exercises: ["Bench Press (Barbell)", "Bent Over Row (Barbell)"])
            let workout = try await ledger.startWorkout(template: "Upper A")
            #expect(try await ledger.history(limit: 1).first?.workoutId == workout)
            #expect(try await ledger.templates().templates.map(\.templateId) == [id])
            let shared = try await ledger.exportTemplate("Upper A")
            try await ledger.renameTemplate("Upper A", to: "Upper B")
            #expect(try await ledger.templates().templates.map(\.name) == ["Upper B"])

            try await Self.withLedger { other, _ in
                let imported = try await other.importTemplate(shared)
                let again = try await other.importTemplate(shared)
                #expect(imported == again, "the same file twice imports once")
                #expect(try await other.templates().templates.map(\.name) == ["Upper A"])
                let edited = shared.replacingOccurrences(of: "Upper A", with: "Upper Z")
                await #expect(throws: Refusal.self) { try await other.importTemplate(edited) }
            }
            try await ledger.deleteTemplate(id.uuidString)
            #expect(try await ledger.templates().templates.isEmpty)
        }
    }

    @Test func bodySettingsAndPurchasesAreRecordedAndReadAtEachPoint() async throws {
        try await Self.withLedger { ledger, _ in
            try await ledger.logBodyweight(kilograms: 82.4)
            let weighed = try await ledger.head
            try await ledger.logBodyweight(kilograms: 81.9)
            #expect(try await ledger.bodyHistory().weighIns.map(\.weight.kilograms) == [81.9, 82.4])
            #expect(try await ledger.bodyHistory(asOf: .position(weighed.position)).weighIns.count == 1)

            try await ledger.setLiftingUnit(.lb)
            try await ledger.setRest(seconds: 150)
            // The same unit again is refused, and appends nothing.
            let head = try await ledger.head
            await #expect(throws: Refusal.self) { try await ledger.setLiftingUnit(.lb) }
            #expect(try await ledger.head == head)

            #expect(try await ledger.entitlements().state.isPro == false)
            let bought = Date(timeIntervalSinceNow: -3600)
            #expect(try await ledger.recordPurchase(.proMonthly, transactionId: "2000000123", purchasedAt: bought, expiresAt: bought + 30 * 86400))
            #expect(
                try await ledger.recordPurchase(.proMonthly, transactionId: "2000000123", purchasedAt: bought, expiresAt: bought + 30 * 86400)
                    == false)
            #expect(try await ledger.entitlements().state.isPro)
            #expect(try await ledger.entitlements(asOf: .position(head.position)).state.isPro == false)
        }
    }

    @Test func performRunsAnyDeciderAtAGivenTimeAndAppendsNothingWhenItThrows() async throws {
        try await Self.withLedger { ledger, _ in
            let monday = Date(timeIntervalSince1970: 1_795_000_000)
            let workout = try await ledger.perform(at: monday) { try $0.startWorkout(name: "Backfilled") }
            try await ledger.perform(at: monday + 600) {
                _ = try $0.logSet(workout, exercise: "Squat (Barbell)", metrics: SetMetrics(weight: Weight(120, .kg), reps: 5))
                try $0.finishWorkout(workout)
            }
            let row = try #require(try await ledger.history(limit: 1).first)
            #expect(row.startedAt.millis == 1_795_000_000_000 && row.sets == 1)
            // Training up to a date: none by the 1st of November, the backfilled workout by the end of the month.
            #expect(try await ledger.history(until: "2026-11-01").isEmpty)
            #expect(try await ledger.history(until: "2026-11").map(\.workoutId) == [workout])

            let head = try await ledger.head
            await #expect(throws: Refusal.self) {
                try await ledger.perform { session in
                    _ = try session.startWorkout(name: "Half")
                    try session.finishWorkout(UUID())
                }
            }
            #expect(try await ledger.head == head, "a decision that throws appends none of its events")
        }
    }
}
