import ArgumentParser

struct LedgerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ledger",
        abstract: "RepLedger: an event-sourced, hash-chained workout ledger.",
        discussion: """
            Every change is an event appended to one SQLite file (--db, $REPLEDGER_DB, else ./repledger.sqlite).
            Exit status: 0 ok, 1 refused (nothing appended), 2 usage, 3 integrity failure, 4 storage failure.
            """,
        version: "0.1.0",
        subcommands: [
            DemoCommand.self, ExerciseCommand.self, WorkoutCommand.self, TemplateCommand.self, HistoryCommand.self,
            HintCommand.self, RepCountCommand.self, PromptCommand.self, PRsCommand.self, E1RMCommand.self, VolumeCommand.self,
            EntitlementsCommand.self, PurchaseCommand.self, RefundCommand.self, UpsellCommand.self, SettingsCommand.self,
            RebuildCommand.self, SnapshotCommand.self, LogCommand.self, ShowCommand.self, ReplayCommand.self, BlameCommand.self, DiffCommand.self,
            VerifyCommand.self, ImportCommand.self, ExportCommand.self, ReportCommand.self,
        ]
    )
}
