import ArgumentParser
import Foundation
import LedgerShell
import RepLedgerCore
import RepLedgerQueries

/// Runs the command and maps every failure to USER-GUIDE.md's exit codes:
/// 0 ok · 1 refused · 2 usage · 3 integrity failure · 4 storage failure.
@main
enum Entry {
    static func main() {
        let args = CommandLineShape.hoistingGlobalOptions(Array(CommandLine.arguments.dropFirst()))
        if ServerLauncher.handles(args) { ServerLauncher.run(args) }
        CommandRunner.run(LedgerCommand.self, args) { error in
            // A mistyped command gets a suggestion.
            if let mistyped = CommandLineShape.unknownSubcommand(in: args) {
                Console.error("error: unknown command '\(mistyped.typed)'\(mistyped.suggestion)")
                Console.error("Usage: see `\(mistyped.parentPath) --help` for the commands")
            } else {
                Console.error(LedgerCommand.fullMessage(for: error))
            }
        }
    }
}

/// Reading the command line the way people type it.
enum CommandLineShape {
    /// `ledger --db F prs` and `ledger --json prs`: options every command
    /// takes, given before the subcommand, are moved after it (ArgumentParser
    /// reads options at the level that declares them).
    static func hoistingGlobalOptions(_ args: [String]) -> [String] {
        var head: [String] = []
        var moved: [String] = []
        var i = 0
        while i < args.count, args[i].hasPrefix("-") {
            let a = args[i]
            if a == "--db", i + 1 < args.count {
                moved += [a, args[i + 1]]
                i += 2
            } else if a.hasPrefix("--db=") || a == "--json" {
                moved.append(a)
                i += 1
            } else {
                head.append(a)
                i += 1
            }
        }
        guard !moved.isEmpty, i < args.count else { return args }
        // The rest is the command path and its own arguments; "--" would end options, so insert before it.
        var rest = Array(args[i...])
        let end = rest.firstIndex(of: "--") ?? rest.endIndex
        rest.insert(contentsOf: moved, at: end)
        return head + rest
    }

    struct Mistyped {
        var typed: String
        var suggestion: String
        var parentPath: String
    }

    /// The first word of the command path that names no command, with the
    /// closest names at that level ("did you mean history?").
    static func unknownSubcommand(in args: [String]) -> Mistyped? {
        var level = children(of: LedgerCommand.self)
        var path = ["ledger"]
        for word in args {
            if word.hasPrefix("-") || word == "help" || level.isEmpty { return nil }
            if let next = level.first(where: { $0.name == word }) {
                level = children(of: next.type)
                path.append(word)
                continue
            }
            let near = NearestNames.closest(to: word, among: level.map(\.name), limit: 2)
            return Mistyped(typed: word, suggestion: NearestNames.didYouMean(near), parentPath: path.joined(separator: " "))
        }
        return nil
    }

    private static func children(of type: ParsableCommand.Type) -> [(name: String, type: ParsableCommand.Type)] {
        var out: [(name: String, type: ParsableCommand.Type)] = []
        for sub in type.configuration.subcommands {
            let name: String = sub._commandName
            out.append((name, sub))
        }
        return out
    }
}
