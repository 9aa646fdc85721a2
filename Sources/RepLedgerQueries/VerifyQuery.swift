import RepLedgerCore

/// `verify`: the chain check of the whole log, as a document.
public enum VerifyQuery {
    public static func document(_ report: VerificationReport) -> JSONValue {
        .object([
            ("ok", .bool(report.ok)), ("events", .int(report.events)),
            ("firstBadPosition", report.firstBadPosition.map { .int($0) } ?? .null),
            ("reason", .optional(report.reason)), ("headHash", .string(report.headHash)),
        ])
    }
}
