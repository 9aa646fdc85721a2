import Foundation
import RepLedgerCore
import RepLedgerSQLite

/// A lifter's device: its own SQLite ledger file, a token, a clock that may be
/// skewed, and the commands a lifter gives. A crash drops every open handle
/// and the device starts again from its file. The file is kept with WAL and
/// `synchronous=NORMAL`: a commit survives the app's crash (what is simulated),
/// not the machine losing power, and no run waits on the disk.
final class SimulatedDevice {
    let name: String
    let path: String
    private let seed: UInt64
    private(set) var store: SQLiteEventStore
    private(set) var ledger: Ledger
    private(set) var crashes = 0
    /// Seconds this device's clock is ahead of the simulation's (behind when negative).
    var skewSeconds = 0
    /// Set by the network when the device crashes while a request is out: the sync throws, then the device restarts.
    var crashedInFlight = false

    /// By id, so that a rename on another device does not make them unknown here.
    static let exercises = ["barbell-bench-press", "back-squat", "deadlift", "overhead-press", "barbell-row"]

    init(name: String, path: String, seed: UInt64) throws {
        self.name = name
        self.path = path
        self.seed = seed
        store = try SQLiteEventStore(path: path, durability: .normal)
        ledger = Ledger(store: store, device: name, ids: .seeded(seed))
    }

    /// Starts again from the file, with a fresh source of ids (a restarted app's generator is not the one it had).
    func restart() throws {
        crashes += 1
        crashedInFlight = false
        store = try SQLiteEventStore(path: path, durability: .normal)
        ledger = Ledger(store: store, device: name, ids: .seeded(seed &+ UInt64(crashes) &* 0x1000_0000_0001))
    }

    /// One command a lifter might give now → the ids of the events it appended
    /// (none when the ledger refused it: a lifter is told why and nothing is written).
    func act(_ random: inout SimulationRandom, at time: Timestamp) throws -> (command: String, appended: [UUID]) {
        let before = try store.headPosition()
        let workouts = try knownWorkouts()
        let open = workouts.filter { $0.status == .running }
        let command: String
        do {
            switch random.int(0...10) {
            case 0 where open.count < 2, 1 where open.isEmpty:
                command = "start"
                try ledger.execute(at: time) { _ = try $0.startWorkout(name: random.pick(["Upper A", "Lower B", "Push", "Pull"])) }
            case 0, 1, 2, 3, 4:
                guard let w = open.isEmpty ? workouts.last : random.pick(open) else { return ("none", []) }
                command = "log set"
                let exercise = random.pick(Self.exercises)
                let metrics = SetMetrics(weight: Weight(Double(random.int(8...40)) * 2.5, .kg), reps: random.int(1...12))
                try ledger.execute(at: time) {
                    _ = try $0.logSet(w.workoutId, exercise: exercise, metrics: metrics, historyEdit: w.status == .finished)
                }
            case 5:
                guard let w = workouts.last(where: { !$0.sets.isEmpty }) else { return ("none", []) }
                command = "edit set"
                let set = random.pick(w.sets)
                try ledger.execute(at: time) {
                    _ = try $0.editSet(
                        w.workoutId, set: set.setId.lowercased, changes: SetMetrics(reps: random.int(1...15)),
                        historyEdit: w.status == .finished)
                }
            case 6:
                guard let w = open.first else { return ("none", []) }
                command = "swap"
                let from = random.pick(Self.exercises), to = random.pick(Self.exercises)
                try ledger.execute(at: time) { _ = try $0.swapExercise(w.workoutId, from: from, to: to) }
            case 7:
                guard let w = open.first else { return ("none", []) }
                command = "finish"
                try ledger.execute(at: time) { try $0.finishWorkout(w.workoutId) }
            case 8 where random.chance(0.3):
                command = "rename"
                let exercise = random.pick(Self.exercises)
                let name = random.pick(["Bench", "Squat", "Pull", "Press", "Row"]) + " \(random.int(1...9))"
                try ledger.execute(at: time) { try $0.renameExercise(exercise, to: name) }
            case 8:
                command = "unit"
                let unit: WeightUnit = random.chance(0.5) ? .kg : .lb
                try ledger.execute(at: time) { try $0.setLiftingUnit(unit) }
            // Rarer commands whose effect another device may not have seen: the server refuses a set logged
            // offline into a workout discarded elsewhere, and a fourth live template on Free made on two devices.
            case 9 where random.chance(0.15):
                let kept = workouts.filter { $0.status != .discarded }
                guard !kept.isEmpty else { return ("none", []) }
                let w = random.pick(kept)
                command = "discard"
                try ledger.execute(at: time) { try $0.discardWorkout(w.workoutId) }
            case 9 where random.chance(0.3):
                command = "template"
                let name = random.pick(["Upper", "Lower", "Full", "Arms"]) + " \(random.int(1...99))"
                let exercise = random.pick(Self.exercises)
                try ledger.execute(at: time) { _ = try $0.createTemplate(name: name, exercises: [exercise]) }
            case 9 where random.chance(0.3):
                command = "delete template"
                guard let template = try ledger.templates().live.first else { return ("none", []) }
                try ledger.execute(at: time) { try $0.deleteTemplate(template.templateId.lowercased) }
            default:
                command = "rest"
                let seconds = random.int(6...30) * 10
                try ledger.execute(at: time) { try $0.setRest(seconds: seconds) }
            }
        } catch is Refusal {
            return ("refused", [])
        }
        var appended: [UUID] = []
        try store.read(EventQuery(from: before + 1)) { appended.append($0.eventId) }
        return (command, appended)
    }

    /// The workouts this device holds, oldest first.
    func knownWorkouts() throws -> [WorkoutState] {
        try store.streams(prefix: "workout-").sorted { $0.firstPosition < $1.firstPosition }.compactMap { stream in
            guard let id = UUID(uuidString: String(stream.stream.raw.dropFirst("workout-".count))) else { return nil }
            return try ledger.workout(id)
        }
    }

    /// The device's rows as stored.
    func log() throws -> [StoredEvent] {
        var out: [StoredEvent] = []
        try store.storedEvents(from: 1, through: .max) { out.append($0) }
        return out
    }
}
