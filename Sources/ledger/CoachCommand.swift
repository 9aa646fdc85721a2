import ArgumentParser
import LedgerShell
import RepLedgerCore

/// `ledger coach grant|revoke COACH_ACCOUNT` (SERVER.md §4): recorded in this log, synced like any event.
struct CoachCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "coach", abstract: "Let a coach read your log on the server, or stop them.", subcommands: [Grant.self, Revoke.self])

    struct Grant: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "grant",
            abstract: "Grant a coach account read access (takes effect on the server after `ledger sync`).",
            discussion: "Example:\n  ledger coach grant 5d0c…-coach-account-id && ledger sync")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var at: AtOption
        @Argument(help: "The coach's account id.") var coachAccount: String

        func run() throws {
            try record(global, at, coachAccount, human: "may read this log") { try $0.grantCoach(coachAccount, current: $1) }
        }
    }

    struct Revoke: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "revoke", abstract: "Withdraw a coach's read access.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var at: AtOption
        @Argument(help: "The coach's account id.") var coachAccount: String

        func run() throws {
            try record(global, at, coachAccount, human: "may no longer read this log") { try $0.revokeCoach(coachAccount, current: $1) }
        }
    }
}

/// Records a grant or a revoke, decided on the grants in force.
private func record(
    _ global: GlobalOptions, _ at: AtOption, _ coach: String, human: String,
    _ decide: (inout CommandSession, CoachingState) throws -> Void
) throws {
    let ledger = try global.openLedger()
    let current = try ledger.coaching()
    try ledger.execute(at: try at.time()) { try decide(&$0, current) }
    respond(global, ["coachAccountId": coach.lowercased()], human: "Coach \(coach.lowercased()) \(human)")
}
