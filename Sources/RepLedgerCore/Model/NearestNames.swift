/// "Did you mean …?": the known names closest to a mistyped one, for
/// commands and exercises alike.
public enum NearestNames {
    /// Up to `limit` of `candidates` close to `typed`, best first: names that
    /// contain what was typed (or its words), then small edit distances; among
    /// equally close names, the `preferred` ones (what the lifter has done) first.
    public static func closest(to typed: String, among candidates: [String], limit: Int = 3, preferring preferred: Set<String> = []) -> [String] {
        let key = typed.lowercased().trimmingSpaces()
        guard !key.isEmpty else { return [] }
        let words = key.split(separator: " ").map(String.init)
        var scored: [(score: Int, name: String)] = []
        for name in candidates {
            let lower = name.lowercased()
            if lower == key { continue }
            if lower.hasPrefix(key) {
                scored.append((0, name))
            } else if lower.contains(key) {
                scored.append((1, name))
            } else if words.count > 1, words.allSatisfy({ lower.contains($0) }) {
                scored.append((2, name))
            } else {
                // A slip in the start of a long name ("bench prss" for "Bench Press (Barbell)") counts like one in a whole name.
                let d = min(distance(key, lower), lower.count > key.count ? distance(key, String(lower.prefix(key.count))) : Int.max)
                if d <= max(1, min(3, key.count / 3)) { scored.append((3 + d, name)) }
            }
        }
        // Shorter names first within a score: "Bench Press (Barbell)" before its variations.
        func rank(_ s: (score: Int, name: String)) -> (Int, Int, Int, String) {
            (s.score, preferred.contains(s.name) ? 0 : 1, s.name.count, s.name)
        }
        return scored.sorted { rank($0) < rank($1) }.prefix(limit).map(\.name)
    }

    /// "; did you mean A, B or C?" for a message, or "" when nothing is close.
    public static func didYouMean(_ names: [String]) -> String {
        guard let last = names.last else { return "" }
        let list = names.count == 1 ? last : names.dropLast().joined(separator: ", ") + " or " + last
        return "; did you mean \(list)?"
    }

    /// Levenshtein distance, with a swap of two neighbours counting once ("histroy").
    public static func distance(_ a: String, _ b: String) -> Int {
        let x = Array(a), y = Array(b)
        if x.isEmpty { return y.count }
        if y.isEmpty { return x.count }
        var d = [[Int]](repeating: [Int](repeating: 0, count: y.count + 1), count: x.count + 1)
        for i in 0...x.count { d[i][0] = i }
        for j in 0...y.count { d[0][j] = j }
        for i in 1...x.count {
            for j in 1...y.count {
                let cost = x[i - 1] == y[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[x.count][y.count]
    }
}
