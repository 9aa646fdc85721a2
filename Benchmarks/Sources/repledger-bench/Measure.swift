import Foundation

/// Timing helpers: wall-clock seconds, medians over runs, peak memory.
enum Measure {
    static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    /// Seconds taken by `body`.
    static func time(_ body: () throws -> Void) rethrows -> Double {
        let t = now()
        try body()
        return now() - t
    }

    /// The median of `runs` timings (the machines are shared and noisy: medians, not means).
    static func median(_ runs: Int, _ body: () throws -> Void) rethrows -> Double {
        var times: [Double] = []
        for _ in 0..<max(1, runs) { times.append(try time(body)) }
        return median(times)
    }

    static func median(_ values: [Double]) -> Double {
        let s = values.sorted()
        guard !s.isEmpty else { return .nan }
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }

    /// The nearest-rank percentile (`fraction` 0.95 for p95) of `values`, in any order.
    static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        let s = values.sorted()
        guard !s.isEmpty else { return .nan }
        return s[max(0, Int((Double(s.count) * fraction).rounded(.up)) - 1)]
    }

    /// Peak resident memory of this process so far, in bytes (VmHWM).
    static func peakRSS() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kb = Int(line.split(separator: " ").dropFirst().first { !$0.isEmpty } ?? "")
        else { return 0 }
        return kb * 1024
    }

    /// Runs a program and returns its standard output and wall time. Spawned
    /// directly (posix_spawn, output to a file): Foundation's `Process` adds
    /// about 50 ms of its own, which would swamp a 20 ms query.
    static func run(_ path: String, _ args: [String]) throws -> (output: String, seconds: Double) {
        let outPath = FileManager.default.temporaryDirectory.appendingPathComponent("bench-out-\(getpid())").path
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([path] + args).map { strdup($0) } + [nil]
        defer { for arg in argv { free(arg) } }
        var pid: pid_t = 0
        let t = now()
        let rc = posix_spawn(&pid, path, &actions, nil, argv, environ)
        guard rc == 0 else { throw BenchError.failed("cannot start \(path): error \(rc)") }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        let seconds = now() - t
        let output = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(atPath: outPath)
        guard status == 0 else { throw BenchError.failed("\(path) \(args.joined(separator: " ")) failed (status \(status))") }
        return (output, seconds)
    }
}

enum BenchError: Error, CustomStringConvertible {
    case failed(String)
    var description: String {
        switch self {
        case .failed(let s): return s
        }
    }
}
