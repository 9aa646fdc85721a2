import Foundation

/// The commands that live in `ledger-server`, the build that holds the sync
/// server, its PostgreSQL storage and the sync client (SwiftNIO, Hummingbird,
/// AsyncHTTPClient, postgres-nio). `ledger` hands them over unchanged, so
/// `ledger serve`, `ledger server …` and `ledger sync` are typed as always
/// while `ledger demo` and every other command build without those packages.
public enum ServerCommands {
    public static let serveAbstract = "Serve accounts' logs over HTTP for devices and coaches."
    public static let serverAbstract = "Accounts and tokens of a server (run beside or before `ledger serve`)."
    public static let syncAbstract = "Sync this ledger with its account on a server."
    public static let mcpAbstract = "Serve this ledger to an AI assistant over MCP (stdio): reads, and writes that never overwrite yours."
    public static let inspectAbstract = "The inspector: this ledger's log, views as of any event, and why each number is what it is, in a browser."
    public static let appAbstract = "The lifter's app in a browser over this ledger: today's plan, the workout, history, records, bodyweight."

    /// Command name → abstract, as `ledger --help` lists them.
    public static let all: [(name: String, abstract: String)] = [
        ("sync", syncAbstract), ("serve", serveAbstract), ("server", serverAbstract), ("inspect", inspectAbstract),
        ("app", appAbstract), ("mcp", mcpAbstract),
    ]

    /// The executable beside `ledger` that runs them.
    public static let executable = "ledger-server"

    /// What each of their helps says of where it runs.
    public static let whereItRuns =
        "It runs in ledger-server, beside ledger: in a SwiftPM build folder the first command that needs it builds it once; installed, keep the two executables together."

    public static func handles(_ name: String) -> Bool { all.contains { $0.name == name } }

    /// The `ledger coach` subcommands that ask the server (invites, offers): run in `ledger-server` too.
    public static let coachRemote: [(name: String, abstract: String)] = [
        ("invite", "Make a one-time invite code for a client (a week, once)."),
        ("invites", "A coach's invites and their state."),
        ("clients", "Your clients on the server, needing attention first (a name works wherever a client's id does)."),
        ("withdraw-invite", "Withdraw an unused invite: its code stops working."),
        ("accept", "Accept a coach's invite: grants that coach read access, then syncs."),
        ("assignments", "What your coaches offered you, and your answers."),
        ("accept-assignment", "Accept a coach's offer: its program or template is recorded here, then syncs."),
        ("decline-assignment", "Decline a coach's offer, then syncs."),
    ]

    /// The hidden `ledger-server coach` command that looks a client's name up on the server (`coach assign Lina …`).
    public static let coachByName = "by-name"

    /// The `ledger coach` commands whose first argument is a client, by account id or by name.
    public static let coachClientCommands: Set<String> = ["assign", "note"]

    /// Whether a command line (`coach invite …`) names a command `ledger-server` runs.
    public static func handles(_ args: [String]) -> Bool {
        guard let first = args.first else { return false }
        if handles(first) { return true }
        return first == "coach" && args.count > 1 && (coachRemote.contains { $0.name == args[1] } || namesClient(args))
    }

    /// `coach assign Lina …`: a client given by name, which only the server can turn into an account id.
    public static func namesClient(_ args: [String]) -> Bool {
        guard args.count > 2, args[0] == "coach", coachClientCommands.contains(args[1]) else { return false }
        let client = args[2]
        return !client.hasPrefix("-") && UUID(uuidString: client) == nil
    }

    /// The arguments `ledger-server` is run with for a command line it handles.
    public static func forwarded(_ args: [String]) -> [String] {
        namesClient(args) ? ["coach", coachByName] + Array(args.dropFirst()) : args
    }
}
