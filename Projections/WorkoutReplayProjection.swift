import Foundation
import RepLedgerCore

/// Session replay for time-travel debugging: a workout's state after each of
/// its events, with what changed in words ("weight edited from 80 to 82.5 kg",
/// "Leg Press swapped for Hack Squat").
public struct WorkoutReplayProjection: ProjectionView {
    public static let name = "workout-replay"
    public static let version = 1

    public struct Step: Sendable {
        public var envelope: EventEnvelope
        public var change: String
        public var state: WorkoutState
    }

    /// `events` are the workout stream's events in order; `library` names the exercises.
    public static func steps(_ events: [EventEnvelope], workoutId: UUID, library: LibraryState, unit: WeightUnit) -> [Step] {
        var state = WorkoutState(workoutId: workoutId)
        return events.map { e in
            let before = state
            state.evolve(e.event, at: e.occurredAt)
            return Step(envelope: e, change: describe(e.event, before: before, after: state, library: library, unit: unit), state: state)
        }
    }

    static func describe(_ event: LedgerEvent, before: WorkoutState, after: WorkoutState, library: LibraryState, unit: WeightUnit) -> String {
        func name(_ id: String) -> String { library.name(of: id) }
        func set(_ m: SetMetrics) -> String {
            var parts: [String] = []
            if let w = m.weight { parts.append(Weights.text(w, in: unit)) }
            if let r = m.reps { parts.append(m.weight == nil ? "\(r) reps" : "× \(r)") }
            if let d = m.durationSeconds { parts.append("\(d.formatted) s") }
            if let d = m.distanceMeters { parts.append("\(d.formatted) m") }
            if let r = m.rpe { parts.append("@ RPE \(r.formatted)") }
            return parts.joined(separator: " ")
        }
        func ordinal(_ setId: UUID, in w: WorkoutState) -> String {
            guard let s = w.set(setId) else { return "set" }
            let n = (w.sets.filter { $0.exerciseId == s.exerciseId }.firstIndex { $0.setId == setId } ?? 0) + 1
            return "\(name(s.exerciseId)) set \(n)"
        }
        switch event {
        case .workoutStarted(let e): return "started \"\(e.name)\"" + (e.origin == .empty ? "" : " from a \(e.origin.rawValue)")
        case .workoutExerciseAdded(let e): return "added \(name(e.exerciseId))"
        case .workoutExerciseRemoved(let e): return "removed \(before.entry(e.entryId).map { name($0.exerciseId) } ?? "an exercise")"
        case .workoutExercisesReordered: return "reordered: " + after.entries.map { name($0.exerciseId) }.joined(separator: ", ")
        case .workoutExerciseSwapped(let e): return "\(name(e.fromExerciseId)) swapped for \(name(e.toExerciseId))"
        case .supersetLinked(let e):
            return "superset: " + e.entryIds.compactMap { after.entry($0).map { name($0.exerciseId) } }.joined(separator: " + ")
        case .supersetUnlinked: return "superset unlinked"
        case .setAdded(let e): return "planned \(name(e.exerciseId)) \(set(e.target))"
        case .setLogged(let e):
            let type = e.type == .normal ? "" : " (\(e.type.rawValue))"
            return "\(ordinal(e.setId, in: after)): \(set(e.metrics))\(type)" + (e.historyEdit ? " [history edit]" : "")
        case .setEdited(let e):
            guard let old = before.set(e.setId), let new = after.set(e.setId) else { return "edited a set" }
            var changes: [String] = []
            if old.metrics.weight != new.metrics.weight {
                changes.append(
                    "weight edited from \(old.metrics.weight.map { Weights.text($0, in: unit) } ?? "none") to \(new.metrics.weight.map { Weights.text($0, in: unit) } ?? "none")"
                )
            }
            if old.metrics.reps != new.metrics.reps {
                changes.append("reps edited from \(old.metrics.reps.map(String.init) ?? "none") to \(new.metrics.reps.map(String.init) ?? "none")")
            }
            if old.metrics.durationSeconds != new.metrics.durationSeconds {
                changes.append(
                    "duration edited from \(old.metrics.durationSeconds.map { "\($0.formatted) s" } ?? "none") to \(new.metrics.durationSeconds.map { "\($0.formatted) s" } ?? "none")"
                )
            }
            if old.metrics.distanceMeters != new.metrics.distanceMeters {
                changes.append(
                    "distance edited from \(old.metrics.distanceMeters.map { "\($0.formatted) m" } ?? "none") to \(new.metrics.distanceMeters.map { "\($0.formatted) m" } ?? "none")"
                )
            }
            if old.metrics.rpe != new.metrics.rpe { changes.append("RPE edited to \(new.metrics.rpe.map { $0.formatted } ?? "none")") }
            if old.type != new.type { changes.append("type changed from \(old.type.rawValue) to \(new.type.rawValue)") }
            if old.notes != new.notes { changes.append("note changed") }
            return "\(ordinal(e.setId, in: after)): " + (changes.isEmpty ? "edited, nothing changed" : changes.joined(separator: ", "))
                + (e.historyEdit ? " [history edit]" : "")
        case .setDeleted(let e):
            guard let old = before.set(e.setId) else { return "deleted a set" }
            return "deleted \(ordinal(e.setId, in: before)) (\(set(old.metrics)))"
        case .setCompleted(let e): return "completed \(ordinal(e.setId, in: after))"
        case .setUncompleted(let e): return "un-completed \(ordinal(e.setId, in: after))"
        case .workoutNoteSet(let e): return "note: \(e.text)"
        case .restTimerStarted(let e): return "rest timer \(e.seconds) s"
        case .restTimerAdjusted(let e): return "rest timer \(e.deltaSeconds > 0 ? "+" : "")\(e.deltaSeconds) s"
        case .restTimerDismissed: return "rest timer dismissed"
        case .restTimerPaused: return "rest timer paused"
        case .restTimerResumed:
            return "rest timer resumed after \(((after.rests.last?.pausedMillis ?? 0) - (before.rests.last?.pausedMillis ?? 0)) / 1000) s"
        case .workoutFeelingRecorded(let e):
            return [e.feeling.map { "felt \($0)/5" }, e.note.isEmpty ? nil : "note: \(e.note)"].compactMap { $0 }.joined(separator: ", ")
        case .workoutActivitySet(let e): return "activity: \(e.activity.rawValue)"
        case .workoutDeloadMarked(let e): return e.deload ? "marked as a deload" : "no longer a deload"
        case .workoutModulesPlanned(let e): return "modules: " + e.modules.map { "\($0.name) (\($0.type.rawValue))" }.joined(separator: ", ")
        case .workoutAnalysisRecorded(let e): return "analysis by \(e.engine) (\(e.markdown.split(separator: "\n").count) lines)"
        case .setEquipmentRecorded(let e):
            let what = [e.band.map { "band \($0)" }, e.implement].compactMap { $0 }.joined(separator: ", ")
            return "\(ordinal(e.setId, in: after)): \(what)"
        case .workoutPaused: return "paused"
        case .workoutResumed: return "resumed after \((after.pausedMillis - before.pausedMillis) / 1000) s"
        case .healthSampleRecorded(let e):
            return e.kind == .heartRate ? "heart rate \(e.value.formatted) bpm" : "active energy +\(e.value.formatted) kcal"
        case .workoutFinished: return "finished after \((after.durationSeconds() ?? 0) / 60) min"
        case .workoutDiscarded: return "discarded"
        default: return event.eventType.name
        }
    }
}

/// Weights as entered, shown in the user's unit.
public enum Weights {
    public static func text(_ w: Weight, in unit: WeightUnit) -> String {
        unit.words(kilograms: w.kilograms)
    }
}
