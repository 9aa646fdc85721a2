import Foundation
import RepLedgerKit

// A watch records a session into its own ledger file, a UI observes each append,
// and the session syncs to the lifter's account on a server.
//
//     swift run WatchSession SERVER ACCOUNT TOKEN_FILE [LEDGER_FILE]
let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 3 else {
    print("usage: WatchSession SERVER ACCOUNT TOKEN_FILE [LEDGER_FILE]")
    exit(64)
}
let ledger = try RepLedger(path: arguments.count > 3 ? arguments[3] : "watch.sqlite", device: "watch")

// What a UI does: hear of every change, with the new head and the streams it touched.
let changes = await ledger.changes()
let observer = Task {
    for await change in changes { print("observed head #\(change.head.position): \(change.streams.joined(separator: ", "))") }
}

let workout = try await ledger.startWorkout(name: "Watch Push")
let started = try await ledger.head
for beatsPerMinute in [96.0, 124, 138] { try await ledger.recordHeartRate(beatsPerMinute, in: workout) }
_ = try await ledger.logSet("Bench Press (Barbell)", weightKg: 80, reps: 8, in: workout)
let second = try await ledger.logSet("Bench Press (Barbell)", weightKg: 85, reps: 5, rpe: 8, in: workout)
try await ledger.editSet(second, in: workout, reps: 6)
try await ledger.finishWorkout(workout)

// Sync: push the session, pull what the phone recorded.
let outcome = try await ledger.sync(server: arguments[0], account: arguments[1], tokenFile: arguments[2])
print("synced: pushed \(outcome.pushed), pulled \(outcome.pulled), head #\(outcome.headPosition)")

// Time travel: the log as it stood when the workout began, and now.
let then = try await ledger.history(limit: 1, asOf: .position(started.position))
let now = try await ledger.history(limit: 1)
print("sets at #\(started.position): \(then.first?.sets ?? 0); now: \(now.first?.sets ?? 0)")
for step in try await ledger.replay(workout) { print("#\(step.envelope.position) \(step.change)") }
let bench = try await ledger.why(.prs, "Bench Press (Barbell)")
for record in bench.numbers where record.kind == "heaviest" || record.kind == "e1rm" {
    print("bench \(record.kind) \(record.value) kg, from events \(record.events.map(\.envelope.position))")
}

let report = try await ledger.verify()
observer.cancel()
guard report.ok else {
    print("the chain is broken at #\(report.firstBadPosition ?? 0)")
    exit(1)
}
print("verified \(report.events) events")
