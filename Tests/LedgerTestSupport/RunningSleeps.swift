import Foundation

/// The `sleep` processes of a duration only one test uses (`sleep 45.123`), read from /proc: what a test counts to
/// see a command still running, or none left behind.
package enum RunningSleeps {
    package static func count(_ seconds: String) -> Int {
        let pids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return pids.filter { Int($0) != nil }.filter { pid in
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
            let argv = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            return argv.count == 2 && argv[0].hasSuffix("sleep") && argv[1] == seconds
        }.count
    }
}
