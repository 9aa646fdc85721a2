import Foundation
import RepLedgerAccounts
import RepLedgerCore
import RepLedgerProjections
import RepLedgerQueries

/// The Coach product's work on the server (SERVER-CONTRACT.md §8), apart from HTTP:
/// invites, the roster and a client's progress, offers to a client, and a
/// coach's own notes. What a coach writes goes into the coach's own log; a
/// client's log is only ever read here.
extension LedgerAPI {
    // MARK: Invites

    /// `POST /v1/coach/invites` → `{"inviteId","code","expiresAt"}`: the code is shown this once.
    public func createInvite(_ caller: AccountDirectory.Caller, note: String, now: Timestamp = .now()) throws -> JSONValue {
        let made = try makeInvite(caller, note: note, now: now)
        return .object([("inviteId", .string(made.inviteId)), ("code", .string(made.code)), ("expiresAt", .string(made.expiresAt.iso8601))])
    }

    /// A new invite of a coach with the product → its id, its code (never stored) and when it expires.
    package func makeInvite(
        _ caller: AccountDirectory.Caller, note: String, now: Timestamp = .now()
    ) throws -> (inviteId: String, code: String, expiresAt: Timestamp) {
        try requireFullScope(caller, to: "make invites")
        try requireCoachProduct(caller, now: now)
        let clean = note.trimmingCharacters(in: .whitespacesAndNewlines)
        guard clean.count <= 200 else { throw APIError.badRequest("an invite's note takes at most 200 characters") }
        let code = CoachInvite.newCode()
        guard let hash = CoachInvite.hash(code: code) else { throw APIError.storage("an invite code could not be made") }
        let id = UUID().uuidString.lowercased()
        let coach = caller.account.accountId
        let invite = CoachInvite(
            inviteId: id, coachId: coach, codeHash: hash,
            note: try AccountDirectory.sealedName(clean, accountId: coach, cipher: try accounts.keys.cipher(for: coach), context: Self.inviteContext),
            createdAt: now.millis, expiresAt: now.millis + CoachInvite.lifetimeMillis)
        try accounts.table.insertInvite(invite)
        return (id, code, Timestamp(millis: invite.expiresAt))
    }

    /// Invite notes are sealed bound to this context, so one is never read as a name.
    static let inviteContext = "invite:"

    /// `GET /v1/coach/invites` → `{"invites":[{"inviteId","note","createdAt","expiresAt","state","usedBy","usedByName"}]}` (never a code).
    /// `usedByName` is the name of the client who used the invite, so a coach sees who came in by it.
    public func invites(_ caller: AccountDirectory.Caller, now: Timestamp = .now()) throws -> JSONValue {
        try requireCoachProduct(caller, now: now)
        let coach = caller.account.accountId
        return .object([
            (
                "invites",
                .array(
                    try accounts.table.invites(of: coach).map { i in
                        .object([
                            ("inviteId", .string(i.inviteId)),
                            ("note", .string(try accounts.opened(i.note, accountId: coach, context: Self.inviteContext))),
                            ("createdAt", .string(Timestamp(millis: i.createdAt).iso8601)),
                            ("expiresAt", .string(Timestamp(millis: i.expiresAt).iso8601)),
                            ("state", .string(i.state(at: now.millis).rawValue)), ("usedBy", .optional(i.usedBy)),
                            ("usedByName", .optional(try i.usedBy.flatMap { try accounts.account($0) }.map(accounts.name(of:)))),
                        ])
                    })
            )
        ])
    }

    /// `DELETE /v1/coach/invites/{id}`: withdraws an open invite of this coach; 404 when there is none.
    public func revokeInvite(_ caller: AccountDirectory.Caller, id: String, now: Timestamp = .now()) throws -> JSONValue {
        try requireFullScope(caller, to: "withdraw invites")
        guard UUID(uuidString: id) != nil, try accounts.table.revokeInvite(id.lowercased(), coach: caller.account.accountId, at: now.millis) else {
            throw APIError.notFound("no open invite \(id) of this account (used, withdrawn already, or another's)")
        }
        return .object([("inviteId", .string(id.lowercased())), ("state", .string(CoachInvite.State.revoked.rawValue))])
    }

    /// `POST /v1/coach/invites/accept` with `{"code"}`, by the client's token → `{"inviteId","coachAccountId","coachName"}`:
    /// which coach to grant (the client's device records the grant in its own log). The same client
    /// presenting a code it used already gets the same answer (a retried accept); anyone else 410.
    public func acceptInvite(_ caller: AccountDirectory.Caller, body: String, now: Timestamp = .now()) throws -> JSONValue {
        guard case .object(let fields)? = try? JSONReader.parse(body), case .string(let code)? = fields.first(where: { $0.0 == "code" })?.1 else {
            throw APIError.badRequest(#"the body is {"code":"XXXX-XXXX-XXXX"}"#)
        }
        try requireFullScope(caller, to: "accept invites")
        guard let hash = CoachInvite.hash(code: code), let invite = try accounts.table.invite(codeHash: hash),
            AccountDirectory.constantTimeEqual(invite.codeHash, hash)
        else {
            throw APIError.notFound("no such invite code: check it with your coach (a code is 12 letters and digits, XXXX-XXXX-XXXX)")
        }
        let client = caller.account.accountId
        guard invite.coachId != client else { throw APIError.badRequest("an invite is for another account than the coach's own") }
        func answer() throws -> JSONValue {
            let coach = try accounts.account(invite.coachId)
            return .object([
                ("inviteId", .string(invite.inviteId)), ("coachAccountId", .string(invite.coachId)),
                ("coachName", .string(coach.map(accounts.name(of:)) ?? "")),
            ])
        }
        switch invite.state(at: now.millis) {
        case .used where invite.usedBy == client: return try answer()
        case .used: throw APIError(status: 410, code: "inviteUsed", message: "this invite code was used already: ask your coach for a new one")
        case .revoked: throw APIError(status: 410, code: "inviteExpired", message: "this invite code was withdrawn by the coach: ask for a new one")
        case .expired: throw APIError(status: 410, code: "inviteExpired", message: "this invite code has expired: ask your coach for a new one")
        case .open:
            guard try accounts.table.useInvite(invite.inviteId, client: client, at: now.millis) else {
                // Another request used or withdrew it between the read and the update.
                throw APIError(status: 410, code: "inviteUsed", message: "this invite code was used already: ask your coach for a new one")
            }
            return try answer()
        }
    }

    /// The account page's accept: the invite redeemed as `acceptInvite` does, then the grant
    /// (`CoachAccessGranted`) recorded in the client's own log as a device's `ledger coach accept`
    /// records it, and noted for the coach's roster. A retried accept records nothing more.
    public func acceptInviteAndGrant(_ caller: AccountDirectory.Caller, code: String, device: String) throws -> JSONValue {
        let answer = try acceptInvite(caller, body: JSONValue.object([("code", .string(code))]).rendered)
        guard case .object(let fields) = answer, case .string(let coach)? = fields.first(where: { $0.0 == "coachAccountId" })?.1 else {
            return answer
        }
        // The grant is decided against the stream's version read here: a grant recorded meanwhile is a conflict, not a second grant.
        let current = try logs.log(caller.account.accountId).withLedger { try $0.coaching() }
        guard !current.grants(coach) else { return answer }
        try recordOwn(caller, device: device) { try $0.grantCoach(coach, current: current) }
        try CoachClientIndex.note(logOf: caller.account.accountId, logs: logs, in: accounts.table)
        return answer
    }

    // MARK: The roster and a client's progress

    func requireCoachProduct(_ caller: AccountDirectory.Caller, now: Timestamp) throws {
        guard try hasCoachProduct(caller.account.accountId, at: now) else {
            throw APIError.forbidden("this needs an active Coach product on this account: \(Self.howToGetCoach(caller.account.accountId))")
        }
    }

    /// The ways to Coach, said wherever Coach is missing: the store, or the server's operator.
    public static func howToGetCoach(_ account: String) -> String {
        "buy Coach (repledger_coach_monthly or repledger_coach_annual) in the app, whose signed transaction this server checks "
            + "against its --storekit-root, or ask this server's operator to run `ledger server account grant-coach \(account)`"
    }

    /// A coach's clients: every account whose log grants this coach access
    /// (found through `CoachClientIndex`), while the coach holds an active
    /// Coach product; needs-attention first, then by name.
    public func coachClients(_ caller: AccountDirectory.Caller, now: Timestamp = .now()) throws -> JSONValue {
        .object([
            (
                "clients",
                .array(
                    try roster(caller, now: now).map { row in
                        .object([("accountId", .string(row.accountId)), ("name", .string(row.name))] + row.progress.rosterFields)
                    })
            )
        ])
    }

    /// One client of a roster.
    public struct RosterRow: Sendable {
        public var accountId: String
        public var name: String
        public var progress: ClientProgress
    }

    /// The roster's rows, in its order: needs-attention first, then by name, then by account id.
    public func roster(_ caller: AccountDirectory.Caller, now: Timestamp = .now()) throws -> [RosterRow] {
        try requireCoachProduct(caller, now: now)
        // The index names the candidates; each one's log says whether the grant is in force.
        let candidates = try accounts.table.indexedClients(of: caller.account.accountId).filter { $0.accountId != caller.account.accountId }
        @Sendable func row(_ account: AccountDirectory.Account) throws -> RosterRow? {
            guard try hasReadableLog(account.accountId) else { return nil }
            let log = try logs.log(account.accountId)
            return try log.withLedger { ledger in
                guard try ledger.coaching().grants(caller.account.accountId) else { return nil }
                return RosterRow(accountId: account.accountId, name: accounts.name(of: account), progress: try progress(ledger, log: log, now: now))
            }
        }
        // Clients' logs are independent: a cold roster folds them on every core, in the index's order.
        let rows = try Concurrently.map(candidates.count) { try row(candidates[$0]) }.compactMap { $0 }
        logs.keepWarmWithinBudget()
        return rows.sorted { a, b in
            if a.progress.needsAttention != b.progress.needsAttention { return a.progress.needsAttention }
            return (a.name.lowercased(), a.accountId) < (b.name.lowercased(), b.accountId)
        }
    }

    /// A client's figures from the warm fold of its log.
    package func progress(_ ledger: Ledger, log: AccountLog, now: Timestamp) throws -> ClientProgress {
        let training = try QueryScope(warm: log.warm).log(ledger.store)
        let records = log.warm.view("roster records", at: training.position) {
            PersonalRecordsProjection.compute(training, rules: .default).flatMap(\.timeline)
        }
        return ClientProgress.compute(training, records: records, now: now)
    }

    /// `GET /v1/accounts/{client}/progress`: the client's own token, or a coach's with the grant and the product.
    public func progress(log: AccountLog, now: Timestamp = .now()) throws -> ClientProgress {
        defer { logs.keepWarmWithinBudget() }
        return try log.withLedger { try progress($0, log: log, now: now) }
    }

    // MARK: Assignments

    /// An offer as a coach's log holds it.
    public struct Offer: Sendable {
        public var offer: AssignmentOffered
        public var eventId: UUID
        public var coachAccountId: String
        public var offeredAt: Timestamp
        /// A template offer's every target, when it has weights, durations or rests.
        public var targets: AssignmentTargetsOffered? = nil
    }

    /// Offers made to `client` by the coaches its log grants access to now (a
    /// revoked coach's offers are no longer shown), oldest first; `coach`
    /// narrows them to one coach's.
    public func offers(to client: String, from coach: String? = nil) throws -> [Offer] {
        let log = try logs.log(client)
        let coaches = try log.withLedger { try $0.coaching().coaches }.filter { coach == nil || $0 == coach }.sorted()
        var out: [Offer] = []
        for c in coaches where try hasReadableLog(c) {
            try logs.log(c).withLedger { ledger in
                var targets: [UUID: AssignmentTargetsOffered] = [:]
                var own: [Offer] = []
                try ledger.store.read(EventQuery(stream: .assignments)) { e in
                    switch e.event {
                    case .assignmentOffered(let o) where o.clientAccountId == client:
                        own.append(Offer(offer: o, eventId: e.eventId, coachAccountId: c, offeredAt: e.occurredAt))
                    case .assignmentTargetsOffered(let t): targets[t.assignmentId] = t
                    default: break
                    }
                }
                out += own.map { o in
                    var o = o
                    o.targets = targets[o.offer.assignmentId]
                    return o
                }
            }
        }
        return out.sorted { ($0.offeredAt.millis, $0.eventId.lowercased) < ($1.offeredAt.millis, $1.eventId.lowercased) }
    }

    /// `GET /v1/accounts/{client}/assignments` → `{"assignments":[…]}`: each offer with its answer in the
    /// client's log (`offered`, `accepted`, `declined`) and the whole offer as the coach's log holds it
    /// (`offer`, its payload's JSON; `targets`, a template offer's every target, or null). The client sees every granted coach's offers; a coach only its own.
    public func assignments(_ caller: AccountDirectory.Caller, log: AccountLog) throws -> JSONValue {
        let own = caller.account.accountId == log.accountId
        let offers = try self.offers(to: log.accountId, from: own ? nil : caller.account.accountId)
        let answers = try log.withLedger { try $0.coaching().answers }
        return .object([
            (
                "assignments",
                .array(
                    offers.map { o in
                        .object([
                            ("assignmentId", .string(o.offer.assignmentId.lowercased)), ("offerEventId", .string(o.eventId.lowercased)),
                            ("coachAccountId", .string(o.coachAccountId)),
                            ("coachName", .string((try? accounts.account(o.coachAccountId)).flatMap { $0 }.map(accounts.name(of:)) ?? "")),
                            ("kind", .string(o.offer.kind.rawValue)), ("name", .string(o.offer.name)), ("offeredAt", .string(o.offeredAt.iso8601)),
                            ("status", .string(answers[o.offer.assignmentId].map { $0 ? "accepted" : "declined" } ?? "offered")),
                            ("offer", .raw(o.offer.canonicalJSON)), ("targets", o.targets.map { .raw($0.canonicalJSON) } ?? .null),
                        ])
                    })
            )
        ])
    }

    // MARK: What a coach records from the dashboard

    /// Decides and appends a command on the caller's own log, as a device's
    /// push would land: the device name is `device`, and live streams are woken.
    public func recordOwn<T>(_ caller: AccountDirectory.Caller, device: String, _ decide: (inout CommandSession) throws -> T) throws -> T {
        try requireFullScope(caller, to: "record notes or offers")
        let log = try logs.log(caller.account.accountId)
        let result = try log.withLedger { ledger in
            let previous = ledger.device
            ledger.device = device
            defer { ledger.device = previous }
            return try ledger.execute(decide)
        }
        log.notifyAppended()
        return result
    }

    /// The coach's notes about a client, newest first, from the coach's own log.
    public func notes(_ caller: AccountDirectory.Caller, about client: String) throws -> [(at: Timestamp, text: String)] {
        try logs.log(caller.account.accountId).withLedger { ledger in
            var out: [(Timestamp, String)] = []
            try ledger.store.read(EventQuery(stream: .coachNotes)) { e in
                if case .coachNoteAdded(let n) = e.event, n.clientAccountId == client { out.append((e.occurredAt, n.text)) }
            }
            return out.reversed()
        }
    }

    /// The coach's live programs and templates, for the dashboard's assign form: (reference, label).
    public func assignables(_ caller: AccountDirectory.Caller) throws -> (programs: [(String, String)], templates: [(String, String)]) {
        try logs.log(caller.account.accountId).withLedger { ledger in
            let programs = try ledger.programs().live.map { ($0.programId.lowercased, "\($0.generated.split) (\($0.generated.sessions.count) days)") }
            let templates = try ledger.templates().live.map { ($0.templateId.lowercased, $0.name) }
            return (programs, templates)
        }
    }
}
