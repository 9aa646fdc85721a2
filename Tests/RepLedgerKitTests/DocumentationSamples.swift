import Foundation
import RepLedgerKit
import Testing

/// The DocC catalog's code samples, compiled here and run against real ledger files:
/// `DocumentationTests` checks that every `swift` block of the catalog and of the kit's
/// doc comments appears in this file, so a sample that stops compiling fails the build.
enum DocumentationSamples {
    static func gettingStarted(path: String) async throws -> RepLedger {
        let ledger = try RepLedger(path: path, device: "watch")
        let workout = try await ledger.startWorkout(name: "Push")
        try await ledger.recordHeartRate(118, in: workout)
        _ = try await ledger.logSet("Bench Press (Barbell)", weightKg: 80, reps: 8, in: workout)
        let set = try await ledger.logSet("Bench Press (Barbell)", weightKg: 85, reps: 5, rpe: 8, in: workout)
        try await ledger.editSet(set, in: workout, reps: 6)
        try await ledger.finishWorkout(workout)

        for row in try await ledger.history(limit: 5) {
            print(row.name, row.sets, row.tonnageKg)
        }
        return ledger
    }

    static func observing(_ ledger: RepLedger) async throws -> [RepLedger.Change] {
        let changes = await ledger.changes()
        let watcher = Task {
            var seen: [RepLedger.Change] = []
            for await change in changes {
                seen.append(change)  // a view model would reload what `change.streams` names
                if seen.count == 2 { break }
            }
            return seen
        }
        let workout = try await ledger.startWorkout(name: "Legs")
        _ = try await ledger.logSet("Squat (Barbell)", weightKg: 100, reps: 5, in: workout)
        return await watcher.value
    }

    static func timeTravel(_ ledger: RepLedger, workout: UUID) async throws {
        let steps = try await ledger.replay(workout)
        for step in steps { print("#\(step.envelope.position) \(step.change)") }

        // The records as the log stood before the last set, and the training done by November 2026.
        let before = try await ledger.records(asOf: .position(steps[steps.count - 2].envelope.position))
        let november = try await ledger.volume(by: "week", until: "2026-11")
        print(before.count, november.rows.count)

        let why = try await ledger.why(.prs, "Bench Press (Barbell)")
        for number in why.numbers { print(number.kind, number.value, number.events.map(\.envelope.position)) }
    }

    static func sync(_ ledger: RepLedger, server: String, account: String, tokenFile: String) async throws {
        let first = try await ledger.sync(server: server, account: account, tokenFile: tokenFile)
        print("pushed \(first.pushed), pulled \(first.pulled), head #\(first.headPosition)")

        let later = try await ledger.sync()  // the target is remembered
        if later.rejected > 0 { print("\(later.rejected) events were refused; `ledger sync status` lists them") }
    }

    static func verification(_ ledger: RepLedger) async throws -> Bool {
        let report = try await ledger.verify()
        if let bad = report.firstBadPosition { print("the chain breaks at #\(bad)") }
        let head = try await ledger.head
        print("\(report.events) events, head \(head.hash.prefix(12))")
        return report.ok
    }

    static func ruleSets(_ ledger: RepLedger) async throws -> (before: Double?, after: Double?) {
        let bench = "Bench Press (Barbell)"
        let epley = try await ledger.records().first { $0.exercise == bench }?.bestE1rmKg

        var rules = RuleSet.default
        rules.e1rmFormula = .brzycki
        await ledger.use(rules: rules)
        let brzycki = try await ledger.records().first { $0.exercise == bench }?.bestE1rmKg
        return (epley, brzycki)
    }

    static func perform(_ ledger: RepLedger, workout: UUID) async throws {
        try await ledger.perform { try $0.setNote(workout, exercise: "Bench Press (Barbell)", text: "paused reps") }
    }

    static func opening() async throws {
        let ledger = try RepLedger(path: "watch.sqlite", device: "watch")
        let workout = try await ledger.startWorkout(name: "Push")
        _ = try await ledger.logSet("Bench Press (Barbell)", weightKg: 80, reps: 8, in: workout)
        try await ledger.finishWorkout(workout)
    }
}

/// The samples run, so what the catalog shows is what the kit does.
@Suite struct DocumentationSampleRuns {
    @Test func theCatalogsSamplesRunAndAnswerWhatTheArticlesSay() async throws {
        let path = RepLedgerTests.file()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let ledger = try await DocumentationSamples.gettingStarted(path: path)
        let workout = try #require(try await ledger.history(limit: 1).first?.workoutId)
        try await DocumentationSamples.perform(ledger, workout: workout)
        try await DocumentationSamples.timeTravel(ledger, workout: workout)

        let seen = try await DocumentationSamples.observing(ledger)
        #expect(seen.count == 2 && seen[0].head.position < seen[1].head.position)
        #expect(try await DocumentationSamples.verification(ledger))

        let (epley, brzycki) = try await DocumentationSamples.ruleSets(ledger)
        let e = try #require(epley), b = try #require(brzycki)
        // Epley favours the 85 × 6 (102 kg against 101.3), Brzycki the 80 × 8 (99.3 against 98.7).
        #expect(abs(e - 85 * (1 + 6 / 30.0)) < 0.01 && abs(b - 80 * 36 / (37 - 8.0)) < 0.01, "\(e) \(b)")
    }
}
