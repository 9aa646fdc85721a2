import Foundation
import LedgerTestSupport
import RepLedgerKit
import Testing

/// RepLedgerKit syncing a watch session through a real server: the watch
/// records and pushes, the phone pulls it and its observer hears of it.
@Suite struct KitSyncTests {
    @Test func aWatchSessionRecordedWithTheKitReachesThePhoneThroughTheServer() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let server = try ServerProcess(cli: cli)
        let lina = try server.createAccount("lina")
        func tokenFile(_ device: String) throws -> String {
            let path = cli.folder.appendingPathComponent("\(device).token").path
            try (try server.createToken(lina.id, device: device)).write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }

        let watch = try RepLedger(path: cli.folder.appendingPathComponent("watch.sqlite").path, device: "watch")
        let workout = try await watch.startWorkout(name: "Legs")
        try await watch.recordHeartRate(104, in: workout)
        _ = try await watch.logSet("Squat (Barbell)", weightKg: 100, reps: 5, in: workout)
        try await watch.finishWorkout(workout)
        let pushed = try await watch.sync(server: server.base, account: lina.id, tokenFile: try tokenFile("watch"))
        let watchHead = try await watch.head
        #expect(pushed.pushed > 0 && pushed.headPosition == watchHead.position)

        let phone = try RepLedger(path: cli.folder.appendingPathComponent("phone.sqlite").path, device: "phone")
        let changes = await phone.changes()
        let pulled = try await phone.sync(server: server.base, account: lina.id, tokenFile: try tokenFile("phone"))
        #expect(pulled.pulled == pushed.headPosition)
        #expect(try await phone.head == watchHead, "the two devices hold the same log")
        #expect(try await phone.history(limit: 1).first?.workoutId == workout)
        var iterator = changes.makeAsyncIterator()
        let heard = await iterator.next()
        #expect(heard?.head.position == pulled.headPosition && heard?.streams.contains("workout-\(workout.uuidString.lowercased())") == true)
    }
}
