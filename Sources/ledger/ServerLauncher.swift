import ArgumentParser
import Foundation
import LedgerShell

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `ledger serve`, `ledger server …` and `ledger sync` run `ledger-server`,
/// the executable beside this one, in place of this process (same arguments,
/// same pid, so signals and exit codes pass straight through). Under a
/// SwiftPM build folder a missing `ledger-server` is built first, once: the
/// demo and every device command never wait for the server's packages.
enum ServerLauncher {
    /// Whether the command line (global options already moved after the command) names a server command.
    static func handles(_ args: [String]) -> Bool {
        guard let first = args.first else { return false }
        if ServerCommands.handles(args) { return true }
        return first == "help" && ServerCommands.handles(Array(args.dropFirst()))
    }

    static func run(_ args: [String]) -> Never {
        var forwarded = ServerCommands.forwarded(args)
        if forwarded.first == "help" { forwarded.removeFirst(); forwarded.append("--help") }
        let server = ExecInPlace.sibling(ServerCommands.executable)
        let here = server.deletingLastPathComponent()
        if !FileManager.default.isExecutableFile(atPath: server.path) {
            buildInPackage(beside: here)
        }
        guard FileManager.default.isExecutableFile(atPath: server.path) else {
            Console.error(
                "error: `ledger \(args.first ?? "")` needs \(ServerCommands.executable) beside ledger in \(here.path); install both, or build it with `swift build --product ledger-server`"
            )
            exit(ExitStatus.storage)
        }
        ExecInPlace.run(server.path, forwarded)
    }

    /// In `PACKAGE/.build…/CONFIG/`, builds the `ledger-server` product of that package and configuration.
    private static func buildInPackage(beside folder: URL) {
        let parts = folder.pathComponents
        guard let scratchIndex = parts.lastIndex(where: { $0.hasPrefix(".build") }), scratchIndex > 0 else { return }
        let root = NSString.path(withComponents: Array(parts[..<scratchIndex]))
        let scratch = NSString.path(withComponents: Array(parts[...scratchIndex]))
        guard FileManager.default.fileExists(atPath: root + "/Package.swift") else { return }
        let configuration = folder.lastPathComponent == "release" ? "release" : "debug"
        Console.error("Building the server and sync (\(ServerCommands.executable), \(configuration)); only the first time…")
        let swift = Process()
        swift.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        swift.arguments = [
            "swift", "build", "--package-path", root, "--scratch-path", scratch, "-c", configuration,
            "--product", ServerCommands.executable,
        ]
        // The build's own output goes to stderr: stdout stays the command's (JSON, a server's port line).
        swift.standardOutput = FileHandle.standardError
        do {
            try swift.run()
            swift.waitUntilExit()
        } catch {
            Console.error("error: cannot run `swift build`: \(error)")
        }
    }
}

/// How `ledger --help` lists the server's commands; they run in `ledger-server` (`ServerLauncher`).
struct SyncHandOff: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "sync", abstract: ServerCommands.syncAbstract)
    @Argument(parsing: .captureForPassthrough) var arguments: [String] = []
    func run() throws { ServerLauncher.run(["sync"] + arguments) }
}

struct ServeHandOff: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "serve", abstract: ServerCommands.serveAbstract)
    @Argument(parsing: .captureForPassthrough) var arguments: [String] = []
    func run() throws { ServerLauncher.run(["serve"] + arguments) }
}

struct ServerHandOff: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "server", abstract: ServerCommands.serverAbstract)
    @Argument(parsing: .captureForPassthrough) var arguments: [String] = []
    func run() throws { ServerLauncher.run(["server"] + arguments) }
}

struct McpHandOff: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "mcp", abstract: ServerCommands.mcpAbstract)
    @Argument(parsing: .captureForPassthrough) var arguments: [String] = []
    func run() throws { ServerLauncher.run(["mcp"] + arguments) }
}
