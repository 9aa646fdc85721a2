import Foundation
import RepLedgerCore
import RepLedgerProjections
import RepLedgerQueries

/// The Rules page's preview: a rule file's text (the format `rebuild --diff --rules` reads) against
/// the built-in rules, answered by `RebuildQuery` as `ledger rebuild --diff --rules FILE` is. Nothing is written.
enum RulesPreview {
    /// The built-in rules as a rule file, for the form to start from.
    static let defaultText: String = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return (try? encoder.encode(RuleSet.default)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }()

    static func answer(_ store: any EventStore, text: String) throws -> RebuildQuery.Answer {
        let rules: RuleSet
        do {
            rules = try RuleSet.load(Data(text.utf8), name: "from the form")
        } catch let e as RuleSet.LoadError {
            throw QueryError.invalidParameter(e.description)
        }
        return try RebuildQuery.answer(store, rules: rules, against: .default)
    }
}
