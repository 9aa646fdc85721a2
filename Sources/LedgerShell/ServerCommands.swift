/// The commands that live in `ledger-server`, the build that holds the sync
/// server, its PostgreSQL storage and the sync client (SwiftNIO, Hummingbird,
/// AsyncHTTPClient, postgres-nio). `ledger` hands them over unchanged, so
/// `ledger serve`, `ledger server …` and `ledger sync` are typed as always
/// while `ledger demo` and every other command build without those packages.
public enum ServerCommands {
    public static let serveAbstract = "Serve accounts' logs over HTTP for devices and coaches."
    public static let serverAbstract = "Accounts and tokens of a server (run beside or before `ledger serve`)."
    public static let syncAbstract = "Sync this ledger with its account on a server."

    /// Command name → abstract, as `ledger --help` lists them.
    public static let all: [(name: String, abstract: String)] = [
        ("sync", syncAbstract), ("serve", serveAbstract), ("server", serverAbstract),
    ]

    /// The executable beside `ledger` that runs them.
    public static let executable = "ledger-server"

    public static func handles(_ name: String) -> Bool { all.contains { $0.name == name } }
}
