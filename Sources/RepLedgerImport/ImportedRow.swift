import Foundation
import RepLedgerCore

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
    /// A note on this one set (FitNotes' `Comment`).
    public var setNotes: String? = nil
}

/// A row left out of an import, with the reason a person would give.
public struct SkippedRow: Sendable, Equatable {
    /// The physical line of the file the row starts on (1 = the header).
    public var line: Int
    public var reason: String
    /// A value the ledger refuses (an impossible number, a date it cannot
    /// read), as against a row with nothing to import or an export duplicate.
    public var refused: Bool
}

/// Rows left out, with why, for the summary.
public struct SkippedRows: Sendable, Equatable {
    public private(set) var byReason: [String: Int] = [:]
    public private(set) var firstLines: [String: [Int]] = [:]
    /// Every row left out, in the order they were met.
    public private(set) var rows: [SkippedRow] = []
    public var total: Int { rows.count }
    public var refused: [SkippedRow] { rows.filter(\.refused) }

    public init() {}

    mutating func add(_ reason: String, line: Int, refused: Bool = false) {
        byReason[reason, default: 0] += 1
        if firstLines[reason, default: []].count < 5 { firstLines[reason, default: []].append(line) }
        rows.append(SkippedRow(line: line, reason: reason, refused: refused))
    }

    /// In the order of the file, whichever step of the import found them.
    mutating func sortByLine() {
        rows.sort { $0.line < $1.line }
    }

    /// A row the ledger refuses: the whole import fails with it under `--strict`, else the row is left out.
    mutating func refuse(_ reason: String, line: Int, strict: Bool) throws(ImportError) {
        if strict { throw .malformedRow(line: line, reason: reason) }
        add(reason, line: line, refused: true)
    }
}

/// Where the unit of an import's weights came from.
public enum ImportUnitSource: String, Sendable {
    /// A column name says it: `Weight (kg)`, `kg`, `weight_lbs`.
    case header
    /// A unit column gives each row's unit.
    case rows
    /// The file does not say; `--unit` did.
    case flag
}

/// What a layout parser hands over: the rows and what it learnt about the file.
public struct ParsedExport: Sendable {
    public var layout: String
    /// The unit most of the file's weights are in (each row keeps its own).
    public var unit: WeightUnit
    public var unitSource: ImportUnitSource
    /// The header cell or column that states the unit, when the file states it.
    public var unitEvidence: String?
    public var rows: [ImportedRow]
    public var skipped = SkippedRows()
    /// Header cells no vocabulary knows: their values are not imported.
    public var ignoredColumns: [String] = []
}
