import ArgumentParser
import Foundation
import LedgerShell
import RepLedgerCore
import RepLedgerProjections
import RepLedgerQueries

/// `ledger report --html FILE`: a page a lifter can open offline and share.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write a self-contained HTML report: e1RM trend, weekly volume by muscle, PRs, calendar, last workouts.")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var query: QueryOptions
    @Option(help: "The HTML file to write.") var html: String

    func run() throws {
        let store = try global.openStore()
        let log = try query.log(store)
        let window = ChartWindow.forPlan(log, at: try query.scope().answerTime(), planAt: try query.scope().planTime())
        let report = TrainingReport(log, rules: try query.ruleSet(), chartWindow: window)
        let page = ReportPage.html(report, generatedAt: .now())
        do {
            try Data(page.utf8).write(to: URL(fileURLWithPath: html), options: .atomic)
        } catch {
            throw ImportError.unreadableFile(html, reason: "cannot write it (\(error.localizedDescription))")
        }
        ExportRecord.note(store, file: html, format: "html")
        if global.json {
            Console.json(
                .object([
                    ("file", .string(html)), ("workouts", .int(Int64(report.workouts))),
                    ("bytes", .int(Int64(page.utf8.count))), ("chartWindow", ChartWindowJSON.json(window)),
                    ("upsell", .optional(window?.upsell)), ("hidden", ChartWindowJSON.hidden(report.hidden)),
                ]))
        } else {
            Console.out("Wrote \(html): \(report.workouts) workouts, \(page.utf8.count / 1024) KiB. Open it in any browser.")
            if let window, let hidden = report.hidden {
                Console.out(window.hiddenNote(hidden, everyPlan: "the report's records timeline and `ledger history` show it") + ".")
            } else if let window {
                Console.out(window.upsell)
            }
        }
    }
}
