import Foundation
import RepLedgerAccounts
import RepLedgerCore
import RepLedgerProjections
import RepLedgerQueries
import RepLedgerSnapshots

/// The HTTP API's work, apart from HTTP: who may do what, and the same
/// application code the CLI runs (command admission, queries, verify). The
/// routes call these methods off the event loop; each returns the JSON
/// document of its answer or throws an `APIError`-mappable error.
public final class LedgerAPI: Sendable {
    public let accounts: AccountDirectory
    public let logs: AccountLogs
    /// Verifies the store's signed transactions; nil when the server trusts no store root, and then no
    /// account holds a Coach product here.
    public let purchases: StoreKitVerifier?
    public let metrics: ServerMetrics
    /// Purchases known to be held by an account (`claimPurchase`), so a coach's every read asks the table once.
    let heldPurchases = HeldPurchases()
    /// Events between snapshots of an account's fold.
    public let snapshotEvery: Int64
    /// A server snapshots every 10,000 events (a device every 50,000): its
    /// folds are read by many, and a restart should not fold long tails.
    public static let serverSnapshotEvery: Int64 = 10_000

    /// Sign-ins and sign-ups with no operator: Apple and email codes.
    public let signIn: SignInDesk
    /// The time a push stamps on the events it appends: the wall clock, or the sync
    /// simulation's test clock, so that a seed's run replays to the same hashes.
    public let clock: @Sendable () -> Timestamp

    public init(
        storage: any ServerStorage, purchases: StoreKitVerifier? = nil,
        warmBudgetBytes: Int = AccountLogs.defaultWarmBudgetBytes, snapshotEvery: Int64 = serverSnapshotEvery,
        signIn: SignInDesk.Settings = .init(), clock: @escaping @Sendable () -> Timestamp = { .now() }
    ) {
        self.snapshotEvery = snapshotEvery
        self.clock = clock
        let metrics = ServerMetrics(replicaReads: { storage.replicaReads }, notifications: { storage.appendNotifications })
        accounts = AccountDirectory(table: storage.accountTable, keys: storage.keys)
        self.signIn = SignInDesk(accounts: accounts, settings: signIn)
        logs = AccountLogs(storage: storage, warmBudgetBytes: warmBudgetBytes, metrics: metrics)
        self.purchases = purchases
        self.metrics = metrics
    }

    // MARK: Who is asking

    /// The caller of a bearer token, else 401. A token of an erased account
    /// can only be found in a restored backup: 410, unless `erasing` (the
    /// erasure may then finish deleting what the backup brought back).
    public func authenticate(_ authorization: String?, erasing: Bool = false) throws -> AccountDirectory.Caller {
        guard let header = authorization, header.count < 512 else { throw APIError.unauthorized }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { throw APIError.unauthorized }
        let token = String(parts[1]).trimmingCharacters(in: .whitespaces)
        guard let caller = try accounts.caller(token: token) else {
            // A device of an erased account hears that its account is gone, not that its token is wrong.
            if try accounts.table.wasErased(tokenHash: AccountDirectory.hash(token)) { throw APIError.erased }
            throw APIError.unauthorized
        }
        if !erasing, accounts.keys.isErased(caller.account.accountId) { throw APIError.erased }
        return caller
    }

    /// The account's log for this caller: its own (read and write), or a
    /// client's for a coach while the client's grant is in force and the
    /// coach holds an active Coach product (read only). Anything else, an
    /// unknown account included, is 403: the answer never says whether an
    /// account exists.
    public func authorize(_ caller: AccountDirectory.Caller, account: String, write: Bool) throws -> AccountLog {
        let id = account.lowercased()
        if caller.account.accountId == id { return try logs.log(id) }
        let refusal = APIError.forbidden("this token may not \(write ? "write to" : "read") account \(account)")
        guard !write else { throw refusal }
        // The caller's own product first: the answer must not differ between an account that exists and one that does not.
        guard try hasCoachProduct(caller.account.accountId) else {
            throw APIError.forbidden(
                "reading another account's log needs a grant from it and an active Coach product on this account: "
                    + Self.howToGetCoach(caller.account.accountId))
        }
        guard UUID(uuidString: id) != nil, try accounts.account(id) != nil else { throw refusal }
        let log = try logs.log(id)
        guard try log.withLedger({ try $0.coaching().grants(caller.account.accountId) }) else { throw refusal }
        return log
    }

    /// 403 `scope` unless the caller's token was made with `full`: erasure, invites and what a coach
    /// records from the dashboard are the account's own business, never a key's.
    public func requireFullScope(_ caller: AccountDirectory.Caller, to action: String) throws {
        guard caller.scope == .full else {
            throw APIError.scope("this token's scope is '\(caller.scope.rawValue)': it may not \(action) (a 'full' token may)")
        }
    }

    /// 403 `scope` for the first event the caller's token may not append.
    static func requireScope(_ caller: AccountDirectory.Caller, toAppend events: [ProposedEvent]) throws {
        guard caller.scope != .full else { return }
        guard caller.scope != .read else {
            throw APIError.scope("this token's scope is 'read': it may not append (a 'log' or 'full' token may)")
        }
        for e in events where !caller.scope.mayAppend(to: e.event.stream) {
            throw APIError.scope(
                "this token's scope is '\(caller.scope.rawValue)': it appends workouts and body entries, not \(e.event.eventType.name) "
                    + "(a 'full' token may)",
                eventId: e.eventId.lowercased)
        }
    }

    // MARK: The log

    /// Appends a pushed batch atomically after the same checks the CLI's
    /// deciders make; events stored already (same id and content) are counted,
    /// not appended again.
    public func push(_ body: String, caller: AccountDirectory.Caller, log: AccountLog) throws -> JSONValue {
        if caller.scope == .read { try Self.requireScope(caller, toAppend: []) }
        let batch = try PushBatch(json: body, device: caller.device)
        // Before the append: a roster may miss no grant the log holds.
        try CoachClientIndex.note(batch.events, client: log.accountId, in: accounts.table)
        let (result, head, due) = try log.withLedger { ledger in
            let answer = try ledger.store.writeTransaction {
                // What the store holds of the batch, asked once per push: these checks and the append share it.
                let probe = try ledger.store.probe(
                    ids: batch.events.map(\.eventId),
                    streams: AppendProbe.streams(batch.events, also: batch.expectedVersions.keys.sorted()))
                let events = ProposedEvent.adopting(batch.events, storedDevices: probe.storedDevices)
                // An expectation is a claim about a stream the batch was decided on, written to or not.
                let written = Set(events.map(\.event.stream))
                for (stream, expected) in batch.expectedVersions where !written.contains(stream) {
                    let actual = probe.version(of: stream)
                    if case .exactly(let n) = expected, n != actual {
                        throw StoreError.wrongExpectedVersion(stream: stream, expected: expected, actual: actual)
                    }
                }
                let new = events.filter { probe.stored[$0.eventId] == nil }
                try Self.requireScope(caller, toAppend: new)
                try EventAdmission.check(events, in: ledger, stored: Set(probe.stored.keys), versions: probe.versions)
                try refuseOperatorGrants(new)
                try admitReceipts(new, account: log.accountId, ledger: ledger)
                let result = try ledger.store.append(events, expecting: batch.expectedVersions, now: clock(), probed: probe)
                return (result, try Self.head(ledger.store))
            }
            // Snapshots by the device's policy, taken from the warm fold; a cache, so a failure only costs speed.
            var due: TrainingLogProjection?
            if !answer.0.appended.isEmpty, !log.snapshotInFlight {
                due = try? SnapshotPolicy.due(ledger.store, every: snapshotEvery, folded: { try log.warm.current(ledger.store) })
                log.snapshotInFlight = due != nil
            }
            return (answer.0, answer.1, due)
        }
        if !result.appended.isEmpty {
            metrics.eventsAppended.increment(by: result.appended.count)
            log.notifyAppended()
        }
        if let due { snapshot(due, of: log) }
        // What the server stamped on the appended events: with them a device can chain
        // its own copies and confirm its push against `head` without pulling it back.
        var stamped: [(String, JSONValue)] = []
        if let recordedAt = result.recordedAt {
            stamped = [("recordedAt", .string(recordedAt.iso8601)), ("device", .string(caller.device))]
        }
        return .object(
            [
                ("appended", .array(result.appended.map { .int($0) })), ("alreadyStored", .int(Int64(result.alreadyStored))),
                ("head", head),
            ] + stamped)
    }

    /// Encodes a due snapshot after the push has answered, off the account's
    /// lock (encoding a large fold takes tens of milliseconds the next push
    /// need not wait for), and stores it under the lock.
    private func snapshot(_ fold: TrainingLogProjection, of log: AccountLog) {
        DispatchQueue.global(qos: .utility).async { [metrics] in
            let encoded = SnapshotPolicy.Encoded(fold)
            let taken = try? log.withLedger { ledger in
                defer { log.snapshotInFlight = false }
                return try SnapshotPolicy.save(ledger.store, encoded)
            }
            if taken != nil { metrics.snapshotsTaken.increment() }
        }
    }

    public static let defaultPage = 1000
    public static let maximumPage = 10000

    /// `{"events":[envelopes after `after`, ascending, at most `limit`],"head":…}`,
    /// written straight from the canonical lines (a page can hold 10,000).
    public func events(log: AccountLog, after: Int64, limit: Int) throws -> String {
        let (lines, head) = try page(log: log, after: after, limit: limit)
        var out = #"{"events":["#
        out.reserveCapacity(lines.reduce(64) { $0 + $1.json.utf8.count + 1 })
        for (i, line) in lines.enumerated() {
            if i > 0 { out += "," }
            out += line.json
        }
        out += #"],"head":"#
        out += head.rendered
        out += "}"
        return out
    }

    /// One page of canonical lines after a position.
    public func page(log: AccountLog, after: Int64, limit: Int) throws -> (lines: [(position: Int64, json: String)], head: JSONValue) {
        try log.withLedger { ledger in
            var lines: [(Int64, String)] = []
            let query = EventQuery(from: max(0, after) + 1, through: max(0, after) + Int64(limit))
            try ledger.store.read(query) { lines.append(($0.position, $0.canonicalJSON)) }
            return (lines, try Self.head(ledger.store))
        }
    }

    package static func head(_ store: any EventStore) throws -> JSONValue {
        let (position, hash) = try store.head()
        return .object([("position", .int(position)), ("hash", .string(hash.hex))])
    }

    public func verify(log: AccountLog) throws -> JSONValue {
        try log.withLedger { VerifyQuery.document(try $0.store.verify()) }
    }

    // MARK: Queries

    /// The query names of `GET /v1/accounts/{account}/{query}…`.
    public enum Query: String, CaseIterable, Sendable {
        case prs, history, volume, entitlements, body, next, settings, plates, hint, e1rm, summary, workout, prompt, repcount

        /// The segments the query takes after its name, in order (`hint/{exercise}`): its routes and the OpenAPI
        /// document's paths are made from these.
        public var pathParameters: [String] {
            switch self {
            case .prs, .history, .volume, .entitlements, .body, .next, .settings: []
            case .hint, .e1rm: ["exercise"]
            case .plates: ["weight"]
            case .summary, .workout: ["workout"]
            case .prompt, .repcount: ["workout", "exercise"]
            }
        }
    }

    /// The `--json` document the CLI prints for the same query on the same log.
    public func query(_ query: Query, log: AccountLog, path: [String], parameters: [String: String]) throws -> JSONValue {
        var rules = RuleSet.default
        do {
            if let formula = parameters["formula"] { rules.e1rmFormula = try vocabulary(E1RMFormula.self, "formula", formula) }
        } catch {
            throw APIError.from(error, query: true)
        }
        let scope = QueryScope(asOf: parameters["asOf"], until: parameters["until"], rules: rules, warm: log.warm)
        defer { logs.keepWarmWithinBudget() }
        func int(_ key: String, in range: ClosedRange<Int>) throws -> Int? {
            guard let text = parameters[key] else { return nil }
            guard let n = Int(text), range.contains(n) else {
                throw APIError.badRequest("\(key) takes a whole number from \(range.lowerBound) to \(range.upperBound)")
            }
            return n
        }
        let names = query.pathParameters
        guard path.count == names.count else {
            let shape = names.isEmpty ? "no path after \(query.rawValue)" : ([query.rawValue] + names.map { "{\($0)}" }).joined(separator: "/")
            throw APIError.notFound("this query takes \(shape)")
        }
        let a = path
        return try log.withLedger { ledger in
            let store = ledger.store
            // A damaged log answers its first bad position, never numbers.
            log.verifiedMark = try store.verifiedHead(since: log.verifiedMark, headMayMoveBack: true)
            do {
                switch query {
                case .prs:
                    let timeline = parameters["timeline"] == "true"
                    return RecordsQuery.document(
                        try RecordsQuery.records(store, scope, exercise: parameters["exercise"], timeline: timeline),
                        timeline: timeline)
                case .history:
                    return HistoryQuery.document(
                        try HistoryQuery.answer(
                            store, scope, exercise: parameters["exercise"], month: parameters["month"],
                            limit: try int("limit", in: HistoryQuery.servedLimits),
                            offset: try int("offset", in: HistoryQuery.servedOffsets) ?? 0))
                case .volume:
                    return VolumeQuery.document(try VolumeQuery.answer(store, scope, by: parameters["by"] ?? "week"))
                case .entitlements:
                    return EntitlementsQuery.document(try EntitlementsQuery.answer(store, scope, at: parameters["at"]))
                case .next:
                    // The next session of the program (or of the exercises lately done), every target with its reason.
                    let log = try scope.log(store)
                    let all = try parameters["all"].map { try vocabulary(QueryFlag.self, "all", $0) == .true } ?? false
                    let next = try ProgressionQuery.next(
                        log, exercise: nil, program: parameters["program"], all: all, rules: scope.rules, now: try scope.answerTime())
                    return ProgressionQuery.document(log, next)
                case .body:
                    let site = try parameters["site"].map { try vocabulary(BodySite.self, "site", $0) }
                    return BodyHistoryQuery.document(BodyHistoryQuery.answer(try scope.log(store), site: site))
                case .settings:
                    let log = try scope.log(store)
                    return SettingsQuery.document(account: log.account, library: log.library)
                case .plates:
                    return PlatesQuery.document(try PlatesQuery.answer(a[0], account: try scope.log(store).account))
                case .hint:
                    return HintQuery.document(
                        try HintQuery.answer(
                            store, scope, exercise: a[0], at: parameters["at"],
                            hintScope: parameters["scope"], workout: parameters["workout"]))
                case .e1rm:
                    return E1RMQuery.document(try E1RMQuery.answer(store, scope, exercise: a[0]))
                case .summary:
                    return SummaryQuery.document(try SummaryQuery.answer(store, scope, workout: a[0]))
                case .workout:
                    // The workout on screen: its planned and done sets, targets, last time and the rest counting down.
                    return WorkoutPlanQuery.document(try WorkoutPlanQuery.answer(store, scope, workout: a[0]))
                case .prompt:
                    return PromptQuery.document(try PromptQuery.answer(store, scope, workout: a[0], exercise: a[1], range: parameters["range"]))
                case .repcount:
                    return RepCountQuery.document(
                        try RepCountQuery.answer(
                            store, scope, workout: a[0], exercise: a[1],
                            hintScope: parameters["scope"]))
                }
            } catch let e as Refusal {
                throw APIError.from(e, query: true)
            }
        }
    }

    // MARK: Erasure

    /// `DELETE /v1/accounts/{account}` by the account's own token: the
    /// account's key is destroyed first, then its log (rows, or the ledger
    /// file with -wal and -shm), its snapshots, tokens and the grants its log
    /// held are deleted; its id stays taken and answers 403. The report of
    /// DOMAIN.md §11. Run again by a token from a restored backup, it deletes
    /// what the backup brought back.
    public func erase(_ caller: AccountDirectory.Caller, account: String, now: Timestamp = .now()) throws -> JSONValue {
        let id = account.lowercased()
        guard caller.account.accountId == id else { throw APIError.forbidden("only the account's own token may erase it") }
        try requireFullScope(caller, to: "erase the account")
        let erased = try logs.erase(id)
        return .object([
            ("accountId", .string(id)), ("events", .int(erased.events)), ("snapshots", .int(erased.snapshots)),
            ("tokens", .int(Int64(erased.tokens))), ("keyDestroyed", .bool(erased.keyDestroyed)), ("at", .string(now.iso8601)),
        ])
    }

    // MARK: Coaches

    /// Whether the account has a log to read: one was written, and the account is not erased (an erased
    /// account's rows exist only in a restored backup: never read, never listed).
    func hasReadableLog(_ accountId: String) throws -> Bool {
        try logs.storage.hasLog(accountId) && !accounts.keys.isErased(accountId)
    }

    /// Indexes the coach grants of a log restored from a backup, for the coaches' rosters.
    public func noteCoachGrants(ofRestored accountId: String) throws {
        try CoachClientIndex.note(logOf: accountId, logs: logs, in: accounts.table)
    }
}

/// A yes-or-no query parameter (`all=true`).
enum QueryFlag: String, CaseIterable { case `true`, `false` }
