import Foundation
import RepLedgerCore
import RepLedgerProjections

/// `why prs|e1rm|volume|hint|repcount|target|entitlement EXERCISE|WEEK|PLAN`: a derived number with the events that
/// produced it, the rule set that computed it (and how), and a proof that each
/// of those events is in the chain up to the head (issue 44's question, "which
/// event made my bench record", answered where the CLI and the inspector can
/// both print it).
public enum WhyQuery {
    /// One event behind a number: where it is, what it is, what it changed.
    public struct Event: Sendable {
        public var envelope: EventEnvelope
        public var change: String
    }

    /// One derived number and its events.
    public struct Number: Sendable {
        /// What it is: "heaviest", "e1rm", "repMax", "volume", …
        public var kind: String
        public var value: Double
        public var unit: String
        public var repMax: Int?
        public var workoutId: UUID?
        public var setIds: [UUID]
        public var at: Timestamp?
        /// How the rule set turned the events into the number, in words.
        public var computation: String
        public var events: [Event]
    }

    public struct Answer: Sendable {
        public var subject: String
        public var exerciseId: String?
        public var rules: RuleSet
        public var numbers: [Number]
        public var proof: ChainProof
    }

    public enum Subject: String, Sendable, CaseIterable {
        case prs, e1rm, volume, hint, repcount, target, entitlement
    }

    /// `subject` of `target` (an exercise; for volume an ISO week `2026-W47` or a date in it; for entitlement
    /// pro or coach), as the log stood at the scope's position (`log` is its fold). `workout` picks an e1RM
    /// point's workout, the workout whose hint or rep counter it is (default the latest).
    public static func answer(
        _ store: any EventStore, _ scope: QueryScope, log: TrainingLogProjection, subject: Subject, target: String, workout: String? = nil
    ) throws -> Answer {
        let rules = scope.rules
        let unit = log.account.liftingUnit
        var numbers: [Number] = []
        var exerciseId: String?
        switch subject {
        case .prs:
            let x = try log.library.resolve(target)
            exerciseId = x.exerciseId
            let timeline = PersonalRecordsProjection.compute(log, rules: rules, exerciseId: x.exerciseId).first?.timeline ?? []
            // The record standing now of each kind (and rep count): the last one set.
            var current: [String: PersonalRecordsProjection.Record] = [:]
            var order: [String] = []
            for r in timeline {
                let key = "\(r.kind.rawValue) \(r.repMax ?? 0)"
                if current[key] == nil { order.append(key) }
                current[key] = r
            }
            for key in order {
                let r = current[key]!
                let sets = r.setId.map { [$0] } ?? (log.workouts[r.workoutId]?.countedSets(of: x.exerciseId, rules: rules).map(\.setId) ?? [])
                numbers.append(
                    Number(
                        kind: r.kind.rawValue, value: r.value, unit: r.kind.unit, repMax: r.repMax, workoutId: r.workoutId, setIds: sets,
                        at: r.at, computation: computation(r, rules: rules, unit: unit),
                        events: try events(store, log: log, workout: r.workoutId, sets: Set(sets), through: scope.position(in: store))))
            }
        case .e1rm:
            let x = try log.library.resolve(target)
            exerciseId = x.exerciseId
            let points = E1RMTrendProjection.points(log, exerciseId: x.exerciseId, rules: rules)
            let wanted = try workout.map { try Ledger(store: store).resolveWorkout($0) }
            guard let p = wanted.map({ id in points.first { $0.workoutId == id } }) ?? points.last else {
                throw QueryError.invalidParameter(
                    wanted == nil
                        ? "no e1RM for \(x.name): no counted set of 1 to \(rules.e1rmRepCap) reps with a weight"
                        : "that workout has no e1RM point for \(x.name)")
            }
            numbers.append(
                Number(
                    kind: "e1rm", value: p.e1rmKg, unit: "kg", repMax: nil, workoutId: p.workoutId, setIds: p.setId.map { [$0] } ?? [],
                    at: p.date, computation: e1rmWords(kg: p.weightKg, reps: p.reps, result: p.e1rmKg, rules: rules, unit: unit),
                    events: try events(
                        store, log: log, workout: p.workoutId, sets: Set(p.setId.map { [$0] } ?? []), through: scope.position(in: store))))
        case .hint, .repcount:
            let x = try log.library.resolve(target)
            exerciseId = x.exerciseId
            let id = try workout.map { try Ledger(store: store).resolveWorkout($0) }
            numbers.append(
                subject == .hint
                    ? try hint(store, scope, log: log, exerciseId: x.exerciseId, workout: id)
                    : try repCount(store, scope, log: log, exerciseId: x.exerciseId, workout: id))
        case .target:
            let x = try log.library.resolve(target)
            exerciseId = x.exerciseId
            numbers.append(try self.target(store, scope, log: log, exerciseId: x.exerciseId))
        case .entitlement:
            numbers.append(try entitlement(store, scope, log: log, target: target))
        case .volume:
            let week = try weekKey(target)
            var total = 0.0, count = 0
            var all: [Event] = []
            var setIds: [UUID] = []
            for w in log.countedWorkouts where w.startedAt?.local.isoWeekKey == week {
                let sets = w.countedSets(rules: rules)
                guard !sets.isEmpty else { continue }
                count += sets.count
                total += sets.reduce(0) { $0 + log.volumeKg($1) }
                setIds += sets.map(\.setId)
                all += try events(store, log: log, workout: w.workoutId, sets: Set(sets.map(\.setId)), through: scope.position(in: store))
            }
            guard count > 0 else { throw QueryError.invalidParameter("no counted set in \(week)") }
            let shown = (unit.fromKilograms(total) * 10).rounded() / 10
            numbers.append(
                Number(
                    kind: "volume", value: total, unit: "kg", repMax: nil, workoutId: nil, setIds: setIds, at: nil,
                    computation:
                        "\(count) completed \(rules.warmupsCount ? "" : "working ")sets started in \(week), weight × reps summed: \(shown.formatted) \(unit.rawValue)"
                        + (rules.bodyweightTonnage ? " (bodyweight sets at the latest weigh-in)" : ""),
                    events: all))
        }
        let proof = try store.prove(numbers.flatMap { $0.events.map(\.envelope.position) })
        return Answer(subject: subject.rawValue, exerciseId: exerciseId, rules: rules, numbers: numbers, proof: proof)
    }

    /// `2026-W47`, or the ISO week of a date `YYYY-MM-DD`.
    static func weekKey(_ text: String) throws -> String {
        let t = text.trimmingCharacters(in: .whitespaces).uppercased()
        if t.count == 8, t.dropFirst(4).hasPrefix("-W"), Int(t.prefix(4)) != nil, let w = Int(t.suffix(2)), (1...53).contains(w) { return t }
        if let day = ProgramBlock.day(text) { return Timestamp(millis: day * 86_400_000, offsetMinutes: 0).local.isoWeekKey }
        throw QueryError.invalidParameter("a week is 2026-W47 or a date in it (YYYY-MM-DD), not '\(text)'")
    }

    /// The events of `workout`'s stream (up to `through`) that touched one of `sets`, each with its change in words.
    static func events(_ store: any EventStore, log: TrainingLogProjection, workout: UUID, sets: Set<UUID>, through: Int64) throws -> [Event] {
        let steps = WorkoutReplayProjection.steps(
            try store.read(stream: .workout(workout), through: through), workoutId: workout, library: log.library, unit: log.account.liftingUnit)
        return steps.filter { $0.envelope.event.setId.map(sets.contains) ?? false }.map { Event(envelope: $0.envelope, change: $0.change) }
    }

    static func computation(_ r: PersonalRecordsProjection.Record, rules: RuleSet, unit: WeightUnit) -> String {
        let better = "strictly above every earlier value, so it stands"
        switch r.kind {
        case .e1rm:
            guard let kg = r.weightKg, let reps = r.reps else { return better }
            return e1rmWords(kg: kg, reps: reps, result: r.value, rules: rules, unit: unit) + "; " + better
        case .heaviest: return "the heaviest completed counted set's weight; " + better
        case .repMax: return "the heaviest weight for \(r.repMax ?? 0) reps or more; " + better
        case .setVolume: return "weight × reps of one set; " + better
        case .sessionVolume: return "weight × reps summed over the workout's counted sets of the exercise; " + better
        default: return "the rule set's \(r.kind.rawValue); " + better
        }
    }

    static func e1rmWords(kg: Double, reps: Int, result: Double, rules: RuleSet, unit: WeightUnit) -> String {
        func show(_ kg: Double) -> String { unit.words(kilograms: kg) }
        let formula = rules.e1rmFormula == .rpeTable ? "the RPE chart (else \(rules.e1rmRepFormula.rawValue))" : rules.e1rmFormula.rawValue
        return "\(show(kg)) × \(reps) by \(formula) (reps 1–\(rules.e1rmRepCap)) = \(show(result))"
    }

    /// `--json`: the numbers, each with its events (position, id, type, time, device, hash, change), the rules and the proof.
    public static func document(_ a: Answer, log: TrainingLogProjection) -> JSONValue {
        let hashes = Dictionary(a.proof.links.map { ($0.position, $0.hash) }, uniquingKeysWith: { x, _ in x })
        return .object([
            ("subject", .string(a.subject)), ("exercise", .optional(a.exerciseId.map(log.exerciseName))),
            ("exerciseId", .optional(a.exerciseId)),
            (
                "rules",
                .object([
                    ("id", .string(a.rules.id)), ("version", .int(Int64(a.rules.version))), ("e1rmFormula", .string(a.rules.e1rmFormula.rawValue)),
                    ("e1rmRepCap", .int(Int64(a.rules.e1rmRepCap))), ("warmupsCount", .bool(a.rules.warmupsCount)),
                ])
            ),
            (
                "numbers",
                .array(
                    a.numbers.map { n in
                        .object([
                            ("kind", .string(n.kind)), ("repMax", .optional(n.repMax)), ("value", .number((n.value * 1000).rounded() / 1000)),
                            ("unit", .string(n.unit)), ("workoutId", .optional(n.workoutId?.lowercased)),
                            ("setIds", .array(n.setIds.map { .string($0.lowercased) })), ("at", .optional(n.at?.iso8601)),
                            ("computation", .string(n.computation)),
                            (
                                "events",
                                .array(
                                    n.events.map { e in
                                        .object([
                                            ("position", .int(e.envelope.position)), ("eventId", .string(e.envelope.eventId.lowercased)),
                                            ("type", .string(e.envelope.type.name)), ("occurredAt", .string(e.envelope.occurredAt.iso8601)),
                                            ("device", .string(e.envelope.device)), ("hash", .optional(hashes[e.envelope.position])),
                                            ("change", .string(e.change)),
                                        ])
                                    })
                            ),
                        ])
                    })
            ),
            (
                "proof",
                .object([
                    ("ok", .bool(a.proof.ok)), ("from", .int(a.proof.from)), ("headPosition", .int(a.proof.headPosition)),
                    ("headHash", .string(a.proof.headHash)), ("firstBadPosition", a.proof.firstBadPosition.map { .int($0) } ?? .null),
                ])
            ),
        ])
    }
}
