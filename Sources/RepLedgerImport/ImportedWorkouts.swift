import Foundation
import RepLedgerCore

/// The workouts earlier imports brought in, by name and wall-clock minute, to
/// recognise a workout whose seconds one of two files lost. A spreadsheet
/// that re-saves an export writes `2022-10-20 6:47` for the app's
/// `2022-10-20 06:47:12`: the workout's derived id differs, but it is the
/// same workout, and importing both must not leave it twice.
struct ImportedWorkouts {
    private var seconds: [String: [Int]] = [:]

    init(_ store: any EventStore) throws {
        for start in try store.workoutStarts() where start.importedFrom != nil {
            let local = start.startedAt.millis / 1000 + Int64(start.startedAt.offsetMinutes) * 60
            seconds[Self.key(start.name, minute: local / 60), default: []].append(Int(local % 60))
        }
    }

    /// Whether an imported workout of this name started in this minute, with
    /// seconds lost on one side (a time without seconds reads as :00); the one
    /// found is not found again.
    mutating func claim(name: String, start: WallClock) -> Bool {
        let key = Self.key(String(name.prefix(200)), minute: start.naiveSeconds / 60)
        guard let found = seconds[key]?.firstIndex(where: { $0 == 0 || start.second == 0 }) else { return false }
        seconds[key]?.remove(at: found)
        return true
    }

    private static func key(_ name: String, minute: Int64) -> String { "\(minute)|\(name.lowercased())" }
}
