import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs another executable in place of this process (same pid, so signals and
/// exit codes pass straight through): how `ledger` hands a command to
/// `ledger-server`, and `ledger-server` a looked-up client back to `ledger`.
public enum ExecInPlace {
    /// The executable named `name` beside the running one.
    public static func sibling(_ name: String) -> URL {
        (Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0]))
            .resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent(name)
    }

    /// Replaces this process with `path` run with `arguments`; returns only to say it could not.
    public static func run(_ path: String, _ arguments: [String]) -> Never {
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        execv(path, argv)
        Console.error("error: cannot run \(path): \(String(cString: strerror(errno)))")
        exit(ExitStatus.storage)
    }
}
