/// A workload against a real `ledger serve` of its own, on SQLite files
/// under `work` or on the PostgreSQL database of `--postgres`.
protocol ServerWorkload {
    var options: Options { get }
    var work: String { get }
}

extension ServerWorkload {
    var data: String { work + "/server" }
    var storage: [String] { options.postgres.map { ["--postgres", $0, "--keys", work + "/keys"] } ?? [] }
    var backend: String { options.postgres == nil ? "SQLite" : "PostgreSQL" }

    func ledger(_ args: [String]) throws -> String { try repledger_server_bench.run(options.ledger, args) }
}
