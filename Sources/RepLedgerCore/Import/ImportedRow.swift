import Foundation

/// One row of an export, in the ledger's terms, whatever app wrote it.
public struct ImportedRow: Sendable {
    public enum Kind: Sendable, Equatable {
        case set(SetType)
        /// Strong's `Rest Timer` rows: a rest after the previous set, not a set.
        case rest(seconds: Int)
    }

    public var line: Int
    /// What identifies the workout inside its app: Strong (date, name),
    /// Hevy (title, start), FitNotes the day. Re-imports recognise workouts by it.
    public var workoutKey: String
    public var workoutName: String
    public var start: WallClock
    public var end: WallClock?
    public var durationSeconds: Double?
    public var exercise: String
    /// FitNotes' category, a hint for the muscles of a new exercise.
    public var category: String?
    public var kind: Kind
    /// The app's set number, when it gives one. A numbered row that repeats an
    /// earlier row of its workout field for field is an export duplicate; rows
    /// without a number (FitNotes, Strong's W/D/F) may be real repeated sets.
    public var setNumber: Int?
    public var metrics: SetMetrics
    /// The row's fields as read, for recognising verbatim duplicates.
    public var signature: String
    public var exerciseNotes: String?
    public var workoutNotes: String?
    public var supersetKey: String?
}

/// Rows left out, with why, for the summary.
public struct SkippedRows: Sendable, Equatable {
    public private(set) var byReason: [String: Int] = [:]
    public private(set) var firstLines: [String: [Int]] = [:]
    public var total: Int { byReason.values.reduce(0, +) }

    public init() {}

    mutating func add(_ reason: String, line: Int) {
        byReason[reason, default: 0] += 1
        if firstLines[reason, default: []].count < 5 { firstLines[reason, default: []].append(line) }
    }
}

/// What a layout parser hands over: the rows and what it learnt about the file.
public struct ParsedExport: Sendable {
    public var layout: String
    public var unit: WeightUnit
    public var rows: [ImportedRow]
    public var skipped = SkippedRows()
}
