import Foundation

/// A Python the tests drive a real client with (Garmin's FIT SDK, the `mcp` package), named by an environment
/// variable that `.ci/run` sets to its virtualenv's interpreter.
package enum PythonClient {
    /// The interpreter `variable` names, else `python3` on the PATH.
    package static func python(_ variable: String) -> String { ProcessInfo.processInfo.environment[variable] ?? "python3" }

    /// Whether that Python imports `module`.
    package static func imports(_ module: String, python: String) -> Bool {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = [python, "-c", "import \(module)"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return false }
        p.waitUntilExit()
        return p.terminationStatus == 0
    }
}
