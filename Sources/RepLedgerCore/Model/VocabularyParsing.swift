import Foundation

/// Parses a closed vocabulary value as people type it (any case; `complete-beginner`, `fat-loss`,
/// `pull-up-bar` and `programDay` alike), refusing with the allowed values listed.
public func vocabulary<T: RawRepresentable & CaseIterable>(_ type: T.Type, _ kind: String, _ text: String) throws(Refusal) -> T
where T.RawValue == String {
    func key(_ s: String) -> String { s.lowercased().filter { $0 != "-" && $0 != "_" && $0 != " " } }
    if let v = T.allCases.first(where: { key($0.rawValue) == key(text) }) { return v }
    throw .unknownVocabulary(kind: kind, value: text, allowed: T.allCases.map { kebab($0.rawValue) })
}

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
