import ArgumentParser
import RepLedgerCore

struct LedgerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ledger",
        abstract: "RepLedger: an event-sourced, hash-chained workout ledger.",
        discussion: """
            Every change is an event appended to one SQLite file (--db, $REPLEDGER_DB, else ./repledger.sqlite), \
            given before or after the command. Queries never create a ledger; recording commands do. \
            Every command takes --json (the scripting contract); queries take --as-of POSITION|TIME (the log as it \
            stood then) and --until DATE (training done up to that date).

            Examples:
              ledger demo                  # 12 weeks of training, a tour
              ledger workout start --template "Upper A"
              ledger workout log last "Bench Press (Barbell)" --reps 8 --weight 80kg
              ledger prs --until 2026-10   # records as the training stood at the end of October 2026
              ledger import strong strong_workouts.csv --unit lb
              ledger sync                  # with your account on a server (ledger help sync)
              ledger help workout log      # any command's help

            serve, server, sync, inspect, mcp and the coach's commands that ask a server run in ledger-server, \
            beside ledger: in a SwiftPM build folder the first of them builds it once (and says so); installed, \
            keep the two executables together (README, "Start here").

            Exit status: 0 ok, 1 refused (nothing appended), 2 usage, 3 integrity failure, 4 storage failure.
            Shell completion: ledger --generate-completion-script bash|zsh|fish.
            """,
        version: RepLedgerVersion.current,
        subcommands: [
            DemoCommand.self, ExerciseCommand.self, WorkoutCommand.self, TemplateCommand.self, ProgramCommand.self, ProgressionCommand.self,
            ModuleCommand.self, NextCommand.self, PlatesCommand.self, WarmupCommand.self, PercentCommand.self, CalendarCommand.self, BodyCommand.self,
            HistoryCommand.self,
            HintCommand.self, RepCountCommand.self, PromptCommand.self, PRsCommand.self, E1RMCommand.self, VolumeCommand.self,
            EntitlementsCommand.self, PurchaseCommand.self, RefundCommand.self, UpsellCommand.self, SettingsCommand.self,
            RebuildCommand.self, SnapshotCommand.self, LogCommand.self, ShowCommand.self, ReplayCommand.self, BlameCommand.self, DiffCommand.self,
            VerifyCommand.self, WhyCommand.self, WhatIfCommand.self, CheckFixtureCommand.self, ImportCommand.self, ExportCommand.self,
            ReportCommand.self,
            AccountCommand.self,
            SyncHandOff.self, CoachCommand.self, ServeHandOff.self, ServerHandOff.self, McpHandOff.self,
        ]
    )
}
