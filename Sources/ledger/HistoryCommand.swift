import ArgumentParser
import LedgerShell
import RepLedgerCore
import RepLedgerProjections
import RepLedgerQueries

struct HistoryCommand: ParsableCommand {
    /// The filters of this answer, as the next page's command line repeats them.
    static func filters(_ exercise: String?, _ month: String?) -> String {
        var text = ""
        if let exercise { text += " --exercise " + (exercise.contains(" ") ? "\"\(exercise)\"" : exercise) }
        if let month { text += " --month \(month)" }
        return text
    }

    static let configuration = CommandConfiguration(
        commandName: "history", abstract: "Your workouts, newest first (discarded ones are left out).",
        discussion: """
            The text shows \(Self.textPage) workouts at a time, with how many there are and how to see the \
            next; --json gives every one unless --limit says otherwise.

            Examples:
              ledger history --limit 5
              ledger history --offset 10
              ledger history --exercise deadlift --month 2026-11
            """)

    /// Workouts a text answer shows when no --limit is given: a screen's worth, not a whole history.
    static let textPage = 10
    @OptionGroup var global: GlobalOptions
    @OptionGroup var asOf: AsOfOption
    @OptionGroup var training: TrainingDateOption
    @OptionGroup var leaving: WithoutOption
    @Option(help: "Only workouts with a completed set of this exercise (id or name).") var exercise: String?
    @Option(help: "Only workouts started in this month, YYYY-MM.") var month: String?
    @Option(help: "At most this many workouts (newest first; in text, \(Self.textPage) unless given).") var limit: Int?
    @Option(help: "Skip this many workouts first (paging).") var offset = 0

    func validate() throws {
        if let month, !MonthText.isValid(month) {
            throw ValidationError("--month takes YYYY-MM, e.g. 2026-11")
        }
        if let limit, limit < 1 { throw ValidationError("--limit takes a number of at least 1") }
        if offset < 0 { throw ValidationError("--offset takes a number of at least 0") }
    }

    func run() throws {
        var scope = QueryScope(asOf: asOf.asOf, until: training.until)
        scope.without = try leaving.positions()
        let shown = global.json ? limit : limit ?? Self.textPage
        let a = try HistoryQuery.answer(try global.openStore(), scope, exercise: exercise, month: month, limit: shown, offset: offset)
        if global.json { Console.json(HistoryQuery.document(a)); return }
        let (rows, unit) = (a.rows, a.unit)
        guard !rows.isEmpty else {
            if a.total > 0 {
                Console.out(
                    "There are \(a.total) workouts, all before this page: `ledger history --offset \(max(0, a.total - (shown ?? Self.textPage)))` shows the last page."
                )
            } else if exercise != nil || month != nil {
                Console.out("No workouts match: `ledger history` alone lists every one.")
            } else {
                Console.out("No workouts yet. Try `ledger demo`, or `ledger workout start`.")
            }
            return
        }
        defer {
            let last = offset + rows.count
            if offset > 0 || last < a.total {
                var line = "\nWorkouts \(offset + 1)–\(last) of \(a.total), newest first"
                if last < a.total {
                    line +=
                        ": `ledger history\(Self.filters(exercise, month)) --offset \(last)` shows the next \(min(rows.count, a.total - last)), `--limit N` more at once."
                } else {
                    line += "."
                }
                Console.out(line)
            }
        }
        var month = ""
        for w in rows {
            let m = String(w.startedAt.isoDate.prefix(7))
            if m != month { month = m; Console.out("\n\(m)") }
            let duration =
                w.durationSeconds.map { " · \($0 / 60) min" }
                ?? (w.finishedAt == nil ? " · in progress, started \(max(0, Timestamp.now().millis - w.startedAt.millis) / 60_000) min ago" : "")
            Console.out(
                "  \(w.startedAt.isoDate)  \(w.name)\(duration) · \(counted(w.sets, "set")) · \(WeightText.show(kg: w.tonnageKg, in: unit))  [\(w.workoutId.lowercased.shortId)]"
            )
            if let note = w.notes { Console.out("      note: \(note)") }
            if let line = SessionText.closing(w) { Console.out("      \(line)") }
            let labels = SupersetLabels.labels(w.exercises.map(\.supersetId))
            for (x, label) in zip(w.exercises, labels) {
                let sets = x.sets.map { SetRowText.text($0, in: unit, distance: a.distanceUnit, effort: a.effortScale) }
                Console.out("      \(SupersetLabels.prefix(label))\(x.exercise): \(sets.joined(separator: ", "))\(x.note.map { " — \($0)" } ?? "")")
            }
        }
    }
}
