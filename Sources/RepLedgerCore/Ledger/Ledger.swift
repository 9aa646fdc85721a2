import Foundation

/// The ledger as an application: a store plus the command path. Each
/// `execute` loads the states a command needs, lets a `CommandSession`
/// decide, and appends the decided events in one transaction with the
/// versions they were decided on, so a concurrent writer causes a clean
/// `wrongExpectedVersion` instead of a lost update.
public final class Ledger {
    public let store: any EventStore
    public var device: String
    public var ids: IdentifierSource
    /// What the next commands' events are correlated by (a request of the command API, say); nil: each its own command.
    public var correlationId: UUID?
    /// Called after every command that appended events (automatic snapshots live here, outside the core).
    public var afterAppend: ((any EventStore) throws -> Void)?

    /// Stream states kept between commands with the last position folded into
    /// them. Each command still reads its streams, but only the events after
    /// that position (none, usually), so another writer's events are never
    /// missed and a long-lived process does not re-fold the library per set.
    ///
    /// A sync's rebase rewrites a device's log beneath a long-lived ledger (the kit's): its pending
    /// events move after the ones it pulled. So a kept state also holds the hash of the last event
    /// it folded, which chains every event before it, and is folded afresh when that event is gone.
    private struct Cached<State> {
        var state: State
        var position: Int64 = 0
        var hash: [UInt8] = []
    }
    private var libraryCache: Cached<LibraryState>?
    private var accountCache: Cached<AccountState>?
    private var workoutCache: [UUID: Cached<WorkoutState>] = [:]
    private static let cachedWorkouts = 16

    public init(store: any EventStore, device: String = "cli", ids: IdentifierSource = .random) {
        self.store = store
        self.device = device
        self.ids = ids
    }

    // MARK: States

    public func library() throws -> LibraryState {
        libraryCache = try caughtUp(libraryCache, .library, LibraryState()) { $0.evolve($1.event, at: $1.occurredAt) }
        return libraryCache!.state
    }

    public func account() throws -> AccountState {
        accountCache = try caughtUp(accountCache, .account, AccountState()) { $0.evolve($1.event, at: $1.occurredAt) }
        return accountCache!.state
    }

    /// A kept state advanced through its stream's newer events, or folded afresh when the event it
    /// was last folded through no longer has the hash it had (`Cached`): one read of a hash.
    private func caughtUp<State>(
        _ kept: Cached<State>?, _ stream: StreamName, _ empty: @autoclosure () -> State, _ evolve: (inout State, EventEnvelope) -> Void
    ) throws -> Cached<State> {
        var c = kept ?? Cached(state: empty())
        // Gone (a rebase that set events aside shortens the log) or restamped: folded afresh.
        if c.position > 0, (try? store.hash(at: c.position)) != c.hash { c = Cached(state: empty()) }
        try store.read(EventQuery(stream: stream, from: c.position + 1)) { e in
            evolve(&c.state, e)
            c.position = e.position
            c.hash = e.hash
        }
        return c
    }

    /// The `body` stream folded: weigh-ins, measurements and photos (read whole: it is small).
    public func body() throws -> BodyState {
        var state = BodyState()
        try store.read(EventQuery(stream: .body)) { state.evolve($0.event, at: $0.occurredAt) }
        return state
    }

    public func workout(_ id: UUID, through position: Int64 = .max) throws -> WorkoutState {
        guard position == .max else {
            var state = WorkoutState(workoutId: id)
            try store.read(EventQuery(stream: .workout(id), through: position)) { state.evolve($0.event, at: $0.occurredAt) }
            return state
        }
        let c = try caughtUp(workoutCache[id], .workout(id), WorkoutState(workoutId: id)) { $0.evolve($1.event, at: $1.occurredAt) }
        if workoutCache[id] == nil, workoutCache.count >= Self.cachedWorkouts,
            let oldest = workoutCache.min(by: { $0.value.position < $1.value.position })?.key
        {
            workoutCache[oldest] = nil
        }
        workoutCache[id] = c
        return c.state
    }

    /// Every template, folded from the template streams.
    public func templates(through position: Int64 = .max) throws -> TemplateCatalogState {
        var state = TemplateCatalogState()
        var query = EventQuery(types: Self.templateEventTypes, through: position)
        query.fromPosition = 1
        try store.read(query) { state.evolve($0.event, at: $0.occurredAt) }
        return state
    }

    /// Questionnaires and programs, folded from the `programs` stream.
    public func programs(through position: Int64 = .max) throws -> ProgramCatalogState {
        var state = ProgramCatalogState()
        try store.read(EventQuery(stream: .programs, through: position)) { state.evolve($0.event, at: $0.occurredAt) }
        return state
    }

    static let templateEventTypes = TemplateCatalogState.eventTypes.map { $0.eventType.name }

    /// A workout named by full id, unique id prefix, or `last` (the most recently started).
    public func resolveWorkout(_ ref: String) throws -> UUID {
        let key = ref.lowercased()
        let id = { (stream: StreamName) in UUID(uuidString: String(stream.raw.dropFirst("workout-".count))) }
        // The newest only: a long log has thousands of workouts, and listing them costs more than the command.
        if key == "last", let newest = try store.newestStream(prefix: "workout-").flatMap(id) { return newest }
        let found = try store.streams(prefix: "workout-" + (key == "last" ? "" : key))
        let ids = found.compactMap { id($0.stream) }
        if let exact = ids.first(where: { $0.lowercased == key }) { return exact }
        guard !key.isEmpty, key != "last", !ids.isEmpty else { throw Refusal.unknownWorkout(ref) }
        guard ids.count == 1 else { throw Refusal.ambiguousWorkout(ref, matches: ids.prefix(5).map(\.lowercased)) }
        return ids[0]
    }

    // MARK: Commands

    /// Runs one command: decide against current state, then append atomically.
    /// Reading, deciding and appending happen in one write transaction, so a
    /// rule that counts (the Free template limit) holds however many writers
    /// race. A refusal throws before anything is written, the built-in library
    /// seed of a new ledger included: it lands with the first command that
    /// appends, in the same transaction.
    @discardableResult
    public func execute<T>(at time: Timestamp? = nil, _ decide: (inout CommandSession) throws -> T) throws -> T {
        let (result, appended) = try store.writeTransaction { () throws -> (T, AppendResult) in
            let (library, seed) = try libraryWithSeed()
            let context = CommandContext(occurredAt: time ?? .now(), device: device, commandId: ids.next(), correlationId: correlationId)
            var session = CommandSession(
                library: library, account: try account(), context: context, ids: ids,
                loadWorkout: { [unowned self] id in try self.workout(id) },
                loadTemplates: { [unowned self] in try self.templates() },
                loadPrograms: { [unowned self] in try self.programs() })
            let result: T
            do {
                result = try decide(&session)
            } catch Refusal.unknownExercise(let typed, _) {
                throw Refusal.unknownExercise(typed, suggestions: try suggestions(for: typed, in: library))
            }
            ids = session.ids
            var expectations = session.expectations
            if !seed.isEmpty { expectations[.library] = .exactly(library.version - Int64(seed.count)) }
            return (result, try store.append(seed + session.pending, expecting: expectations))
        }
        if !appended.appended.isEmpty { try afterAppend?(store) }
        return result
    }

    /// "Did you mean …?" for a mistyped exercise, the exercises this lifter has
    /// done first among equally close names: `benhc` is their Bench Press, not
    /// Bench Dips. Read only on this refusal's path (one pass over the log's
    /// `WorkoutExerciseAdded` events).
    func suggestions(for typed: String, in library: LibraryState) throws -> [String] {
        var done = Set<String>()
        try store.read(EventQuery(types: [WorkoutExerciseAdded.eventType.name])) { e in
            if case .workoutExerciseAdded(let added) = e.event { done.insert(library.name(of: added.exerciseId)) }
        }
        let active = library.order.compactMap { library.exercises[$0] }.filter { !$0.archived }.map(\.name)
        return NearestNames.closest(to: typed, among: active, preferring: done)
    }

    /// The library to decide against and the library versions the ledger
    /// lacks, as events to append with the command's own (in memory until
    /// then): every version for a new ledger, the newer ones for an old one.
    public func libraryWithSeed() throws -> (LibraryState, [ProposedEvent]) {
        let stored = try library()
        let seed = Self.seedEvents(missingFrom: stored)
        guard !seed.isEmpty else { return (stored, []) }
        var state = stored
        for e in seed { state.evolve(e.event) }
        return (state, seed)
    }

    /// The library versions a library lacks, as events.
    public static func seedEvents(missingFrom library: LibraryState) -> [ProposedEvent] {
        ExerciseLibrary.missingVersions(in: library).flatMap { ExerciseLibrary.events(version: $0) }
    }

    /// The whole built-in exercise library as events, with name-derived event
    /// ids so that seeding twice (or two processes racing) stores it once.
    public static var seedEvents: [ProposedEvent] { allSeedEvents }
    private static let allSeedEvents: [ProposedEvent] = (1...ExerciseLibrary.latestVersion).flatMap {
        ExerciseLibrary.events(version: $0)
    }

    /// The library a reader is offered: the ledger's, or the built-in one for a
    /// ledger that has not recorded anything yet (it is written with the first command).
    public static func offered(_ library: LibraryState) -> LibraryState { library.version == 0 ? seededLibrary : library }

    /// The built-in library as a state, for reading a ledger that has not recorded anything yet.
    public static let seededLibrary: LibraryState = {
        var state = LibraryState()
        for e in seedEvents { state.evolve(e.event) }
        return state
    }()

    /// Appends the built-in exercise library if the ledger has none (the demo
    /// and tests that build logs by hand; commands seed through `execute`).
    public func seedLibraryIfNeeded() throws {
        let seed = Self.seedEvents(missingFrom: try library())
        guard !seed.isEmpty else { return }
        try store.append(seed)
    }
}
