import ArgumentParser
import Foundation
import LedgerShell
import RepLedgerCore
import RepLedgerProjections
import RepLedgerQueries

/// `ledger why prs|e1rm|volume …`: a number with the events that made it, the rule that computed it, and the chain's proof.
struct WhyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "why",
        abstract:
            "Why a record, an e1RM, a week's volume, a hint, a rep count or a plan is what it is: its events, its rule, and their place in the chain.",
        discussion: """
            Each number comes with the events that produced it (position, type, time, device, hash, and \
            what each changed), the rule set that computed it and how, and a proof: every event after \
            the earliest one cited is re-linked by its hash up to the head, so the head's hash vouches \
            for them all. --as-of N answers as the log stood at position N; --rules FILE under other rules.

            Examples:
              ledger why prs "Bench Press (Barbell)"
              ledger why e1rm "Bench Press (Barbell)" --json
              ledger why volume 2026-W47
              ledger why hint "Squat (Barbell)" --workout last      # what that workout was shown to beat
              ledger why repcount "Squat (Barbell)"                  # its "+N reps" against last time
              ledger why target "Squat (Barbell)"                    # the next session's target, as `next` gives it
              ledger why entitlement pro --as-of 1200
            """)
    @OptionGroup var global: GlobalOptions
    @OptionGroup var query: QueryOptions
    @Argument(help: "prs, e1rm, volume, hint, repcount, target or entitlement.") var subject: String
    @Argument(help: "The exercise (prs, e1rm, hint, repcount, target), the week: 2026-W47 or a date in it (volume), or pro or coach (entitlement).")
    var target: String
    @Option(
        help:
            "The workout (id, prefix or `last`): for e1rm the point to explain (default the latest), for hint and repcount the workout they were shown in."
    )
    var workout: String?

    func run() throws {
        let what = try vocabulary(WhyQuery.Subject.self, "subject", subject)
        let (store, damage) = try global.openForAudit()
        let scope = try query.scope()
        let log = try scope.log(store)
        let a = try WhyQuery.answer(store, scope, log: log, subject: what, target: target, workout: workout)
        // A broken chain is said after the answer (exit 3, as verify): its numbers stand on events the head no longer vouches for.
        if global.json { Console.json(WhyQuery.document(a, log: log)) } else { text(a, log: log) }
        if let damage, damage.position <= a.proof.firstBadPosition ?? .max { throw damage }
        if let bad = a.proof.firstBadPosition {
            throw IntegrityFailure(position: bad, reason: "a cited event or one after it no longer matches the hash chain")
        }
    }

    private func text(_ a: WhyQuery.Answer, log: TrainingLogProjection) {
        let unit = log.account.liftingUnit
        for n in a.numbers {
            let value =
                n.unit == "kg"
                ? WeightText.show(kg: n.value, in: unit)
                : n.unit == "active" ? (n.value == 1 ? "in force" : "not in force") : "\(((n.value * 100).rounded() / 100).formatted) \(n.unit)"
            let label = n.repMax.map { "\($0)RM" } ?? n.kind
            Console.out("\(label) \(value)\(n.at.map { " on \($0.isoDate)" } ?? ""): \(n.computation)")
            for e in n.events {
                Console.out("  #\(e.envelope.position) \(e.envelope.type.name) \(e.envelope.occurredAt.iso8601) \(e.envelope.device): \(e.change)")
            }
        }
        Console.out("Rules: \(a.rules.id) version \(a.rules.version)")
        if a.numbers.allSatisfy(\.events.isEmpty) {
            Console.out("Proof: no event to cite; the head is #\(a.proof.headPosition) (\(a.proof.headHash.prefix(16))…)")
            return
        }
        Console.out(
            a.proof.ok
                ? "Proof: every event from #\(a.proof.from) re-links by hash to the head #\(a.proof.headPosition) (\(a.proof.headHash.prefix(16))…)"
                : "Proof FAILED: the chain breaks at #\(a.proof.firstBadPosition ?? 0); run `ledger verify`")
    }
}
