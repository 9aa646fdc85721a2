import Foundation

/// How text output marks supersets: `[A]`, `[B]`… by the order each superset
/// first appears in the workout, so linked exercises read as one group.
enum SupersetLabels {
    /// A label for each position's superset (nil for an exercise on its own).
    static func labels(_ supersets: [UUID?]) -> [String?] {
        var letters: [UUID: String] = [:]
        return supersets.map { id in
            guard let id else { return nil }
            if let known = letters[id] { return known }
            let letter = String(UnicodeScalar(UInt8(65 + letters.count % 26)))
            letters[id] = letter
            return letter
        }
    }

    /// `"[A] "` or `""`.
    static func prefix(_ label: String?) -> String { label.map { "[\($0)] " } ?? "" }
}
