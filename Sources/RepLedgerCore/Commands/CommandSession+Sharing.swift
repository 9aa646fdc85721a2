import Foundation

/// Shared templates and programs imported from their documents
/// (`template import FILE`, `program import FILE`), with their origin.
extension CommandSession {
    /// The template or program a document already made, if it is still there: importing it again records nothing.
    mutating func alreadyImported(_ doc: SharedDocument) throws -> Bool {
        let known = try programCatalog().imported.filter { $0.kind == doc.kind && $0.documentHash == doc.hash }.map(\.id)
        switch doc.kind {
        case .template: return try templateCatalog().live.contains { known.contains($0.templateId) }
        case .program: return try programCatalog().live.contains { known.contains($0.programId) }
        }
    }

    /// A document's exercise here: the same id, else the same name (another ledger's custom exercise); refused when neither.
    func localExercise(_ line: SharedContent.Line) throws(Refusal) -> String {
        if library.exercises[line.exerciseId] != nil { return line.exerciseId }
        if let x = try? library.resolve(line.name), x.name.lowercased() == line.name.lowercased() { return x.exerciseId }
        throw .documentExerciseMissing(line.name)
    }

    /// Imports a shared template as a new one, its modules and its origin; refused as `nothingToChange` when
    /// this document's template is still here.
    public mutating func importTemplate(_ doc: SharedDocument) throws -> UUID {
        guard doc.kind == .template else { throw Refusal.invalidDocument("it is a \(doc.kind.rawValue), not a template") }
        if try alreadyImported(doc) { throw Refusal.nothingToChange }
        let content = try SharedContent.Fields(doc.content, at: "the template")
        var ids: [String: String] = [:]  // the document's exercise ids → this ledger's
        var lines: [TemplateExercise] = []
        for (i, v) in try content.array("lines").enumerated() {
            let line = try SharedContent.readLine(v, at: "line \(i + 1)")
            var t = line.targets
            t.exerciseId = try localExercise(line)
            ids[line.exerciseId] = t.exerciseId
            lines.append(t)
        }
        guard !lines.isEmpty else { throw Refusal.invalidDocument("the template has no lines") }
        let id = try createTemplate(name: try content.string("name"), lines: lines)
        let modules = try content.array("modules").enumerated().map { i, v throws(Refusal) in
            let f = try SharedContent.Fields(v, at: "module \(i + 1)")
            var m = TemplateModule()
            m.moduleId = self.ids.next()
            m.name = try f.string("name")
            m.type = try SharedContent.moduleType(try f.string("type"), at: "module \(i + 1)")
            m.exerciseIds = try f.array("exerciseIds").compactMap { e -> String? in
                guard case .string(let s) = e else { return nil }
                return ids[s]
            }
            try Invariants.check(name: m.name, of: .template)
            return m
        }
        if !modules.isEmpty {
            var e = TemplateModulesSet()
            e.templateId = id
            e.modules = modules
            emit([.templateModulesSet(e)])
        }
        recordOrigin(doc, id)
        return id
    }

    /// Imports a shared program as a new live program, the active one (a third removes the oldest, as
    /// generating does), with its holds, its days' modules, its planned weeks (from today) and percentage targets, and its
    /// origin; refused as `nothingToChange` when
    /// this document's program is still here.
    public mutating func importProgram(_ doc: SharedDocument) throws -> ProgramGenerated {
        guard doc.kind == .program else { throw Refusal.invalidDocument("it is a \(doc.kind.rawValue), not a program") }
        if try alreadyImported(doc) { throw Refusal.nothingToChange }
        let catalog = try programCatalog()
        let content = try SharedContent.Fields(doc.content, at: "the program")
        var e = ProgramGenerated()
        e.programId = ids.next()
        e.split = try content.string("split")
        e.seed = UInt64(try content.string("seed")) ?? 0
        var holds: [ProgramHold] = []
        var dayModules: [ProgramDayModulesSet] = []
        var percents: [ProgramPercentTargetSet] = []
        var planned: ProgramWeeksPlanned?
        if let w = content.value("weeks"), w != .null {
            let f = try SharedContent.Fields(w, at: "the program's weeks")
            guard let kind = ProgramBlockKind(rawValue: try f.string("kind")), let weeks = try f.int("weeks") else {
                throw Refusal.invalidDocument("the program's weeks need a kind (mesocycle or deload-cycle) and a number of weeks")
            }
            planned = try weekPlan(kind, weeks: weeks, startsOn: nil)
            planned!.programId = e.programId
        }
        let sessions = try content.array("sessions")
        guard (1...7).contains(sessions.count) else { throw Refusal.invalidDocument("a program has 1 to 7 days; this one has \(sessions.count)") }
        for (d, v) in sessions.enumerated() {
            let day = try SharedContent.Fields(v, at: "day \(d + 1)")
            var session = ProgramSession()
            session.name = try day.string("name")
            for (i, x) in try day.array("exercises").enumerated() {
                let at = "day \(d + 1), exercise \(i + 1)"
                let f = try SharedContent.Fields(x, at: at)
                var p = ProgramExercise()
                p.exerciseId = try localExercise(
                    SharedContent.Line(exerciseId: try f.string("exerciseId"), name: try f.string("exercise"), targets: .init()))
                p.sets = try f.int("sets") ?? 3
                p.repsMin = try f.int("repsMin") ?? 8
                p.repsMax = try f.int("repsMax") ?? 12
                p.restSeconds = try f.int("restSeconds") ?? 90
                if case .bool(let b)? = f.value("injuryWarning") { p.injuryWarning = b }
                guard (1...20).contains(p.sets), (1...100).contains(p.repsMin), p.repsMin <= p.repsMax, p.repsMax <= 100,
                    (0...Invariants.restLimitSeconds).contains(p.restSeconds)
                else { throw Refusal.invalidDocument("\(at) asks for \(p.sets) × \(p.repsMin)–\(p.repsMax), rest \(p.restSeconds) s") }
                session.exercises.append(p)
                if let percent = try f.int("percentOfMax") {
                    try Invariants.check(percentOfMax: percent)
                    var t = ProgramPercentTargetSet()
                    t.programId = e.programId
                    t.session = d
                    t.exerciseId = p.exerciseId
                    t.percent = percent
                    if case .string(let of)? = f.value("percentOf") {
                        guard let source = OneRepMaxSource(rawValue: of) else {
                            throw Refusal.invalidDocument("\(at)'s max is '\(of)', not tested or e1rm")
                        }
                        t.of = source
                    }
                    percents.append(t)
                }
                if let lo = try f.int("holdSecondsMin"), let hi = try f.int("holdSecondsMax") {
                    var h = ProgramHold()
                    h.session = d
                    h.exerciseId = p.exerciseId
                    h.secondsMin = lo
                    h.secondsMax = hi
                    holds.append(h)
                }
            }
            guard !session.exercises.isEmpty else { throw Refusal.invalidDocument("day \(d + 1) has no exercises") }
            e.sessions.append(session)
            var modules: [ModuleDefined] = []
            for (m, mv) in try day.array("modules").enumerated() {
                let at = "day \(d + 1), module \(m + 1)"
                let f = try SharedContent.Fields(mv, at: at)
                var module = ModuleDefined()
                module.moduleId = ids.next()
                module.name = try f.string("name")
                module.type = try SharedContent.moduleType(try f.string("type"), at: at)
                for (l, lv) in try f.array("lines").enumerated() {
                    let line = try SharedContent.readLine(lv, at: "\(at), line \(l + 1)")
                    var t = line.targets
                    t.exerciseId = try localExercise(line)
                    try Invariants.check(templateLine: t)
                    module.lines.append(TemplateLine(t))
                }
                try Invariants.check(name: module.name, of: .template)
                if !module.lines.isEmpty { modules.append(module) }
            }
            if !modules.isEmpty {
                var set = ProgramDayModulesSet()
                set.programId = e.programId
                set.session = d
                set.modules = modules
                dayModules.append(set)
            }
        }
        emit(
            Self.adopting(e, holds: holds, into: catalog) + dayModules.map { .programDayModulesSet($0) }
                + (planned.map { [.programWeeksPlanned($0)] } ?? []) + percents.map { .programPercentTargetSet($0) })
        recordOrigin(doc, e.programId)
        return e
    }

    private mutating func recordOrigin(_ doc: SharedDocument, _ id: UUID) {
        var origin = SharedDocumentImported()
        origin.kind = doc.kind
        origin.id = id
        origin.documentHash = doc.hash
        emit([.sharedDocumentImported(origin)])
    }
}
