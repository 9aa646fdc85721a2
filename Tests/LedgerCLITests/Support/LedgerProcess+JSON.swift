import LedgerTestSupport
import Testing

extension LedgerProcess {
    /// Runs a command with `--json`: it must succeed, and its answer is a JSON object.
    func json(_ args: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        let out = try run(args + ["--json"])
        #expect(out.status == 0, "\(args): \(out.stderr)", sourceLocation: sourceLocation)
        return try #require(out.json, "\(args) printed \(out.stdout.prefix(200))", sourceLocation: sourceLocation)
    }
}
