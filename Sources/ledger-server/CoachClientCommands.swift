import ArgumentParser
import Foundation
import LedgerShell
import RepLedgerCore

/// `ledger coach clients`, and a client named instead of by id in `coach
/// assign` and `coach note`: the coach's roster is the server's
/// (`GET /v1/coach/clients`), so the name is looked up there and the command
/// then runs in `ledger` with the client's account id, as if typed so.
extension CoachRemoteCommand {
    struct Clients: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "clients", abstract: "Your clients on the server, needing attention first → {\"clients\":[…]}.",
            discussion: "A client's name works wherever a client's account id does (coach assign, coach note).")
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let answer = try DeviceServer(global).call(.GET, APIPath.coachClients.path())
            if global.json { Console.json(answer); return }
            guard case .array(let clients)? = answer["clients"], !clients.isEmpty else {
                Console.out("No clients yet: `ledger coach invite` makes a code a client accepts.")
                return
            }
            for c in clients {
                let last = c.string("lastWorkoutAt").map { "last workout \($0.prefix(10))" } ?? "no workout yet"
                let attention = c["needsAttention"] == .bool(true) ? "  needs attention" : ""
                Console.out("\(c.string("name") ?? "?")  \(c.string("accountId") ?? "")  \(last)  \(c.string("program") ?? "no program")\(attention)")
            }
        }
    }

    /// `coach assign NAME …` / `coach note NAME …`: NAME becomes the account id of the one client so named.
    struct ByName: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: ServerCommands.coachByName, shouldDisplay: false)
        @Argument(parsing: .captureForPassthrough) var arguments: [String] = []

        func run() throws {
            guard arguments.count >= 2 else { throw ValidationError("give the command and the client") }
            let (command, name) = (arguments[0], arguments[1])
            let rest = Array(arguments.dropFirst(2))
            let global = try GlobalOptions.parse(Self.globalArguments(rest))
            let answer = try DeviceServer(global).call(.GET, APIPath.coachClients.path())
            guard case .array(let clients)? = answer["clients"] else { throw ValidationError("the server listed no clients") }
            let named = clients.filter { ($0.string("name") ?? "").lowercased() == name.lowercased() }
            guard named.count == 1, let id = named[0].string("accountId") else {
                let names = clients.compactMap { $0.string("name") }.sorted()
                let known = names.isEmpty ? "you have no clients yet" : "your clients: \(names.joined(separator: ", "))"
                throw ValidationError(
                    named.isEmpty
                        ? "no client named '\(name)' (\(known))"
                        : "\(named.count) clients are named '\(name)': give the account id (`ledger coach clients`)")
            }
            ExecInPlace.run(ExecInPlace.sibling("ledger").path, ["coach", command, id] + rest)
        }

        /// The global options among `args` (--db FILE, --json), for opening the ledger here too.
        static func globalArguments(_ args: [String]) -> [String] {
            var out: [String] = []
            var i = 0
            while i < args.count {
                if args[i] == "--json" { out.append("--json") }
                if args[i] == "--db", i + 1 < args.count { out += ["--db", args[i + 1]]; i += 1 }
                if args[i].hasPrefix("--db=") { out.append(args[i]) }
                i += 1
            }
            return out
        }
    }
}
