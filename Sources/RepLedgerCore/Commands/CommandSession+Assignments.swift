import Foundation

/// A coach's side of the Coach product (SERVER-CONTRACT.md §8): offers and notes,
/// recorded in the coach's own log; and the client's side: answering an
/// offer, which is the only way anything of a coach's reaches a client's log.
extension CommandSession {
    /// `ledger coach assign CLIENT --program P`: the whole program, as this ledger holds it, offered to a client.
    public mutating func offerProgram(_ ref: String, to client: String) throws -> AssignmentOffered {
        let program = try programCatalog().resolve(ref)
        var e = AssignmentOffered()
        e.kind = .program
        e.name = program.generated.split
        e.split = program.generated.split
        e.sessions = program.generated.sessions
        e.holds = program.holds
        return try offer(e, to: client)
    }

    /// `ledger coach assign CLIENT --template T`: the template and its targets, offered to a client
    /// (weights, durations and rests in an `AssignmentTargetsOffered` beside the offer).
    public mutating func offerTemplate(_ ref: String, to client: String) throws -> AssignmentOffered {
        let template = try templateCatalog().resolve(ref)
        var e = AssignmentOffered()
        e.kind = .template
        e.name = template.name
        e.exercises = template.exercises
        let offered = try offer(e, to: client)
        if template.exercises.contains(where: \.hasLaterTargets) {
            var targets = AssignmentTargetsOffered()
            targets.assignmentId = offered.assignmentId
            targets.lines = template.exercises.map(TemplateLine.init)
            emit([.assignmentTargetsOffered(targets)])
        }
        return offered
    }

    private mutating func offer(_ draft: AssignmentOffered, to client: String) throws(Refusal) -> AssignmentOffered {
        var e = draft
        e.clientAccountId = try Invariants.accountId(client, of: "the client's")
        e.assignmentId = ids.next()
        try Invariants.check(offer: e)
        emit([.assignmentOffered(e)])
        return e
    }

    /// `ledger coach note CLIENT TEXT` (or the dashboard's note form): a note in the coach's log.
    public mutating func addCoachNote(about client: String, text: String) throws(Refusal) -> UUID {
        var e = CoachNoteAdded()
        e.clientAccountId = try Invariants.accountId(client, of: "the client's")
        try Invariants.check(coachNote: text)
        e.text = text.trimmingSpaces()
        e.noteId = ids.next()
        emit([.coachNoteAdded(e)])
        return e.noteId
    }

    /// The client accepts an offer: the answer, then the program (made the
    /// active one; a third removes the oldest, as generating one does) or the
    /// template (within the Free template limit), every event caused by the
    /// offer's event. Refused when the offer was answered already, when it is
    /// not addressed to `client`, or names an exercise this library lacks.
    public mutating func acceptAssignment(
        _ offer: AssignmentOffered, targets: AssignmentTargetsOffered? = nil, offerEventId: UUID, coach: String, client: String,
        current: CoachingState
    ) throws -> UUID {
        let coachId = try answerable(offer, coach: coach, client: client, current: current)
        context.commandId = offerEventId
        var answer = AssignmentAnswered()
        answer.assignmentId = offer.assignmentId
        answer.coachAccountId = coachId
        answer.accepted = true
        expectations[.coaching] = .exactly(current.version)
        switch offer.kind {
        case .program:
            let catalog = try programCatalog()
            for session in offer.sessions {
                for x in session.exercises { _ = try library.resolveActive(x.exerciseId) }
            }
            for h in offer.holds { try ProgramGenerator.validate(h) }
            var program = ProgramGenerated()
            program.programId = ids.next()
            program.split = offer.split
            program.sessions = offer.sessions
            emit([.assignmentAnswered(answer)] + Self.adopting(program, holds: offer.holds, into: catalog))
            return program.programId
        case .template:
            // The targets, when the offer has them, are the same lines with every target.
            let lines = targets?.lines.map(\.exercise) ?? offer.exercises
            guard targets == nil || (targets?.assignmentId == offer.assignmentId && lines.map(\.exerciseId) == offer.exercises.map(\.exerciseId))
            else { throw Refusal.invalidInput("assignment \(offer.assignmentId.lowercased)'s targets do not match its exercises") }
            emit([.assignmentAnswered(answer)])
            return try createTemplate(name: offer.name, lines: lines)
        }
    }

    /// The client declines an offer: only the answer is recorded.
    public mutating func declineAssignment(_ offer: AssignmentOffered, coach: String, client: String, current: CoachingState) throws {
        var answer = AssignmentAnswered()
        answer.assignmentId = offer.assignmentId
        answer.coachAccountId = try answerable(offer, coach: coach, client: client, current: current)
        answer.accepted = false
        expectations[.coaching] = .exactly(current.version)
        emit([.assignmentAnswered(answer)])
    }

    private func answerable(_ offer: AssignmentOffered, coach: String, client: String, current: CoachingState) throws(Refusal) -> String {
        let coachId = try Invariants.accountId(coach, of: "the coach's")
        guard offer.clientAccountId == client.lowercased() else {
            throw .invalidInput("assignment \(offer.assignmentId.lowercased) was offered to another account")
        }
        if let accepted = current.answers[offer.assignmentId] {
            throw .invalidInput("assignment \(offer.assignmentId.lowercased) was \(accepted ? "accepted" : "declined") already")
        }
        try Invariants.check(offer: offer)
        return coachId
    }
}
