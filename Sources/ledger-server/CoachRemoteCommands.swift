import ArgumentParser
import Foundation
import LedgerShell
import RepLedgerCore
import RepLedgerSQLite
import RepLedgerSync

/// The coach commands that ask the server (SERVER-CONTRACT.md §8): a coach's invites,
/// and a client accepting one or answering an offer. `ledger coach …` hands
/// these to this binary; grant, revoke, assign and note stay in `ledger`
/// (they only record, and reach the server with the next sync).
struct CoachRemoteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "coach", abstract: "A coach's invites; a client's answer to an invite or an offer.",
        subcommands: [
            Invite.self, Invites.self, Withdraw.self, Clients.self, Accept.self, Assignments.self, AcceptAssignment.self,
            DeclineAssignment.self, ByName.self,
        ])

    struct Invite: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "invite", abstract: "Make a one-time invite code for a client (a week, once) → {\"inviteId\",\"code\",\"expiresAt\"}.",
            discussion:
                "The code is shown this once; the server keeps only its hash.\n\nExample:\n  ledger coach invite --note \"Lina, Tuesday group\"")
        @OptionGroup var global: GlobalOptions
        @Option(help: "A note to know the invite by (at most 200 characters).") var note: String?

        func run() throws {
            let server = try DeviceServer(global)
            var body: JSONValue = .object([])
            if let note { body = .object([("note", .string(note))]) }
            let answer = try server.call(.POST, APIPath.coachInvites.path(), body: body.rendered)
            if global.json { Console.json(answer); return }
            Console.out(
                "Invite code \(answer.string("code") ?? "?") (works once, until \(answer.string("expiresAt") ?? "?")); the client runs `ledger coach accept CODE`"
            )
        }
    }

    struct Invites: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "invites", abstract: "A coach's invites and their state → {\"invites\":[…]}.")
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let answer = try DeviceServer(global).call(.GET, APIPath.coachInvites.path())
            if global.json { Console.json(answer); return }
            guard case .array(let items)? = answer["invites"], !items.isEmpty else { Console.out("No invites."); return }
            for i in items {
                Console.out(
                    "\(i.string("inviteId") ?? "")  \(i.string("state") ?? "")\(i.string("usedByName").map { " by \($0)" } ?? "")  until \(i.string("expiresAt") ?? "")  \(i.string("note") ?? "")"
                )
            }
        }
    }

    struct Withdraw: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "withdraw-invite", abstract: "Withdraw an unused invite: its code stops working.",
            discussion: "Example:\n  ledger coach withdraw-invite 0b6f…-invite-id")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The invite's id (from `ledger coach invites`).") var inviteId: String

        func run() throws {
            let answer = try DeviceServer(global).call(.DELETE, APIPath.coachInvite.path(inviteId))
            if global.json { Console.json(answer) } else { Console.out("Invite \(inviteId) withdrawn") }
        }
    }

    struct Accept: ParsableCommand {
        /// "Coach Carl" for a coach named Carl, and for one who named themself "Coach Carl".
        static func coachWords(_ name: String) -> String {
            name.lowercased().hasPrefix("coach ") ? name : "Coach \(name)"
        }

        static let configuration = CommandConfiguration(
            commandName: "accept",
            abstract: "Accept a coach's invite: grants that coach read access, then syncs → {\"coachAccountId\",\"coachName\"}.",
            discussion:
                "Redeems the code on the server this ledger syncs with, records `CoachAccessGranted` here, and syncs.\n\nExample:\n  ledger coach accept K7QM-4XD2-P9TB"
        )
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The invite code the coach gave you.") var code: String

        func run() throws {
            let server = try DeviceServer(global)
            let answer = try server.call(.POST, APIPath.coachInviteAccept.path(), body: JSONValue.object([("code", .string(code))]).rendered)
            guard let coach = answer.string("coachAccountId") else { throw SyncClient.Failure.malformedAnswer("no coachAccountId in the answer") }
            let ledger = try global.openLedger()
            // A retried accept finds the grant recorded already: nothing to add, the sync still runs.
            if !(try ledger.coaching().grants(coach)) {
                try ledger.execute { try $0.grantCoach(coach, current: try ledger.coaching()) }
            }
            try server.sync()
            let name = answer.string("coachName") ?? ""
            if global.json {
                Console.json(.object([("coachAccountId", .string(coach)), ("coachName", .string(name))]))
            } else {
                Console.out("\(Self.coachWords(name.isEmpty ? coach : name)) may now read this log (synced)")
            }
        }
    }

    struct Assignments: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "assignments", abstract: "What your coaches offered you, and your answers → {\"assignments\":[…]}.")
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let server = try DeviceServer(global)
            let answer = try server.call(.GET, APIPath.assignments.path(server.accountId))
            if global.json { Console.json(answer); return }
            guard case .array(let items)? = answer["assignments"], !items.isEmpty else { Console.out("No assignments."); return }
            for a in items {
                Console.out(
                    "\(a.string("assignmentId") ?? "")  \(a.string("status") ?? "")  \(a.string("kind") ?? "") \(a.string("name") ?? "")  from \(a.string("coachName") ?? a.string("coachAccountId") ?? "")"
                )
            }
        }
    }

    struct AcceptAssignment: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "accept-assignment",
            abstract: "Accept a coach's offer: the program (made active) or template is recorded in this log, then syncs.",
            discussion:
                "At most 2 programs are kept: a third removes the oldest, as `program generate` does.\n\nExample:\n  ledger coach accept-assignment 5a1c0ffe"
        )
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The assignment's id, or a unique start of it (from `ledger coach assignments`).") var assignment: String
        @Option(help: "When you accepted it, ISO 8601 (default: now); the program's plan counts from then.") var at: String?

        func run() throws {
            let time = try at.map(parseTime)
            let (server, offer) = try findOffer(global, assignment)
            let ledger = try global.openLedger()
            let id = try ledger.execute(at: time) {
                try $0.acceptAssignment(
                    offer.offer, targets: offer.targets, offerEventId: offer.eventId, coach: offer.coach, client: server.accountId,
                    current: try ledger.coaching())
            }
            try server.sync()
            let key = offer.offer.kind == .program ? "programId" : "templateId"
            respondTo(
                global, [("assignmentId", offer.offer.assignmentId.lowercased), (key, id.lowercased)],
                human: "Accepted: \(offer.offer.kind.rawValue) \(offer.offer.name) recorded (\(id.lowercased)), synced")
        }
    }

    struct DeclineAssignment: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "decline-assignment", abstract: "Decline a coach's offer: only the answer is recorded, then syncs.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The assignment's id, or a unique start of it.") var assignment: String

        func run() throws {
            let (server, offer) = try findOffer(global, assignment)
            let ledger = try global.openLedger()
            try ledger.execute { try $0.declineAssignment(offer.offer, coach: offer.coach, client: server.accountId, current: try ledger.coaching()) }
            try server.sync()
            respondTo(
                global, [("assignmentId", offer.offer.assignmentId.lowercased)],
                human: "Declined \(offer.offer.kind.rawValue) \(offer.offer.name), synced")
        }
    }
}

/// An offer as the server lists it, with what accepting it needs.
struct ListedOffer {
    var offer: AssignmentOffered
    var eventId: UUID
    var coach: String
    var targets: AssignmentTargetsOffered?
}

/// The offer `ref` names among this account's assignments (its id, or a unique start of it).
func findOffer(_ global: GlobalOptions, _ ref: String) throws -> (DeviceServer, ListedOffer) {
    let server = try DeviceServer(global)
    let answer = try server.call(.GET, APIPath.assignments.path(server.accountId))
    guard case .array(let items)? = answer["assignments"] else { throw SyncClient.Failure.malformedAnswer("no assignments in the answer") }
    let key = ref.lowercased()
    let matches = items.filter { !key.isEmpty && ($0.string("assignmentId") ?? "").hasPrefix(key) }
    guard matches.count == 1, let found = matches.first else {
        throw ValidationError(
            matches.isEmpty
                ? "no assignment '\(ref)' offered to this account: see `ledger coach assignments`"
                : "'\(ref)' names \(matches.count) assignments: give more of the id")
    }
    guard let offerJSON = found["offer"], let eventText = found.string("offerEventId"), let eventId = UUID(uuidString: eventText),
        let coach = found.string("coachAccountId")
    else { throw SyncClient.Failure.malformedAnswer("an assignment without its offer") }
    let targets = try found["targets"].flatMap { t in t == .null ? nil : try AssignmentTargetsOffered(json: t) }
    return (server, ListedOffer(offer: try AssignmentOffered(json: offerJSON), eventId: eventId, coach: coach, targets: targets))
}

func respondTo(_ global: GlobalOptions, _ fields: [(String, String)], human: String) {
    if global.json { Console.json(.object(fields.map { ($0.0, .string($0.1)) })) } else { Console.out(human) }
}
