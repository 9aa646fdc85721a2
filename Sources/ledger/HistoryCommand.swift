import ArgumentParser
import LedgerShell
import RepLedgerCore
import RepLedgerProjections
import RepLedgerQueries

struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history", abstract: "Your workouts, newest first (discarded ones are left out).",
        discussion: """
            Examples:
              ledger history --limit 5
              ledger history --exercise deadlift --month 2026-11
            """)
    @OptionGroup var global: GlobalOptions
    @OptionGroup var asOf: AsOfOption
    @OptionGroup var training: TrainingDateOption
    @Option(help: "Only workouts with a completed set of this exercise (id or name).") var exercise: String?
    @Option(help: "Only workouts started in this month, YYYY-MM.") var month: String?
    @Option(help: "At most this many workouts (newest first).") var limit: Int?
    @Option(help: "Skip this many workouts first (paging).") var offset = 0

    func validate() throws {
        if let month, !MonthText.isValid(month) {
            throw ValidationError("--month takes YYYY-MM, e.g. 2026-11")
        }
        if let limit, limit < 1 { throw ValidationError("--limit takes a number of at least 1") }
        if offset < 0 { throw ValidationError("--offset takes a number of at least 0") }
    }

    func run() throws {
        let scope = QueryScope(asOf: asOf.asOf, until: training.until)
        let a = try HistoryQuery.answer(try global.openStore(), scope, exercise: exercise, month: month, limit: limit, offset: offset)
        if global.json { Console.json(HistoryQuery.document(a)); return }
        let (rows, unit) = (a.rows, a.unit)
        guard !rows.isEmpty else { Console.out("No workouts yet. Try `ledger demo`, or `ledger workout start`."); return }
        var month = ""
        for w in rows {
            let m = String(w.startedAt.isoDate.prefix(7))
            if m != month { month = m; Console.out("\n\(m)") }
            let duration = w.durationSeconds.map { " · \($0 / 60) min" } ?? (w.finishedAt == nil ? " · in progress" : "")
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
