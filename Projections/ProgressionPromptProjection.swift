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

/// The traffic-light progression prompt (DOMAIN.md §8). It is evaluated when
/// exactly three working sets are completed with reps > 0 (a 0-rep set is a
/// failed attempt and is passed over), as seed 001's rule is written
/// (`completedSets.count == 3`); with fewer or more there is no prompt. First
/// match wins.
///
/// Each outcome speaks in three registers, all fixed text: DOMAIN.md's title
/// and message (the logger's card), the rules document's headline and
/// explanation (why this light, in one line), and the web logger's one-line
/// message (`line`, what a compact list such as `workout summary` shows).
public struct ProgressionPromptProjection: ProjectionView {
    public static let name = "progression-prompt"
    /// 2: exactly three completed sets, as the seed's rule; four or more give no prompt.
    public static let version = 2

    public enum Kind: String, Sendable { case regression, progression, consistency }
    public enum Variant: String, Sendable { case strongStart, `default` }

    public struct Prompt: Sendable, Equatable {
        public var kind: Kind
        public var variant: Variant
        public var title: String
        public var message: String
        /// The rules document's message, its emoji first: "💪 Ready to progress - increase weight next session".
        public var headline: String
        /// Which of the rule's conditions decided the light: "First 2 sets at/above max, 3rd set in range".
        public var explanation: String
        /// The web logger's one-line message: "Excellent! Time to increase weight".
        public var line: String
        /// The three reps the rule read, and the range it read them against.
        public var reps: [Int]
        public var range: RepRange
    }

    public static func evaluate(reps: [Int], range: RepRange) -> Prompt? {
        let done = reps.filter { $0 > 0 }
        guard done.count == 3 else { return nil }
        let (s1, s2, s3) = (done[0], done[1], done[2])
        let read = Array(done.prefix(3))
        if s1 < range.min || s2 < range.min {
            return Prompt(
                kind: .regression, variant: .default, title: "Great effort today!",
                message: "Try choosing a weight that allows you to hit the target range for all sets.",
                headline: "⚠️ Form check needed - reduce weight", explanation: "Your first 2 sets fell below the target range",
                line: "Great effort! Try a lighter weight next time", reps: read, range: range)
        }
        if s1 >= range.max, s2 >= range.max, s3 >= range.min {
            return Prompt(
                kind: .progression, variant: .default, title: "Excellent work!",
                message: "You hit or exceeded the top end for your first two sets. Time to increase weight next session.",
                headline: "💪 Ready to progress - increase weight next session",
                explanation: "First 2 sets at/above max, 3rd set in range", line: "Excellent! Time to increase weight", reps: read, range: range)
        }
        if s1 >= range.max, s2 >= range.max {
            return Prompt(
                kind: .consistency, variant: .strongStart, title: "Great start!", message: "Push harder on the last set.",
                headline: "🎯 Great consistency - maintain and push on 3rd set", explanation: "Strong start but 3rd set fell short",
                line: "Great start! Push harder on the last set", reps: read, range: range)
        }
        return Prompt(
            kind: .consistency, variant: .default, title: "You're doing great!",
            message: "Try to hit the top end of the range or exceed it for all sets.",
            headline: "🎯 Great work - maintain this weight", explanation: "Everything within target range or mixed results",
            line: "You're doing great! Keep it up", reps: read, range: range)
    }

    public static func evaluate(_ log: TrainingLogProjection, workoutId: UUID, exerciseId: String, range: RepRange) -> Prompt? {
        guard let w = log.workouts[workoutId] else { return nil }
        return evaluate(reps: w.workingSets(of: exerciseId).map { $0.metrics.reps ?? 0 }, range: range)
    }
}
