import ArgumentParser
import LedgerShell
import RepLedgerCore

/// A template's lines as typed: each `--exercise` starts a line, and the
/// `--sets`, `--reps`, `--duration`, `--weight` and `--rest` after it are its
/// targets. The parser keeps each option's values apart, so their order is
/// read from the command line itself.
struct TemplateLineArguments: ParsableArguments {
    @Option(help: "An exercise, in order (repeatable); the targets after it are its own.") var exercise: [String] = []
    @Option(help: "Sets of the exercise before it (default 3).") var sets: [Int] = []
    @Option(help: "Reps of each set: 8 or a range, 8-12.") var reps: [String] = []
    @Option(help: "Duration of each set, for timed work: 45s, 1m30s or 1:30.") var duration: [String] = []
    @Option(help: "Weight of each set: 60kg, 135lb or a bare number in your unit.") var weight: [String] = []
    @Option(help: "Rest after each set: 90s, 2m or 1:30.") var rest: [String] = []

    static let targets: Set<String> = ["--sets", "--reps", "--duration", "--weight", "--rest"]

    /// The lines, reading `arguments` (the process's own) for which target follows which exercise.
    func lines(unit: WeightUnit, arguments: [String] = CommandLine.arguments) throws -> [TemplateExercise] {
        var lines: [TemplateExercise] = []
        var given: Set<String> = []
        var i = 0
        while i < arguments.count {
            var (name, value) = (arguments[i], String?.none)
            if let eq = name.firstIndex(of: "="), name.hasPrefix("--") {
                value = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            guard name == "--exercise" || Self.targets.contains(name) else { i += 1; continue }
            if value == nil {
                i += 1
                value = i < arguments.count ? arguments[i] : nil
            }
            i += 1
            guard let value else { continue }
            if name == "--exercise" {
                lines.append(TemplateExercise(exerciseId: value))
                given = []
                continue
            }
            guard !lines.isEmpty else { throw ValidationError("give --exercise before its \(name), e.g. --exercise squat --sets 3 --reps 5") }
            guard given.insert(name).inserted else { throw ValidationError("\(name) is given twice for \(lines[lines.count - 1].exerciseId)") }
            try apply(name, value, to: &lines[lines.count - 1], unit: unit)
        }
        guard lines.count == exercise.count else { throw ValidationError("give each --exercise with its targets after it") }
        return lines
    }

    private func apply(_ name: String, _ value: String, to line: inout TemplateExercise, unit: WeightUnit) throws {
        switch name {
        case "--sets":
            guard let n = Int(value) else { throw Refusal.invalidMeasure("--sets \(value)", reason: "give a number of sets, 1 to 20") }
            line.sets = n
        case "--reps":
            let parts = value.split(separator: "-", omittingEmptySubsequences: false).map { Int(String($0).trimmingSpaces()) }
            guard (1...2).contains(parts.count), let lo = parts[0], let hi = parts.last!, lo <= hi else { throw Refusal.malformedRange(value) }
            (line.repsMin, line.repsMax) = (lo, hi)
        case "--duration": line.durationSeconds = try Measure.seconds(value)
        case "--weight": line.weight = try Weight.parse(value, defaultUnit: unit)
        default: line.restSeconds = Int(try Measure.seconds(value).rounded())
        }
    }
}
