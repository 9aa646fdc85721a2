import Foundation
import RepLedgerCore

/// How an export's weights and distances get their units: from a column
/// name (`Weight (kg)`), from a unit column on every row, or, for a file
/// that says neither, from `--unit`. A unit the file states wins over the flag.
struct UnitChoice: Sendable {
    var source: ImportUnitSource
    /// The header's unit, the flag's, or the unit most rows give.
    var fileUnit: WeightUnit
    /// The header cell that states the unit, for the summary.
    var evidence: String?
    var perRow: Bool
    var headerDistance: String?

    init(header h: ExportHeader, records: [CSVRecord], given: WeightUnit?, source name: String) throws(ImportError) {
        headerDistance = h.units[.distance]
        if let stated = h.units[.weight], let u = Self.weightUnit(stated) {
            // A unit column beside it gives each row its own; the header's is the file's (the ledger's own CSV).
            (source, fileUnit, evidence, perRow) = (h.column[.weightUnit] == nil ? .header : .rows, u, h.weightUnitCell, h.column[.weightUnit] != nil)
        } else if let column = h.column[.weightUnit] {
            var counts: [WeightUnit: Int] = [:]
            for r in records where column < r.fields.count {
                if let u = Self.weightUnit(r.fields[column]) { counts[u, default: 0] += 1 }
            }
            let most = counts.max { a, b in a.value != b.value ? a.value < b.value : a.key == .lb }?.key
            guard let unit = most ?? given else { throw .unitRequired(source: name) }
            (source, fileUnit, evidence, perRow) = (.rows, unit, nil, true)
        } else if let given {
            (source, fileUnit, evidence, perRow) = (.flag, given, nil, false)
        } else {
            throw .unitRequired(source: name)
        }
    }

    /// `kg`, `kgs`, `lb`, `lbs` and their long forms.
    static func weightUnit(_ text: String) -> WeightUnit? {
        switch ExportHeader.normalised(text) {
        case "kg", "kgs", "kilo", "kilos", "kilogram", "kilograms": return .kg
        case "lb", "lbs", "pound", "pounds": return .lb
        default: return nil
        }
    }

    /// A row's weight unit: its own where the file has a unit column (an empty one falls back to the file's).
    func weightUnit(_ field: String, line: Int) throws(ImportError) -> WeightUnit {
        guard perRow, !field.trimmingSpaces().isEmpty else { return fileUnit }
        guard let u = Self.weightUnit(field) else {
            throw .malformedRow(line: line, reason: "weight unit '\(field)' is not kg or lb")
        }
        return u
    }

    /// A row's distance unit: its own, else the header's, else the one that goes with the weights
    /// (Strong writes distance in the unit system of its weights).
    func distanceUnit(_ field: String) -> String {
        let own = ExportHeader.normalised(field)
        if !own.isEmpty { return own }
        return headerDistance ?? (fileUnit == .kg ? "km" : "mi")
    }
}
