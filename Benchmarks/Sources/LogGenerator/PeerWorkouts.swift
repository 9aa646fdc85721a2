import Foundation
import RepLedgerCore

/// The peer's input: the generated log's workouts and their sets, one JSON
/// line a workout (`{"id": …, "sets": [[exercise, kg, reps, warm-up], …]}`),
/// so the peer saves and replays the same training as RepLedger.
public enum PeerWorkouts {
    /// Writes the file and returns the workouts written: (id, [(exercise, kg, reps, warm-up)]).
    @discardableResult
    public static func write(_ events: [ProposedEvent], to path: String) throws -> [(UUID, [(String, Double, Int, Bool)])] {
        var workouts: [(UUID, [(String, Double, Int, Bool)])] = []
        var index: [UUID: Int] = [:]
        for e in events {
            switch e.event {
            case .workoutStarted(let s): index[s.workoutId] = workouts.count; workouts.append((s.workoutId, []))
            case .setLogged(let s):
                if let i = index[s.workoutId] {
                    workouts[i].1.append((s.exerciseId, s.metrics.weight?.kilograms ?? 0, s.metrics.reps ?? 0, s.type == .warmup))
                }
            default: break
            }
        }
        var text = ""
        for (id, sets) in workouts {
            let list = sets.map { "[\"\($0.0)\",\($0.1),\($0.2),\($0.3)]" }.joined(separator: ",")
            text += "{\"id\":\"\(id.lowercased)\",\"sets\":[\(list)]}\n"
        }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return workouts
    }
}
