import Foundation

/// All templates, as the `template-<id>` and `templates` streams describe them.
public struct TemplateCatalogState: Sendable, Equatable {
    public struct Template: Sendable, Equatable {
        public var templateId: UUID
        public var name: String
        public var exercises: [TemplateExercise]
        public var createdAt: Timestamp
        public var deleted = false
        /// The modules it is made of (`TemplateModulesSet`), in its order.
        public var modules: [TemplateModule] = []
        /// The stream version, for optimistic concurrency.
        public var version: Int64 = 0
    }

    public internal(set) var templates: [UUID: Template] = [:]
    var creationOrder: [UUID] = []
    var explicitOrder: [UUID] = []
    /// Version of the `templates` (ordering) stream.
    public internal(set) var orderVersion: Int64 = 0
    /// When each template's name and lines were last written: the newer edit wins across devices.
    public internal(set) var editClocks = EditClocks()

    public init() {}

    /// The events that change templates: the one list the ledger's reads and every fold use.
    public static let eventTypes: [any EventPayload.Type] = [
        TemplateCreated.self, TemplateRenamed.self, TemplateExercisesChanged.self, TemplateTargetsSet.self,
        TemplateDuplicated.self, TemplatesReordered.self, TemplateDeleted.self, TemplateModulesSet.self,
    ]
    private static let eventCodes: Set<Int> = Set(eventTypes.map { t in t.eventType.code })

    /// Whether the event changes templates.
    public static func changes(_ event: LedgerEvent) -> Bool {
        let payload = event.payload
        return eventCodes.contains(type(of: payload).eventType.code)
    }

    /// Live templates in the user's order: explicitly ordered ones first, then newer ones by creation.
    public var live: [Template] {
        let ordered = explicitOrder + creationOrder.filter { !explicitOrder.contains($0) }
        return ordered.compactMap { templates[$0] }.filter { !$0.deleted }
    }

    public mutating func evolve(_ event: LedgerEvent, at time: Timestamp) {
        guard editClocks.admits(event, at: time) else {
            // An older edit of a name or lines: passed over, still a version of the template's stream.
            if let id = Self.templateId(of: event) { update(id) { _ in } }
            return
        }
        switch event {
        case .templateCreated(let e):
            add(Template(templateId: e.templateId, name: e.name, exercises: e.exercises, createdAt: time))
        case .templateDuplicated(let e):
            add(Template(templateId: e.templateId, name: e.name, exercises: e.exercises, createdAt: time))
        case .templateModulesSet(let e):
            update(e.templateId) { $0.modules = e.modules }
        case .templateRenamed(let e):
            update(e.templateId) { $0.name = e.name }
        case .templateExercisesChanged(let e):
            update(e.templateId) { $0.exercises = e.exercises }
        case .templateTargetsSet(let e):
            update(e.templateId) { $0.exercises = e.lines.map(\.exercise) }
        case .templateDeleted(let e):
            update(e.templateId) { $0.deleted = true }
        case .templatesReordered(let e):
            explicitOrder = e.templateIds
            orderVersion += 1
        default:
            break
        }
    }

    private static func templateId(of event: LedgerEvent) -> UUID? {
        switch event {
        case .templateRenamed(let e): e.templateId
        case .templateExercisesChanged(let e): e.templateId
        case .templateTargetsSet(let e): e.templateId
        default: nil
        }
    }

    private mutating func add(_ t: Template) {
        var t = t
        t.version = 1
        templates[t.templateId] = t
        creationOrder.append(t.templateId)
    }

    private mutating func update(_ id: UUID, _ change: (inout Template) -> Void) {
        guard var t = templates[id] else { return }
        change(&t)
        t.version += 1
        templates[id] = t
    }

    /// A live template by full id, unique id prefix or name (case-insensitive).
    public func resolve(_ ref: String) throws(Refusal) -> Template {
        let key = ref.lowercased()
        let live = self.live
        if let byId = live.first(where: { $0.templateId.lowercased == key }) { return byId }
        let byName = live.filter { $0.name.lowercased() == key }
        if byName.count == 1 { return byName[0] }
        let byPrefix = live.filter { $0.templateId.lowercased.hasPrefix(key) }
        if byPrefix.count == 1, !key.isEmpty { return byPrefix[0] }
        if byName.count + byPrefix.count > 1 {
            throw .ambiguousTemplate(ref, matches: (byName + byPrefix).map(\.name))
        }
        throw .unknownTemplate(ref)
    }
}
