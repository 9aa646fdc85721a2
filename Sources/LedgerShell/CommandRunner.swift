import ArgumentParser
import Foundation

/// Parses and runs a root command the way both executables do, with USER-GUIDE.md's
/// exit codes: 0 ok, help and version included; 2 a usage error (not
/// ArgumentParser's 64); the command's own failures through `ExitStatus.report`.
public enum CommandRunner {
    /// `usageError` prints a usage error (a binary may add suggestions); by default the parser's message.
    public static func run(
        _ root: ParsableCommand.Type, _ arguments: [String],
        usageError: ((Error) -> Void)? = nil
    ) -> Never {
        var command: ParsableCommand
        do {
            command = try root.parseAsRoot(arguments)
        } catch {
            // --help, help and --version are "errors" that exit 0 and print to stdout.
            if root.exitCode(for: error) == .success {
                Console.out(root.fullMessage(for: error))
                exit(ExitStatus.ok)
            }
            if let usageError { usageError(error) } else { Console.error(root.fullMessage(for: error)) }
            exit(ExitStatus.usage)
        }
        do {
            try command.run()
            exit(ExitStatus.ok)
        } catch {
            exit(ExitStatus.report(error, root: root))
        }
    }
}
