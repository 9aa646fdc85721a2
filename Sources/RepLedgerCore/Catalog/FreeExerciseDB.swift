import Foundation

/// The Free Exercise DB (873 public-domain exercises, github.com/yuhonas/free-exercise-db),
/// embedded as its text and read on first use. The ledger never folds this
/// data directly: `ExerciseLibrary` turns it into `ExerciseDefined` events
/// (by `LibraryDerivation`'s rules), and the log is what every view reads.
/// Instructions stay here, outside the log, shown by `ledger exercise show`.
public enum FreeExerciseDB {
    /// One entry as the database states it.
    public struct Entry: Sendable, Decodable, Equatable {
        public var id: String
        public var name: String
        public var force: String?
        public var level: String
        public var mechanic: String?
        public var equipment: String?
        public var primaryMuscles: [String]
        public var secondaryMuscles: [String]
        public var instructions: [String]
        public var category: String
    }

    /// Every entry, in the database's order.
    public static let entries: [Entry] = {
        do {
            return try JSONDecoder().decode([Entry].self, from: Data(text.utf8))
        } catch {
            preconditionFailure("the embedded exercise database does not decode: \(error)")
        }
    }()

    /// By the database's id (`Barbell_Squat`).
    public static let byId: [String: Entry] = Dictionary(uniqueKeysWithValues: entries.map { ($0.id, $0) })
}
