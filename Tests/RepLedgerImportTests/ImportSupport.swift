import Foundation
import LedgerTestSupport
import RepLedgerProjections

@testable import RepLedgerCore
@testable import RepLedgerImport

extension MemoryLedger {
    /// Imports CSV text as a file of that name would, reading times in UTC.
    @discardableResult
    func importCSV(
        _ source: ImportSource, _ text: String, unit: WeightUnit? = nil, zone: String = "UTC",
        skipUnreadable: Bool = false
    ) throws -> ImportSummary {
        try ledger.importExport(
            ImportRequest(
                source: source, text: text, fileName: "\(source.rawValue).csv", unit: unit,
                timeZone: try ImportTimeZone(parsing: zone), skipUnreadable: skipUnreadable))
    }

    func fold() throws -> TrainingLogProjection { try TrainingLogProjection.build(from: store) }

    /// Finished workouts, oldest first, as the history view shows them.
    func history() throws -> [WorkoutHistoryProjection.WorkoutRow] {
        WorkoutHistoryProjection.workouts(try fold()).reversed()
    }
}
