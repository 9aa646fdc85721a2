import Foundation
import RepLedgerCore

/// A target rep range, written `8-12`.
public struct RepRange: Sendable, Equatable, CustomStringConvertible {
    public var min: Int
    public var max: Int

    public init(min: Int, max: Int) throws(Refusal) {
        guard min >= 1, min <= max, max <= 1000 else { throw .malformedRange("\(min)-\(max)") }
        self.min = min
        self.max = max
    }

    /// Parses `MIN-MAX`; anything else is refused.
    public static func parse(_ text: String) throws(Refusal) -> RepRange {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let lo = Int(parts[0].trimmingCharacters(in: .whitespaces)),
            let hi = Int(parts[1].trimmingCharacters(in: .whitespaces))
        else { throw .malformedRange(text) }
        do { return try RepRange(min: lo, max: hi) } catch { throw .malformedRange(text) }
    }

    public var description: String { "\(min)-\(max)" }
}

/// The traffic-light progression prompt (DOMAIN.md §8). It is evaluated on the
/// first three completed working sets with reps > 0 (a 0-rep set is a failed
/// attempt and is passed over); with fewer there is no prompt. First match wins.
public struct ProgressionPromptProjection: ProjectionView {
    public static let name = "progression-prompt"
    public static let version = 1

    public enum Kind: String, Sendable { case regression, progression, consistency }
    public enum Variant: String, Sendable { case strongStart, `default` }

    public struct Prompt: Sendable, Equatable {
        public var kind: Kind
        public var variant: Variant
        public var title: String
        public var message: String
    }

    public static func evaluate(reps: [Int], range: RepRange) -> Prompt? {
        let done = reps.filter { $0 > 0 }
        guard done.count >= 3 else { return nil }
        let (s1, s2, s3) = (done[0], done[1], done[2])
        if s1 < range.min || s2 < range.min {
            return Prompt(
                kind: .regression, variant: .default, title: "Great effort today!",
                message: "Try choosing a weight that allows you to hit the target range for all sets.")
        }
        if s1 >= range.max, s2 >= range.max, s3 >= range.min {
            return Prompt(
                kind: .progression, variant: .default, title: "Excellent work!",
                message: "You hit or exceeded the top end for your first two sets. Time to increase weight next session.")
        }
        if s1 >= range.max, s2 >= range.max {
            return Prompt(kind: .consistency, variant: .strongStart, title: "Great start!", message: "Push harder on the last set.")
        }
        return Prompt(
            kind: .consistency, variant: .default, title: "You're doing great!",
            message: "Try to hit the top end of the range or exceed it for all sets.")
    }

    public static func evaluate(_ log: TrainingLogProjection, workoutId: UUID, exerciseId: String, range: RepRange) -> Prompt? {
        guard let w = log.workouts[workoutId] else { return nil }
        return evaluate(reps: w.workingSets(of: exerciseId).map { $0.metrics.reps ?? 0 }, range: range)
    }
}
