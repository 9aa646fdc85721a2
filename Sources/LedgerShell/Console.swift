import Foundation
import RepLedgerCore

/// What a person reads: lines on stdout, one-line errors on stderr, JSON, tables.
public enum Console {
    public static func out(_ line: String) {
        FileHandle.standardOutput.write(Data((shown(line) + "\n").utf8))
    }

    public static func error(_ line: String) {
        FileHandle.standardError.write(Data((shown(line) + "\n").utf8))
    }

    /// The text with every control character but the line break and the tab
    /// written out as `\x1c` (or `\u{85}` above ASCII): names, notes and
    /// headers come from files and other devices, and a raw escape or
    /// carriage return from them would move the cursor or rewrite what the
    /// terminal shows.
    public static func shown(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isHidden) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard isHidden(scalar) else {
                out.append(scalar)
                continue
            }
            let hex = String(scalar.value, radix: 16)
            out.append(contentsOf: (scalar.value < 0x80 ? "\\x" + String(repeating: "0", count: 2 - hex.count) + hex : "\\u{\(hex)}").unicodeScalars)
        }
        return String(out)
    }

    private static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control && scalar != "\n" && scalar != "\t"
    }

    public static func json(_ value: JSONValue) { out(value.rendered) }

    /// Left-aligned text columns, right-aligned numbers, for people at a terminal.
    public static func table(_ header: [String], _ rows: [[String]], rightAligned: Set<Int> = []) {
        let all = [header] + rows
        let widths = header.indices.map { c in all.map { $0.indices.contains(c) ? $0[c].count : 0 }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { i, cell in
                let padding = String(repeating: " ", count: max(0, widths[i] - cell.count))
                return rightAligned.contains(i) ? padding + cell : cell + padding
            }.joined(separator: "  ").trimmingTrailingSpaces()
        }
        out(line(header))
        out(widths.map { String(repeating: "─", count: $0) }.joined(separator: "  "))
        for row in rows { out(line(row)) }
    }
}

/// Weights for people: in the user's unit setting, at most two decimals.
public enum WeightText {
    public static func show(kg: Double?, in unit: WeightUnit) -> String {
        guard let kg else { return "bodyweight" }
        return unit.words(kilograms: kg)
    }

    /// A value that may be missing (a record not set yet): "–" rather than "bodyweight".
    public static func value(kg: Double?, in unit: WeightUnit) -> String { kg == nil ? "–" : show(kg: kg, in: unit) }

    public static func set(kg: Double?, reps: Int?, in unit: WeightUnit) -> String {
        let r = reps.map { " × \($0)" } ?? ""
        return kg == nil ? "\(reps.map(String.init) ?? "–") reps" : show(kg: kg, in: unit) + r
    }
}

/// "1 set", "3 sets": a count and its noun, as a person writes them.
public func counted(_ n: Int, _ noun: String, plural: String? = nil) -> String {
    "\(n) \(n == 1 ? noun : plural ?? noun + "s")"
}

extension String {
    public func trimmingTrailingSpaces() -> String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }

    public var shortId: String { String(prefix(8)) }
}
