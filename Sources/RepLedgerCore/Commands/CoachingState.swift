import Foundation

/// The coaches a lifter's log grants read access to, folded from the
/// `coaching` stream: the latest grant or revoke for each coach decides.
public struct CoachingState: Sendable, Equatable {
    public private(set) var coaches: Set<String> = []
    /// Offers this lifter answered, by assignment id: true when accepted.
    public private(set) var answers: [UUID: Bool] = [:]
    public private(set) var version: Int64 = 0

    public init() {}

    public func grants(_ coachAccountId: String) -> Bool { coaches.contains(coachAccountId) }

    public mutating func evolve(_ event: LedgerEvent) {
        switch event {
        case .coachAccessGranted(let e): coaches.insert(e.coachAccountId); version += 1
        case .coachAccessRevoked(let e): coaches.remove(e.coachAccountId); version += 1
        case .assignmentAnswered(let e): answers[e.assignmentId] = e.accepted; version += 1
        default: break
        }
    }
}

extension CommandSession {
    /// `ledger coach grant COACH_ACCOUNT`: lets that coach read this log (while they hold a Coach product).
    public mutating func grantCoach(_ coachAccountId: String, current: CoachingState) throws(Refusal) {
        let id = try Self.coachAccountId(coachAccountId)
        guard !current.grants(id) else { throw .nothingToChange }
        var e = CoachAccessGranted()
        e.coachAccountId = id
        expectations[.coaching] = .exactly(current.version)
        emit([.coachAccessGranted(e)])
    }

    /// `ledger coach revoke COACH_ACCOUNT`.
    public mutating func revokeCoach(_ coachAccountId: String, current: CoachingState) throws(Refusal) {
        let id = try Self.coachAccountId(coachAccountId)
        guard current.grants(id) else { throw .nothingToChange }
        var e = CoachAccessRevoked()
        e.coachAccountId = id
        expectations[.coaching] = .exactly(current.version)
        emit([.coachAccessRevoked(e)])
    }

    /// Account ids are the server's lowercased UUIDs.
    static func coachAccountId(_ text: String) throws(Refusal) -> String {
        try Invariants.accountId(text, of: "the coach's")
    }
}

extension Ledger {
    /// The coaching grants in force, folded from the `coaching` stream.
    public func coaching(through position: Int64 = .max) throws -> CoachingState {
        var state = CoachingState()
        try store.read(EventQuery(stream: .coaching, through: position)) { state.evolve($0.event) }
        return state
    }
}
