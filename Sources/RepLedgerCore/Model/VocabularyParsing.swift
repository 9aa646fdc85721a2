import Foundation

/// Parses a closed vocabulary value as people type it (any case; `complete-beginner`, `fat-loss`,
/// `pull-up-bar` and `programDay` alike), refusing with the allowed values listed.
public func vocabulary<T: RawRepresentable & CaseIterable>(_ type: T.Type, _ kind: String, _ text: String) throws(Refusal) -> T
where T.RawValue == String {
    if let v = T.allCases.first(where: { vocabularyKey($0.rawValue) == vocabularyKey(text) }) { return v }
    throw .unknownVocabulary(kind: kind, value: text, allowed: T.allCases.map { kebab($0.rawValue) })
}

/// A word as vocabulary compares it: any case, with or without `-`, `_` and spaces (`smith-machine` is `smithMachine`).
func vocabularyKey(_ s: String) -> String { s.lowercased().filter { $0 != "-" && $0 != "_" && $0 != " " } }

/// `completeBeginner` → `complete-beginner`, as the CLI spells vocabulary.
public func kebab(_ camel: String) -> String {
    camel.reduce(into: "") { out, c in out += c.isUppercase ? "-" + c.lowercased() : String(c) }
}

/// An ISO 8601 time as people type it; a bare date or a time without an offset is local time.
public func parseTime(_ text: String) throws(Refusal) -> Timestamp {
    // `--at now`: the lifter says it is now, where "now" alone would be refused as a backfill's time.
    if text.trimmingSpaces().lowercased() == "now" { return .now() }
    let localOffset = TimeZone.current.secondsFromGMT() / 60
    guard let t = Timestamp.parseISO8601(text, defaultOffsetMinutes: localOffset) else { throw .invalidTime(text) }
    return t
}

extension Equipment {
    /// The questionnaire's answer for a commercial gym's floor: every kind of equipment at once.
    public static let fullGymAnswer = "full-gym"

    /// The questionnaire's equipment answers as people give them (`barbell`, `smith-machine`, or
    /// `full-gym` for all of it), each kind once, in the order given.
    public static func answers(_ texts: [String]) throws(Refusal) -> [Equipment] {
        var chosen: [Equipment] = []
        for text in texts {
            let found: [Equipment]
            if vocabularyKey(text) == vocabularyKey(fullGymAnswer) {
                found = allCases
            } else if let one = allCases.first(where: { vocabularyKey($0.rawValue) == vocabularyKey(text) }) {
                found = [one]
            } else {
                throw .unknownVocabulary(kind: "equipment", value: text, allowed: allCases.map { kebab($0.rawValue) } + [fullGymAnswer])
            }
            for e in found where !chosen.contains(e) { chosen.append(e) }
        }
        return chosen
    }
}
