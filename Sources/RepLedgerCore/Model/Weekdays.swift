import Foundation

/// Weekdays as a lifter types and reads them (`mon,wed,fri`), ISO-numbered:
/// 1 is Monday, 7 Sunday.
public enum Weekdays {
    public static let names = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]

    /// `mon,wed,fri` (three-letter or whole English names, any case, commas or spaces) → `[1, 3, 5]`;
    /// `none` → `[]`. Refuses an unknown name or a day given twice, naming it.
    public static func parse(_ text: String) throws(Refusal) -> [Int] {
        let words = text.lowercased().split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
        if words == ["none"] { return [] }
        var days: [Int] = []
        for word in words {
            guard word.count >= 3, let i = names.firstIndex(where: { word.hasPrefix($0) && fullNames[names.firstIndex(of: $0)!].hasPrefix(word) })
            else {
                throw .unknownVocabulary(kind: "weekday", value: word, allowed: names + ["none"])
            }
            guard !days.contains(i + 1) else { throw .invalidProgram("\(names[i]) is given twice") }
            days.append(i + 1)
        }
        guard !days.isEmpty else { throw .unknownVocabulary(kind: "weekday", value: text, allowed: names + ["none"]) }
        return days.sorted()
    }

    static let fullNames = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

    /// `[1, 3, 5]` → `["mon", "wed", "fri"]`.
    public static func text(_ days: [Int]) -> [String] { days.filter((1...7).contains).map { names[$0 - 1] } }
}
