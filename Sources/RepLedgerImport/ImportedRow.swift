import Foundation
import RepLedgerCore

/// One row of an export, in the ledger's terms, whatever app wrote it.
public struct ImportedRow: Sendable {
    public enum Kind: Sendable, Equatable {
        case set(SetType)
        /// Strong's `Rest Timer` rows: a rest after the previous set, not a set.
        case rest(seconds: Int)
        /// Strong's `Note` rows: the note of the exercise they name, not a set.
        case note(String)

        var isNote: Bool {
            if case .note = self { return true }
            return false
        }
    }

    public var line: Int
    /// What identifies the workout inside its app: Strong (date, name),
    /// Hevy (title, start), FitNotes the day. Re-imports recognise workouts by it.
    public var workoutKey: String
    public var workoutName: String
    public var start: WallClock
    public var end: WallClock?
    public var durationSeconds: Double?
    /// Why the workout's duration could not be read, when it could not: the
    /// sets are kept, only the workout's end is lost.
    public var durationUnread: String? = nil
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
    /// Which entry of its workout the set belongs to, where the file says (the ledger's own CSV's
    /// `Exercise #`): two blocks of one exercise stay two entries however their sets are numbered.
    public var entryKey: String? = nil
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
    /// Rows left out by kind of reason: the reason without the row's own
    /// value, so a file of 103 unreadable dates is one reason, not 103.
    public private(set) var byReason: [String: Int] = [:]
    public private(set) var firstLines: [String: [Int]] = [:]
    /// Every row left out, in the order they were met.
    public private(set) var rows: [SkippedRow] = []
    public var total: Int { rows.count }
    public var refused: [SkippedRow] { rows.filter(\.refused) }

    public init() {}

    mutating func add(_ reason: String, line: Int, refused: Bool = false, kind: String? = nil) {
        let kind = kind ?? Self.kind(of: reason)
        byReason[kind, default: 0] += 1
        if firstLines[kind, default: []].count < 5 { firstLines[kind, default: []].append(line) }
        rows.append(SkippedRow(line: line, reason: reason, refused: refused))
    }

    /// A reason without the value it quotes: `start_time 'Apr 10, 2026' is not a date…` is
    /// `start_time is not a date…`; a row of the wrong width is one kind whatever its count.
    static func kind(of reason: String) -> String {
        if reason.hasPrefix("expected "), reason.contains(" fields, found ") { return "a row with another number of fields than the header" }
        guard reason.contains("'") else { return reason }
        let masked = reason.replacingOccurrences(of: #" '.*?'(?=[ ;,:)]|$)"#, with: "", options: .regularExpression)
        return masked
    }

    /// The commonest kinds first (ties by name), for a line that says why.
    public var commonest: [(reason: String, count: Int)] {
        byReason.map { (reason: $0.key, count: $0.value) }.sorted { $0.count != $1.count ? $0.count > $1.count : $0.reason < $1.reason }
    }

    /// In the order of the file, whichever step of the import found them.
    mutating func sortByLine() {
        rows.sort { $0.line < $1.line }
    }

    /// A row the ledger cannot read or refuses: set aside, and the import refuses the file for it unless told to skip such rows.
    mutating func refuse(_ reason: String, line: Int) {
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
