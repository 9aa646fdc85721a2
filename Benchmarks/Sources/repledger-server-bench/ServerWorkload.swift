import Foundation

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

    /// A new account on this workload's storage, with its first token.
    func account(_ name: String) throws -> Account {
        let out = try ledger(["server", "account", "create", name, "--data", data] + storage + ["--json"])
        guard let json = try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any],
            let id = json["accountId"] as? String, let token = json["token"] as? String
        else {
            throw NSError(domain: "account create: \(out.prefix(200))", code: 1)
        }
        return Account(id: id, token: token)
    }
}
