import Foundation

/// Questionnaires and programs from the `programs` stream (DOMAIN.md §12):
/// at most 2 programs live, one of them active.
public struct ProgramCatalogState: Sendable, Equatable {
    public struct Program: Sendable, Equatable {
        public var generated: ProgramGenerated
        public var createdAt: Timestamp
        /// Time targets of its holds (`ProgramHoldsTimed`); none for programs generated before them.
        public var holds: [ProgramHold] = []
        /// The ISO weekdays (1 is Monday) its days fall on (`ProgramScheduled`); none when unscheduled.
        public var weekdays: [Int] = []
        /// The named modules its days take (`ProgramDayModulesSet`), one list per day that has any, by day.
        public var dayModules: [ProgramDayModulesSet] = []
        /// How its weeks run (`ProgramWeeksPlanned`): a mesocycle or a deload every N weeks; none when unplanned.
        public var block: ProgramWeeksPlanned? = nil
        /// Its exercises given as a percentage of a max (`ProgramPercentTargetSet`), by day and then exercise.
        public var percentTargets: [ProgramPercentTargetSet] = []
        /// Which generator made it (`ProgramStyleChosen`); the seed's when none was recorded.
        public var style: ProgramStyle = .seed
        /// The minutes a session of it has: its questionnaire's, when the log holds it (a coach's or a shared program
        /// may have none).
        public var sessionMinutes: Int? = nil
        public var programId: UUID { generated.programId }

        /// The named modules of a day (0-based), in the order added.
        public func modules(day: Int) -> [ModuleDefined] { dayModules.first { $0.session == day }?.modules ?? [] }

        /// Whether a module goes before the day's own exercises: warm-ups, prehab and explosive work come first,
        /// strength, cardio and recovery after, as a session runs.
        public static func opensDay(_ type: ModuleType) -> Bool { [.warmup, .prehab, .explosive].contains(type) }

        /// The modules that open a day (`opening`), or those that follow its own exercises, in the order added.
        public func modules(day: Int, opening: Bool) -> [ModuleDefined] { modules(day: day).filter { Self.opensDay($0.type) == opening } }

        /// The exercises of a day in the order a workout of it plans them: modules that open the day,
        /// the day's own exercises, then the other modules.
        public func exerciseIds(day: Int) -> [String] {
            let own = day < generated.sessions.count ? generated.sessions[day].exercises.map(\.exerciseId) : []
            func ids(_ opening: Bool) -> [String] { modules(day: day, opening: opening).flatMap { $0.lines.map(\.exercise.exerciseId) } }
            return ids(true) + own + ids(false)
        }

        /// The module line of an exercise on any day, for its targets (the first day's, first module's).
        public func moduleLine(exerciseId: String) -> (module: ModuleDefined, line: TemplateExercise)? {
            for d in dayModules.sorted(by: { $0.session < $1.session }) {
                for m in d.modules {
                    if let l = m.lines.first(where: { $0.exercise.exerciseId == exerciseId }) { return (m, l.exercise) }
                }
            }
            return nil
        }

        /// The percentage target of an exercise on a day (0-based), if it has one.
        public func percentTarget(session: Int, exerciseId: String) -> ProgramPercentTargetSet? {
            percentTargets.first { $0.session == session && $0.exerciseId == exerciseId }
        }

        /// The hold target of an exercise on a day (0-based), if it is a timed hold.
        public func hold(session: Int, exerciseId: String) -> ProgramHold? {
            holds.first { $0.session == session && $0.exerciseId == exerciseId }
        }
    }

    public static let liveLimit = 2

    public private(set) var questionnaires: [UUID: QuestionnaireAnswered] = [:]
    /// The last questionnaire answered, which `program generate` uses by default.
    public private(set) var latestQuestionnaire: UUID?
    /// Live programs, oldest first.
    public private(set) var live: [Program] = []
    public private(set) var active: UUID?
    /// Progression overrides by exercise: for one program, or everywhere (key `nil`).
    public private(set) var overrides: [String: [UUID?: ProgressionOverrideSet]] = [:]
    /// Modules, in the order first defined (`ModuleDefined`; a redefinition replaces in place).
    public private(set) var modules: [ModuleDefined] = []
    /// Shared documents imported (`SharedDocumentImported`), in log order: what each became, by its hash.
    public private(set) var imported: [SharedDocumentImported] = []
    public var version: Int64 = 0

    /// What `document` became when it was imported last: a template's or a program's id.
    public func importedId(of document: SharedDocument) -> UUID? {
        imported.last { $0.documentHash == document.hash && $0.kind == document.kind }?.id
    }

    public init() {}

    public mutating func evolve(_ event: LedgerEvent, at time: Timestamp) {
        switch event {
        case .questionnaireAnswered(let e):
            questionnaires[e.questionnaireId] = e
            latestQuestionnaire = e.questionnaireId
        case .programGenerated(let e):
            var p = Program(generated: e, createdAt: time)
            p.sessionMinutes = questionnaires[e.questionnaireId]?.sessionMinutes
            live.append(p)
        case .programStyleChosen(let e):
            if let i = live.firstIndex(where: { $0.programId == e.programId }) { live[i].style = e.style }
        case .programHoldsTimed(let e):
            if let i = live.firstIndex(where: { $0.programId == e.programId }) { live[i].holds = e.holds }
        case .programScheduled(let e):
            if let i = live.firstIndex(where: { $0.programId == e.programId }) { live[i].weekdays = e.weekdays }
        case .programDayModulesSet(let e):
            if let i = live.firstIndex(where: { $0.programId == e.programId }) {
                live[i].dayModules.removeAll { $0.session == e.session }
                if !e.modules.isEmpty { live[i].dayModules.append(e) }
            }
        case .programWeeksPlanned(let e):
            if let i = live.firstIndex(where: { $0.programId == e.programId }) { live[i].block = e.weeks > 0 ? e : nil }
        case .programPercentTargetSet(let e):
            if let i = live.firstIndex(where: { $0.programId == e.programId }) {
                live[i].percentTargets.removeAll { $0.session == e.session && $0.exerciseId == e.exerciseId }
                if e.percent != nil {
                    live[i].percentTargets.append(e)
                    live[i].percentTargets.sort { ($0.session, $0.exerciseId) < ($1.session, $1.exerciseId) }
                }
            }
        case .programActivated(let e):
            active = e.programId
        case .programRemoved(let e):
            live.removeAll { $0.programId == e.programId }
            if active == e.programId { active = nil }
        case .progressionOverrideSet(let e):
            if e.cleared {
                overrides[e.exerciseId]?[e.programId] = nil
            } else {
                var merged = overrides[e.exerciseId]?[e.programId] ?? ProgressionOverrideSet()
                merged.exerciseId = e.exerciseId
                merged.programId = e.programId
                if let v = e.enabled { merged.enabled = v }
                if let v = e.rule { merged.rule = v }
                if let v = e.module { merged.module = v }
                if let v = e.increment { merged.increment = v }
                if let v = e.repsMin { merged.repsMin = v }
                if let v = e.repsMax { merged.repsMax = v }
                overrides[e.exerciseId, default: [:]][e.programId] = merged
            }
        case .sharedDocumentImported(let e):
            imported.append(e)
        case .moduleDefined(let e):
            if let i = modules.firstIndex(where: { $0.moduleId == e.moduleId }) { modules[i] = e } else { modules.append(e) }
        default:
            return
        }
        version += 1
    }

    /// A module by name (any case) or unique id prefix.
    public func module(_ ref: String) throws(Refusal) -> ModuleDefined {
        let key = ref.trimmingSpaces().lowercased()
        if let named = modules.first(where: { $0.name.lowercased() == key }) { return named }
        let matches = modules.filter { $0.moduleId.lowercased.hasPrefix(key) }
        guard !key.isEmpty, matches.count == 1 else {
            throw .invalidProgram(
                "no module '\(ref)'"
                    + (modules.isEmpty ? ": define one with `ledger module define`" : "; modules: \(modules.map(\.name).joined(separator: ", "))"))
        }
        return matches[0]
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

extension ProgramCatalogState.Program: PayloadRecord {
    public init() { self.init(generated: ProgramGenerated(), createdAt: Timestamp(millis: 0)) }
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("generated", &generated)
        try c.field("createdAt", &createdAt)
        try c.field("holds", &holds)
        try c.field("weekdays", &weekdays)
        try c.field("dayModules", &dayModules)
        try c.field("block", &block)
        try c.field("percentTargets", &percentTargets)
    }
}

/// In snapshots of the fold: lists in a fixed order, so the same state gives the same bytes.
extension ProgramCatalogState: PayloadValue {
    public init(from r: inout BinaryReader) throws {
        self.init()
        for q in try [QuestionnaireAnswered](from: &r) { questionnaires[q.questionnaireId] = q }
        latestQuestionnaire = try UUID?(from: &r)
        live = try [Program](from: &r)
        active = try UUID?(from: &r)
        for o in try [ProgressionOverrideSet](from: &r) { overrides[o.exerciseId, default: [:]][o.programId] = o }
        modules = try [ModuleDefined](from: &r)
        imported = try [SharedDocumentImported](from: &r)
        version = try Int64(from: &r)
    }

    public func encode(to w: inout BinaryWriter) {
        questionnaires.values.sorted { $0.questionnaireId.lowercased < $1.questionnaireId.lowercased }.encode(to: &w)
        latestQuestionnaire.encode(to: &w)
        live.encode(to: &w)
        active.encode(to: &w)
        overrides.keys.sorted().flatMap { id in
            overrides[id]!.values.sorted { ($0.programId?.lowercased ?? "") < ($1.programId?.lowercased ?? "") }
        }.encode(to: &w)
        modules.encode(to: &w)
        imported.encode(to: &w)
        version.encode(to: &w)
    }

    public func writeJSON(to j: inout JSONWriter) { live.writeJSON(to: &j) }
}
