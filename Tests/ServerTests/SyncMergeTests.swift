import Foundation
import LedgerTestSupport
import RepLedgerCore
import RepLedgerSQLite
import Testing

/// Devices offline, then syncing in every order (SERVER-CONTRACT.md §5, §6): each
/// device ends with the server's log byte for byte, and every query answers
/// the same JSON on every device and on the server.
@Suite(.serialized) struct SyncMergeTests {
    /// A server, one account and `count` devices that share a synced starting log.
    struct Scene {
        let cli: LedgerProcess
        let server: ServerProcess
        let account: ServerProcess.Account
        let devices: [Device]

        init(devices count: Int = 2, base: (Device) throws -> Void = { _ in }) throws {
            cli = try LedgerProcess()
            server = try ServerProcess(cli: cli)
            account = try server.createAccount("lifter")
            var all: [Device] = []
            for (i, name) in ["phone", "watch", "laptop"].prefix(count).enumerated() {
                let token = try server.createToken(account.id, device: name)
                let d = try Device(name, cli: cli, token: token)
                if i == 0 { try base(d) }
                try #require(try d.sync(server, account: account.id).status == 0)
                all.append(d)
            }
            devices = all
        }

        /// Each device syncs in `order`, then all once more: everyone has everything.
        func syncAll(in order: [Int]) throws {
            for i in order { try #require(try devices[i].sync().status == 0) }
            for d in devices { try #require(try d.sync().status == 0) }
        }

        /// Identical logs and answers everywhere, the server included.
        func expectConverged(
            _ queries: [[String]] = [["history"], ["prs"], ["volume", "--by", "exercise"]],
            sourceLocation: SourceLocation = #_sourceLocation
        ) async throws {
            let logs = devices.map(\.log)
            #expect(Set(logs).count == 1, "device logs differ", sourceLocation: sourceLocation)
            for d in devices { #expect(try d.run(["sync", "status", "--json"]).json?["pending"] as? Int == 0, sourceLocation: sourceLocation) }
            for q in queries {
                let answers = try devices.map { try $0.run(q + ["--json"]).stdout }
                #expect(Set(answers).count == 1, "\(q) differs between devices", sourceLocation: sourceLocation)
            }
            let served = try await server.get("/v1/accounts/\(account.id)/history", token: try server.createToken(account.id, device: "check"))
            #expect(served.body == answers0(["history"]), sourceLocation: sourceLocation)
        }

        func answers0(_ q: [String]) -> String {
            ((try? devices[0].run(q + ["--json"]).stdout) ?? "").trimmingCharacters(in: .newlines)
        }

        func sets(_ device: Int = 0) throws -> [[String: Any]] {
            let workouts = try devices[device].run(["history", "--json"]).json?["workouts"] as? [[String: Any]] ?? []
            return workouts.flatMap { ($0["exercises"] as? [[String: Any]] ?? []).flatMap { $0["sets"] as? [[String: Any]] ?? [] } }
        }

        func cleanUp() { server.kill(); cli.cleanUp() }
    }

    // Every order on SQLite; one on PostgreSQL, whose part (appends kept in arrival order, once) does not
    // depend on the order: which order converges is the devices' fold, the same over either store.
    static let orders2 = ServerProcess.onPostgres ? [[1, 0]] : [[0, 1], [1, 0]]
    static let orders3 = ServerProcess.onPostgres ? [[2, 0, 1]] : [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]]

    @Test(arguments: orders3)
    func threeDevicesLoggingOfflineConvergeInEveryOrder(order: [Int]) async throws {
        let scene = try Scene(devices: 3)
        defer { scene.cleanUp() }
        for (i, d) in scene.devices.enumerated() {
            let w = try d.id(["workout", "start", "--name", "W\(i)", "--at", "2026-11-0\(i + 2)T10:00:00Z"], "workoutId")
            for r in 1...3 {
                try d.run([
                    "workout", "log", w, "Squat (Barbell)", "--reps", "\(r + 4)", "--weight", "\(100 + 10 * i)kg", "--at",
                    "2026-11-0\(i + 2)T10:0\(r):00Z",
                ])
            }
            try d.run(["workout", "finish", w, "--at", "2026-11-0\(i + 2)T11:00:00Z"])
        }
        try scene.syncAll(in: order)
        try await scene.expectConverged()
        #expect(try scene.sets().count == 9)
    }

    /// Two workouts on two devices: both, with all sets.
    @Test(arguments: orders2)
    func logsInDifferentWorkouts(order: [Int]) async throws {
        let scene = try Scene()
        defer { scene.cleanUp() }
        for (i, d) in scene.devices.enumerated() {
            let w = try d.id(["workout", "start", "--at", "2026-11-0\(i + 2)T10:00:00Z"], "workoutId")
            try d.run(["workout", "log", w, "Deadlift (Barbell)", "--reps", "5", "--weight", "140kg", "--at", "2026-11-0\(i + 2)T10:05:00Z"])
        }
        try scene.syncAll(in: order)
        try await scene.expectConverged()
        let workouts = try scene.devices[0].run(["history", "--json"]).json?["workouts"] as? [Any]
        #expect(workouts?.count == 2)
    }

    /// A shared workout with two sets, made on the phone and synced to both.
    static func twoSets(_ d: Device) throws {
        let w = try d.id(["workout", "start", "--name", "Shared", "--at", "2026-11-02T10:00:00Z"], "workoutId")
        try d.run(["workout", "log", w, "Bench Press (Barbell)", "--reps", "8", "--weight", "80kg", "--at", "2026-11-02T10:05:00Z"])
        try d.run(["workout", "log", w, "Bench Press (Barbell)", "--reps", "8", "--weight", "80kg", "--at", "2026-11-02T10:10:00Z"])
    }

    func setIds(_ scene: Scene) throws -> (workout: String, first: String, second: String) {
        let w = try #require((scene.devices[0].run(["history", "--json"]).json?["workouts"] as? [[String: Any]])?.first?["workoutId"] as? String)
        let ids = try scene.sets().compactMap { $0["setId"] as? String }
        return (w, ids[0], ids[1])
    }

    @Test(arguments: orders2)
    func editsOfDifferentSetsAreBothKept(order: [Int]) async throws {
        let scene = try Scene(base: Self.twoSets)
        defer { scene.cleanUp() }
        let (w, s1, s2) = try setIds(scene)
        try scene.devices[0].run(["workout", "edit-set", w, s1, "--weight", "85kg", "--at", "2026-11-02T12:00:00Z"])
        try scene.devices[1].run(["workout", "edit-set", w, s2, "--reps", "6", "--at", "2026-11-02T12:01:00Z"])
        try scene.syncAll(in: order)
        try await scene.expectConverged()
        let sets = try scene.sets()
        #expect(sets.map { $0["weightKg"] as? Double } == [85, 80])
        #expect(sets.map { $0["reps"] as? Int } == [8, 6])
    }

    @Test(arguments: orders2)
    func editsOfTheSameSetLaterOccurredAtWins(order: [Int]) async throws {
        let scene = try Scene(base: Self.twoSets)
        defer { scene.cleanUp() }
        let (w, s1, _) = try setIds(scene)
        // The phone's edit happened later, though the watch may reach the server last.
        try scene.devices[0].run(["workout", "edit-set", w, s1, "--reps", "6", "--weight", "90kg", "--at", "2026-11-02T12:05:00Z"])
        try scene.devices[1].run(["workout", "edit-set", w, s1, "--reps", "5", "--rpe", "9", "--at", "2026-11-02T12:00:00Z"])
        try scene.syncAll(in: order)
        try await scene.expectConverged()
        let set = try #require(try scene.sets().first)
        #expect(set["reps"] as? Int == 6)
        #expect(set["weightKg"] as? Double == 90)
        #expect(set["rpe"] as? Double == 9)  // a field only the earlier edit changed is kept
    }

    /// The logger's vocabulary (issue 31) offline on two devices: a set's RIR merges by
    /// `occurredAt` like any set field, and rests, measurements, an exercise's edit and a
    /// template with targets all arrive, with the same answers everywhere.
    @Test(arguments: orders2)
    func theLoggersVocabularyConvergesInEveryOrder(order: [Int]) async throws {
        let scene = try Scene(base: Self.twoSets)
        defer { scene.cleanUp() }
        let (w, s1, _) = try setIds(scene)
        let (phone, watch) = (scene.devices[0], scene.devices[1])
        try phone.run(["workout", "edit-set", w, s1, "--rir", "1", "--at", "2026-11-02T12:05:00Z"])
        try watch.run(["workout", "edit-set", w, s1, "--rir", "3", "--tempo", "3-1-1-0", "--at", "2026-11-02T12:00:00Z"])
        try phone.run(["workout", "rest", w, "start", "2m", "--at", "2026-11-02T10:10:30Z"])
        try phone.run(["body", "log", "--waist", "82cm", "--at", "2026-11-02T07:00:00Z"])
        try watch.run(["exercise", "edit", "Bench Press (Barbell)", "--notes", "elbows in", "--at", "2026-11-02T08:00:00Z"])
        try watch.run([
            "template", "create", "Push", "--exercise", "Bench Press (Barbell)", "--sets", "3", "--reps", "8-12", "--weight", "80kg",
            "--rest", "2m", "--at", "2026-11-02T08:01:00Z",
        ])
        try scene.syncAll(in: order)
        try await scene.expectConverged([
            ["history"], ["prs"], ["body", "history"], ["template", "list"], ["exercise", "show", "Bench Press (Barbell)"],
            ["workout", "summary", w],
        ])
        let set = try #require(try scene.sets().first)
        #expect(set["rir"] as? Double == 1 && set["tempo"] as? String == "3-1-1-0")
        let rests = try #require(try phone.run(["workout", "summary", w, "--json"]).json?["rests"] as? [[String: Any]])
        #expect(rests.contains { $0["plannedSeconds"] as? Int == 120 })
        #expect(try watch.run(["body", "history", "--json"]).json.flatMap { ($0["measures"] as? [Any])?.count } == 1)
        #expect(try phone.run(["exercise", "show", "bench", "--json"]).json?["notes"] as? String == "elbows in")
    }

    @Test(arguments: orders2)
    func aSetDeletedAndEditedLaterComesBackWithTheEdit(order: [Int]) async throws {
        let scene = try Scene(base: Self.twoSets)
        defer { scene.cleanUp() }
        let (w, s1, s2) = try setIds(scene)
        try scene.devices[0].run(["workout", "delete-set", w, s1, "--at", "2026-11-02T12:00:00Z"])
        try scene.devices[1].run(["workout", "edit-set", w, s1, "--reps", "10", "--at", "2026-11-02T12:05:00Z"])
        // And the reverse on the other set: an edit older than the deletion does not bring it back.
        try scene.devices[0].run(["workout", "delete-set", w, s2, "--at", "2026-11-02T12:10:00Z"])
        try scene.devices[1].run(["workout", "edit-set", w, s2, "--reps", "3", "--at", "2026-11-02T12:06:00Z"])
        try scene.syncAll(in: order)
        try await scene.expectConverged()
        let sets = try scene.sets()
        #expect(sets.count == 1)
        #expect(sets.first?["setId"] as? String == s1)
        #expect(sets.first?["reps"] as? Int == 10)
        #expect(sets.first?["weightKg"] as? Double == 80)
    }

    @Test(arguments: orders2)
    func aTemplateRenamedOnOneDeviceAndEditedOnTheOtherKeepsBoth(order: [Int]) async throws {
        let scene = try Scene { d in try d.run(["template", "create", "Upper A", "--exercise", "Bench Press (Barbell)"]) }
        defer { scene.cleanUp() }
        try scene.devices[0].run(["template", "rename", "Upper A", "Upper Heavy", "--at", "2026-11-03T08:00:00Z"])
        try scene.devices[1].run([
            "template", "edit", "Upper A", "--exercise", "Bench Press (Barbell)", "--exercise", "Pull Up",
            "--at", "2026-11-03T08:01:00Z",
        ])
        try scene.syncAll(in: order)
        try await scene.expectConverged([["template", "list"]])
        let templates = try #require(scene.devices[0].run(["template", "list", "--json"]).json?["templates"] as? [[String: Any]])
        #expect(templates.count == 1)
        #expect(templates.first?["name"] as? String == "Upper Heavy")
        #expect((templates.first?["exercises"] as? [Any])?.count == 2)
    }

    /// Issue 45, point 1: two devices edit the same field offline; the later edit by `occurredAt`
    /// wins, whichever syncs first. Half the later edits are the phone's, half the laptop's, so
    /// each order has a device whose older edit reaches the server last.
    @Test(arguments: orders2)
    func theNewerEditOfEachFieldWinsInEveryOrder(order: [Int]) async throws {
        let scene = try Scene { d in
            try d.run(["template", "create", "Upper A", "--exercise", "Bench Press (Barbell)", "--at", "2026-11-03T07:00:00Z"])
            try Self.twoSets(d)
            // An effort and a distance, so the effort scale and the distance unit show in `workout show`.
            let w = try d.id(["workout", "start", "--name", "Run", "--also", "--at", "2026-11-02T17:00:00Z"], "workoutId")
            try d.run(["workout", "log", w, "Bench Press (Barbell)", "--reps", "8", "--weight", "80kg", "--rpe", "8", "--at", "2026-11-02T17:05:00Z"])
            try d.run(["workout", "log", w, "running", "--distance", "5km", "--duration", "25:00", "--at", "2026-11-02T17:40:00Z"])
        }
        defer { scene.cleanUp() }
        let workouts = try #require(scene.devices[0].run(["history", "--json"]).json?["workouts"] as? [[String: Any]])
        let w = try #require(workouts.first { $0["name"] as? String == "Shared" }?["workoutId"] as? String)
        let run = try #require(workouts.first { $0["name"] as? String == "Run" }?["workoutId"] as? String)
        let (phone, laptop) = (scene.devices[0], scene.devices[1])
        let t = try #require((phone.run(["template", "list", "--json"]).json?["templates"] as? [[String: Any]])?.first?["templateId"] as? String)
        // (device, arguments, minute): the later edit of each field is the one expected to stand.
        let edits: [(Device, [String], Int)] = [
            (phone, ["template", "rename", t, "Phone name"], 20), (laptop, ["template", "rename", t, "Laptop name"], 25),
            (phone, ["template", "edit", t, "--exercise", "Pull Up"], 31), (laptop, ["template", "edit", t, "--exercise", "Deadlift (Barbell)"], 30),
            (phone, ["exercise", "rename", "Pull Up", "Chin-over-bar"], 10), (laptop, ["exercise", "rename", "Pull Up", "Pull-up, strict"], 11),
            (phone, ["exercise", "edit", "Bench Press (Barbell)", "--notes", "elbows in"], 41),
            (laptop, ["exercise", "edit", "Bench Press (Barbell)", "--notes", "wide grip"], 40),
            (phone, ["workout", "note", w, "felt slow"], 50), (laptop, ["workout", "note", w, "felt strong"], 51),
            (phone, ["workout", "note", w, "arch more", "--exercise", "bench"], 53),
            (laptop, ["workout", "note", w, "flat back", "--exercise", "bench"], 52),
            (phone, ["settings", "unit", "lb"], 1), (laptop, ["settings", "unit", "kg"], 2),
            (phone, ["settings", "distance", "mi"], 4), (laptop, ["settings", "distance", "km"], 3),
            (phone, ["settings", "rest", "2m"], 5), (laptop, ["settings", "rest", "3m"], 6),
            (phone, ["settings", "effort", "rir"], 8), (laptop, ["settings", "effort", "rpe"], 7),
            (phone, ["workout", "feeling", w, "2", "--note", "tired"], 55), (laptop, ["workout", "feeling", w, "4", "--note", "strong"], 56),
            (phone, ["workout", "activity", run, "running"], 58), (laptop, ["workout", "activity", run, "cycling"], 57),
            (phone, ["settings", "one-rep-max", "bench", "150kg"], 14), (laptop, ["settings", "one-rep-max", "bench", "140kg"], 13),
        ]
        for (device, args, minute) in edits {
            let out = try device.run(args + ["--at", "2026-11-03T09:\(String(format: "%02d", minute)):00Z"])
            #expect(out.status == 0, "\(args): \(out.stderr)")
        }
        try scene.syncAll(in: order)
        try await scene.expectConverged([
            ["template", "list"], ["exercise", "show", "bench"], ["exercise", "show", "pull-up"], ["workout", "show", w], ["workout", "show", run],
            ["history"],
            ["settings", "rest"], ["percent", "bench", "--of", "tested"],
        ])
        let template = try #require((phone.run(["template", "list", "--json"]).json?["templates"] as? [[String: Any]])?.first)
        #expect(template["name"] as? String == "Laptop name")
        #expect((template["lines"] as? [[String: Any]])?.compactMap { $0["exerciseId"] as? String } == ["pull-up"], "\(template)")
        #expect(try laptop.run(["exercise", "show", "pull-up", "--json"]).json?["name"] as? String == "Pull-up, strict")
        #expect(try laptop.run(["exercise", "show", "bench", "--json"]).json?["notes"] as? String == "elbows in")
        let show = try #require(try laptop.run(["workout", "show", w, "--json"]).json)
        #expect(show["note"] as? String == "felt strong")
        #expect((show["exercises"] as? [[String: Any]])?.first?["note"] as? String == "arch more")
        #expect(show["feeling"] as? Int == 4 && show["closingNote"] as? String == "strong", "\(show)")
        #expect(try phone.run(["workout", "show", run, "--json"]).json?["activity"] as? String == "running")
        // Settings: kg (the laptop's, later), miles (the phone's, later), a 3 min rest (laptop), RIR (phone).
        #expect(try phone.run(["settings", "rest", "--json"]).json?["restSeconds"] as? Int == 180)
        #expect((try laptop.run(["percent", "bench", "--of", "tested", "--json"]).json?["max"] as? [String: Any])?["kg"] as? Double == 150)
        let shown = try phone.run(["workout", "show", run]).stdout
        #expect(shown.contains("80 kg × 8 @ RIR 2") && shown.contains("3.11 mi in 25:00"), "\(shown)")
    }

    @Test func freeTemplatesAcrossDevicesTheFirstToReachTheServerAreKept() async throws {
        let scene = try Scene { d in try d.run(["template", "create", "Base"]) }
        defer { scene.cleanUp() }
        let (phone, watch) = (scene.devices[0], scene.devices[1])
        try phone.run(["template", "create", "P1"])
        try phone.run(["template", "create", "P2"])
        try watch.run(["template", "create", "W1"])
        try watch.run(["template", "create", "W2"])
        #expect(try phone.sync().status == 0)
        let answer = try #require(try watch.sync().json)
        #expect(answer["rejected"] as? Int == 2)
        let status = try #require(watch.run(["sync", "status", "--json"]).json)
        let rejected = try #require(status["rejected"] as? [[String: Any]])
        #expect(rejected.map { $0["code"] as? String } == ["templateLimit", "templateLimit"])
        #expect(rejected.allSatisfy { ($0["message"] as? String)?.contains("Free allows 3 templates") == true })
        #expect(status["pending"] as? Int == 0)
        try scene.syncAll(in: [0, 1])
        try await scene.expectConverged([["template", "list"]])
        let names = (try phone.run(["template", "list", "--json"]).json?["templates"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
        #expect(Set(names ?? []) == ["Base", "P1", "P2"])
    }

    @Test func theSameWatchWorkoutSentTwiceIsStoredOnce() async throws {
        let scene = try Scene(devices: 2) { d in try d.run(["settings", "unit", "kg"]) }
        defer { scene.cleanUp() }
        // The watch's workout arrives on both phone and laptop (a retried transfer), then both sync.
        let watch = try LedgerProcess()
        defer { watch.cleanUp() }
        let w = try #require(watch.run(["workout", "start", "--name", "Watch run", "--json"]).json?["workoutId"] as? String)
        try watch.run(["workout", "log", w, "Squat (Barbell)", "--reps", "5", "--weight", "100kg"])
        let batch = watch.folder.appendingPathComponent("watch.jsonl").path
        try watch.run(["export", "jsonl", batch])
        for d in scene.devices { #expect(try d.run(["import", "jsonl", batch]).status == 0) }
        try scene.syncAll(in: [0, 1])
        try await scene.expectConverged()
        let workouts = try #require(scene.devices[0].run(["history", "--json"]).json?["workouts"] as? [[String: Any]])
        #expect(workouts.filter { $0["name"] as? String == "Watch run" }.count == 1)
        let log = scene.devices[0].log
        #expect(log.components(separatedBy: "\"type\":\"SetLogged\"").count - 1 == 1)
    }

    // Rewrites the account's SQLite file under the server: the PostgreSQL log cannot be rewritten by the app at all.
    @Test(.enabled(if: !ServerProcess.onPostgres)) func aServerThatRewroteHistoryIsRefusedWithNothingApplied() async throws {
        let scene = try Scene(devices: 1) { d in try d.run(["settings", "unit", "kg"]) }
        defer { scene.cleanUp() }
        let device = scene.devices[0]
        try device.run(["settings", "unit", "lb"])
        #expect(try device.sync().status == 0)
        let before = device.log
        // Replace the account's file on the server with another history of the same length.
        scene.server.kill()
        let other = try LedgerProcess()
        defer { other.cleanUp() }
        try other.run(["settings", "unit", "lb"])
        try other.run(["settings", "unit", "kg"])
        try other.run(["settings", "unit", "lb"])
        try other.run(["settings", "unit", "kg"])
        let file = scene.server.data + "/accounts/\(scene.account.id).sqlite"
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file + suffix) }
        try FileManager.default.removeItem(atPath: file)
        // Sealed under the account's own key, as the server would have written it (a file in clear would not even open).
        let key = try Data(contentsOf: URL(fileURLWithPath: scene.server.data + "/keys/\(scene.account.id).key"))
        let rewritten = try SQLiteEventStore(path: file, cipher: try PayloadCipher(key: Array(key.dropFirst(4))))
        var history = ""
        _ = try JSONLBackup.export(try SQLiteEventStore(path: other.db, access: .existing)) { history += $0 }
        _ = try JSONLBackup.restore(history, into: rewritten)
        try scene.server.start()
        try device.run(["sync", scene.server.base, "--account", scene.account.id, "--token-file", device.tokenFile, "--json"])
        try device.run(["settings", "unit", "kg"])
        let out = try device.sync()
        #expect(out.status == 3, "\(out.stderr)")
        #expect(out.stderr.contains("rewritten"))
        #expect(device.log.hasPrefix(before.trimmingCharacters(in: .newlines)))
    }
}
