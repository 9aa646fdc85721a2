import Foundation

/// One line of the results table: our figure, the floor's or the peer's, and the ratio.
struct Row: Codable {
    var workload: String
    var ours: String
    var reference: String
    var ratio: String
    var goal: String
    var met: String
}

struct Results: Codable {
    var machine: String
    var date: String
    var events: Int
    var rows: [Row]
}

enum Format {
    static func perSecond(_ v: Double) -> String {
        v >= 1e6 ? String(format: "%.2fM/s", v / 1e6) : v >= 1e3 ? String(format: "%.0fk/s", v / 1e3) : String(format: "%.0f/s", v)
    }
    static func micros(_ seconds: Double) -> String { String(format: "%.2f µs", seconds * 1e6) }
    static func millis(_ seconds: Double) -> String { String(format: "%.0f ms", seconds * 1e3) }
    static func millis3(_ seconds: Double) -> String { String(format: "%.2f ms", seconds * 1e3) }
    static func secs(_ seconds: Double) -> String { String(format: "%.2f s", seconds) }
    static func ratio(_ r: Double) -> String { String(format: "%.2f×", r) }
    static func mb(_ bytes: Int) -> String { String(format: "%.0f MB", Double(bytes) / 1e6) }

    static func table(_ rows: [Row]) -> String {
        let header = ["workload", "RepLedger", "floor / peer", "ratio", "goal", "met"]
        let cells = rows.map { [$0.workload, $0.ours, $0.reference, $0.ratio, $0.goal, $0.met] }
        var out = "| " + header.joined(separator: " | ") + " |\n|" + String(repeating: " --- |", count: header.count) + "\n"
        for c in cells { out += "| " + c.joined(separator: " | ") + " |\n" }
        return out
    }
}
