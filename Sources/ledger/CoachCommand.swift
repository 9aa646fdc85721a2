import ArgumentParser
import LedgerShell
import RepLedgerCore

/// `ledger coach …` (SERVER-CONTRACT.md §4, §8). Grant, revoke, assign and note only
/// record in this log and reach the server with the next sync; the commands
/// that ask the server (invites, a client's answer to an offer) run in
/// `ledger-server` (`ServerLauncher`), listed here by their hand-offs.
struct CoachCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "coach", abstract: "Coaching: grants, invites, assignments and notes.",
        subcommands: [Grant.self, Revoke.self, Assign.self, Note.self] + CoachHandOff.all)

    struct Assign: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "assign",
            abstract: "Offer a client one of your programs or templates (recorded in your log; the client sees it after `ledger sync`).",
            discussion:
                "The client is their account id, or their name on the server (looked up there: `ledger coach clients`).\n\nExamples:\n  ledger coach assign Lina --program active && ledger sync\n  ledger coach assign 7c1e…-client-account-id --template \"Upper A\""
        )
        @OptionGroup var global: GlobalOptions
        @OptionGroup var at: AtOption
        @Argument(help: "The client: their account id, or their name on the server.") var client: String
        @Option(help: "A program of yours: its id, a unique start of it, or `active`.") var program: String?
        @Option(help: "A template of yours: its name or id.") var template: String?

        func validate() throws {
            guard (program == nil) != (template == nil) else { throw ValidationError("give one of --program or --template") }
        }

        func run() throws {
            let ledger = try global.openLedger()
            let offer = try ledger.execute(at: try at.time()) { session -> AssignmentOffered in
                if let program { return try session.offerProgram(program, to: client) }
                return try session.offerTemplate(template ?? "", to: client)
            }
            respond(
                global, ["assignmentId": offer.assignmentId.lowercased, "clientAccountId": offer.clientAccountId],
                human:
                    "Offered \(offer.kind.rawValue) \(offer.name) to \(offer.clientAccountId) (assignment \(offer.assignmentId.lowercased)); `ledger sync` sends it"
            )
        }
    }

    struct Note: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "note", abstract: "Note something about a client, in your own log (never in the client's).",
            discussion:
                "Examples:\n  ledger coach note Lina \"Knees cave on heavy squats\"\n  ledger coach note 7c1e…-client-account-id \"Belt from the third set\""
        )
        @OptionGroup var global: GlobalOptions
        @OptionGroup var at: AtOption
        @Argument(help: "The client: their account id, or their name on the server.") var client: String
        @Argument(help: "The note.") var text: String

        func run() throws {
            let ledger = try global.openLedger()
            let id = try ledger.execute(at: try at.time()) { try $0.addCoachNote(about: client, text: text) }
            respond(global, ["noteId": id.lowercased], human: "Noted (\(id.lowercased))")
        }
    }

    struct Grant: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "grant",
            abstract: "Grant a coach account read access (takes effect on the server after `ledger sync`).",
            discussion: "Example:\n  ledger coach grant 5d0c…-coach-account-id && ledger sync")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var at: AtOption
        @Argument(help: "The coach's account id.") var coachAccount: String

        func run() throws {
            try record(global, at, coachAccount, human: "may read this log once synced (`ledger sync`)") {
                try $0.grantCoach(coachAccount, current: $1)
            }
        }
    }

    struct Revoke: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "revoke", abstract: "Withdraw a coach's read access.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var at: AtOption
        @Argument(help: "The coach's account id.") var coachAccount: String

        func run() throws {
            try record(global, at, coachAccount, human: "may no longer read this log once synced (`ledger sync`)") {
                try $0.revokeCoach(coachAccount, current: $1)
            }
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
    // This log knows the coach by account id only (the name comes from the server at `coach accept`): say it is an id.
    respond(global, ["coachAccountId": coach.lowercased()], human: "The coach with account \(coach.lowercased()) \(human)")
}

/// How `ledger coach --help` lists the subcommands that run in `ledger-server`
/// (`ServerLauncher` hands them over before they are parsed here).
enum CoachHandOff {
    static var all: [any ParsableCommand.Type] {
        [
            Command<Invite>.self, Command<Invites>.self, Command<WithdrawInvite>.self, Command<Clients>.self, Command<Accept>.self,
            Command<Assignments>.self,
            Command<AcceptAssignment>.self, Command<DeclineAssignment>.self,
        ]
    }

    protocol Name { static var name: String { get } }
    enum Invite: Name { static let name = "invite" }
    enum Invites: Name { static let name = "invites" }
    enum Clients: Name { static let name = "clients" }
    enum WithdrawInvite: Name { static let name = "withdraw-invite" }
    enum Accept: Name { static let name = "accept" }
    enum Assignments: Name { static let name = "assignments" }
    enum AcceptAssignment: Name { static let name = "accept-assignment" }
    enum DeclineAssignment: Name { static let name = "decline-assignment" }

    struct Command<N: Name>: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(commandName: N.name, abstract: ServerCommands.coachRemote.first { $0.name == N.name }?.abstract ?? "")
        }
        @Argument(parsing: .captureForPassthrough) var arguments: [String] = []
        func run() throws { ServerLauncher.run(["coach", N.name] + arguments) }
    }
}
