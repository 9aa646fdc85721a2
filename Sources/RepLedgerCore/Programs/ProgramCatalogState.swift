import Foundation

/// Questionnaires and programs from the `programs` stream (DOMAIN.md §12):
/// at most 2 programs live, one of them active.
public struct ProgramCatalogState: Sendable, Equatable {
    public struct Program: Sendable, Equatable {
        public var generated: ProgramGenerated
        public var createdAt: Timestamp
        public var programId: UUID { generated.programId }
    }

    public static let liveLimit = 2

    public private(set) var questionnaires: [UUID: QuestionnaireAnswered] = [:]
    /// The last questionnaire answered, which `program generate` uses by default.
    public private(set) var latestQuestionnaire: UUID?
    /// Live programs, oldest first.
    public private(set) var live: [Program] = []
    public private(set) var active: UUID?
    public var version: Int64 = 0

    public init() {}

    public mutating func evolve(_ event: LedgerEvent, at time: Timestamp) {
        switch event {
        case .questionnaireAnswered(let e):
            questionnaires[e.questionnaireId] = e
            latestQuestionnaire = e.questionnaireId
        case .programGenerated(let e):
            live.append(Program(generated: e, createdAt: time))
        case .programActivated(let e):
            active = e.programId
        case .programRemoved(let e):
            live.removeAll { $0.programId == e.programId }
            if active == e.programId { active = nil }
        default:
            return
        }
        version += 1
    }

    /// A program by id, unique id prefix, or `active`.
    public func resolve(_ ref: String) throws(Refusal) -> Program {
        let key = ref.lowercased()
        if key == "active", let active, let p = live.first(where: { $0.programId == active }) { return p }
        let matches = live.filter { $0.programId.lowercased.hasPrefix(key) }
        guard !key.isEmpty, matches.count == 1 else { throw .unknownProgram(ref) }
        return matches[0]
    }
}
