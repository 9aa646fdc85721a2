import Foundation

// How the command states are stored in snapshots: the same compact binary
// codec as event payloads, one field list per type. A change to any list
// changes the bytes of stored snapshots, so it must come with a bump of the
// version of every projection that stores the state (old snapshots are then
// ignored and rebuilt, never misread).

extension WorkoutState.Entry: PayloadRecord {
    public init() { self.init(entryId: .zero, exerciseId: "", supersetId: nil, note: nil, targetSets: nil, targetRepsMin: nil, targetRepsMax: nil) }
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("entryId", &entryId)
        try c.field("exerciseId", &exerciseId)
        try c.field("supersetId", &supersetId)
        try c.field("note", &note)
        try c.field("targetSets", &targetSets)
        try c.field("targetRepsMin", &targetRepsMin)
        try c.field("targetRepsMax", &targetRepsMax)
    }
}

extension WorkoutState.SetRecord: PayloadRecord {
    public init() {
        self.init(setId: .zero, entryId: .zero, exerciseId: "", type: .normal, metrics: SetMetrics(), notes: nil, completed: false, completedAt: nil)
    }
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("setId", &setId)
        try c.field("entryId", &entryId)
        try c.field("exerciseId", &exerciseId)
        try c.field("type", &type)
        try c.field("metrics", &metrics)
        try c.field("notes", &notes)
        try c.field("completed", &completed)
        try c.field("completedAt", &completedAt)
        try c.field("rank", &rank)
    }
}

extension WorkoutState.SetClock: PayloadRecord {
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("setId", &setId)
        try c.field("weight", &weight)
        try c.field("reps", &reps)
        try c.field("rpe", &rpe)
        try c.field("duration", &duration)
        try c.field("distance", &distance)
        try c.field("type", &type)
        try c.field("notes", &notes)
        try c.field("completed", &completed)
        try c.field("written", &written)
    }
}

extension WorkoutState.Rest: PayloadRecord {
    public init() { self.init(afterSetId: nil, startedAt: Timestamp(millis: 0), plannedSeconds: 0, dismissedAt: nil) }
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("afterSetId", &afterSetId)
        try c.field("startedAt", &startedAt)
        try c.field("plannedSeconds", &plannedSeconds)
        try c.field("dismissedAt", &dismissedAt)
        try c.field("pausedMillis", &pausedMillis)
        try c.field("pausedSince", &pausedSince)
    }
}

extension WorkoutState.SetEffort: PayloadRecord {
    public init() { self.init(setId: .zero, rir: nil, tempo: nil, rirAt: 0, tempoAt: 0) }
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("setId", &setId)
        try c.field("rir", &rir)
        try c.field("tempo", &tempo)
        try c.field("rirAt", &rirAt)
        try c.field("tempoAt", &tempoAt)
        try c.field("band", &band)
        try c.field("implement", &implement)
        try c.field("bandAt", &bandAt)
        try c.field("implementAt", &implementAt)
    }
}

extension AccountState.ExerciseRest: PayloadRecord {
    public init() { self.init(exerciseId: "", seconds: 0) }
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("exerciseId", &exerciseId)
        try c.field("seconds", &seconds)
    }
}

extension AccountState.TestedMax: PayloadRecord {
    public init() { self.init(exerciseId: "", weight: Weight(0, .kg), testedAt: Timestamp(millis: 0)) }
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("exerciseId", &exerciseId)
        try c.field("weight", &weight)
        try c.field("testedAt", &testedAt)
    }
}

extension WorkoutState.DeletedSet: PayloadRecord {
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("record", &record)
        try c.field("deletedAt", &deletedAt)
    }
}

extension WorkoutState: PayloadRecord {
    public init() { self.init(workoutId: .zero) }
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("workoutId", &workoutId)
        try c.field("status", &status)
        try c.field("name", &name)
        try c.field("origin", &origin)
        try c.field("templateId", &templateId)
        try c.field("programId", &programId)
        try c.field("programDayIndex", &programDayIndex)
        try c.field("startedAt", &startedAt)
        try c.field("finishedAt", &finishedAt)
        try c.field("discardedAt", &discardedAt)
        try c.field("pausedMillis", &pausedMillis)
        try c.field("pausedSince", &pausedSince)
        try c.field("entries", &entries)
        try c.field("sets", &sets)
        try c.field("note", &note)
        try c.field("setClocks", &setClocks)
        try c.field("deletedSets", &deletedSets)
        try c.field("setsAdded", &setsAdded)
        try c.field("rests", &rests)
        try c.field("efforts", &efforts)
        try c.field("maxHeartRate", &maxHeartRate)
        try c.field("heartRateSum", &heartRateSum)
        try c.field("heartRateSamples", &heartRateSamples)
        try c.field("activeEnergyKcal", &activeEnergyKcal)
        try c.field("feeling", &feeling)
        try c.field("closingNote", &closingNote)
        try c.field("activity", &activity)
        try c.field("modules", &modules)
        try c.field("deload", &deload)
        try c.field("version", &version)
        var (keys, millis) = noteClocks.encoded
        try c.field("noteClockKeys", &keys)
        try c.field("noteClockMillis", &millis)
        noteClocks = EditClocks(keys: keys, millis: millis)
    }
}

extension Int64: PayloadValue {
    @inline(__always) public init(from r: inout BinaryReader) throws { self = try r.readSigned() }
    public func encode(to w: inout BinaryWriter) { w.writeSigned(self) }
    public func writeJSON(to j: inout JSONWriter) { j.int(self) }
}

extension LibraryState: PayloadValue {
    public init(from r: inout BinaryReader) throws {
        self.init()
        let definitions = try [ExerciseDefined](from: &r)
        let archived = try [String](from: &r)
        let version = try Int64(from: &r)
        for d in definitions { evolve(.exerciseDefined(d)) }
        for id in archived { var e = ExerciseArchived(); e.exerciseId = id; evolve(.exerciseArchived(e)) }
        for e in try [ExerciseEdited](from: &r) { evolve(.exerciseEdited(e)) }
        for id in try [String](from: &r) { var e = ExerciseFavourited(); e.exerciseId = id; evolve(.exerciseFavourited(e)) }
        let merged = try [String](from: &r)
        for i in stride(from: 0, to: merged.count - 1, by: 2) {
            var e = ExerciseMerged()
            e.exerciseId = merged[i]
            e.intoExerciseId = merged[i + 1]
            evolve(.exerciseMerged(e))
        }
        editClocks = EditClocks(keys: try [String](from: &r), millis: try [Int](from: &r))
        self.version = version
    }

    public func encode(to w: inout BinaryWriter) {
        // The current definitions (renames applied) in definition order, then the archived, the lifter's
        // edits, favourites and merges (each merged id then its target); the name index is rebuilt on load.
        order.compactMap { exercises[$0]?.definition }.encode(to: &w)
        order.filter { exercises[$0]?.archived == true }.encode(to: &w)
        version.encode(to: &w)
        edits.encode(to: &w)
        order.filter { exercises[$0]?.favourite == true }.encode(to: &w)
        merges.flatMap { [$0.exerciseId, $0.into] }.encode(to: &w)
        let clocks = editClocks.encoded
        clocks.keys.encode(to: &w)
        clocks.millis.encode(to: &w)
    }

    public func writeJSON(to j: inout JSONWriter) { order.compactMap { exercises[$0]?.definition }.writeJSON(to: &j) }
}

extension EntitlementState.Transaction: PayloadRecord {
    public init() {
        self.init(
            transactionId: "", originalTransactionId: "", product: .proMonthly, purchasedAt: Timestamp(millis: 0),
            expiresAt: Timestamp(millis: 0), endedAt: nil)
    }
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("transactionId", &transactionId)
        try c.field("originalTransactionId", &originalTransactionId)
        try c.field("product", &product)
        try c.field("purchasedAt", &purchasedAt)
        try c.field("expiresAt", &expiresAt)
        try c.field("endedAt", &endedAt)
    }
}

extension EntitlementState: PayloadValue {
    public init(from r: inout BinaryReader) throws {
        self.init()
        for tx in try [Transaction](from: &r) {
            transactions[tx.transactionId] = tx
            order.append(tx.transactionId)
        }
        upsellDismissedAt = try Timestamp?(from: &r)
        let ids = try [String](from: &r), signed = try [String](from: &r)
        for (id, jws) in zip(ids, signed) { receipts[id] = jws }
        let from = try [Timestamp](from: &r), until = try [Timestamp](from: &r)
        operatorGrants = zip(from, until).map { OperatorGrant(from: $0, until: $1) }
    }

    public func encode(to w: inout BinaryWriter) {
        order.compactMap { transactions[$0] }.encode(to: &w)
        upsellDismissedAt.encode(to: &w)
        let ids = receipts.keys.sorted()
        ids.encode(to: &w)
        ids.map { receipts[$0]! }.encode(to: &w)
        operatorGrants.map(\.from).encode(to: &w)
        operatorGrants.map(\.until).encode(to: &w)
    }

    public func writeJSON(to j: inout JSONWriter) { order.compactMap { transactions[$0] }.writeJSON(to: &j) }
}

extension AccountState: PayloadRecord {
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("liftingUnit", &liftingUnit)
        try c.field("liftingUnitChosen", &liftingUnitChosen)
        try c.field("bodyweightDisplay", &bodyweightDisplay)
        try c.field("bodyweightDisplayChosen", &bodyweightDisplayChosen)
        try c.field("distanceUnit", &distanceUnit)
        try c.field("restTimerSeconds", &restTimerSeconds)
        try c.field("restAutoStart", &restAutoStart)
        try c.field("effortScale", &effortScale)
        try c.field("exerciseRests", &exerciseRests)
        try c.field("testedMaxes", &testedMaxes)
        try c.field("plateUnit", &plateUnit)
        try c.field("bar", &bar)
        try c.field("plates", &plates)
        try c.field("entitlements", &entitlements)
        try c.field("version", &version)
        var (keys, millis) = editClocks.encoded
        try c.field("editClockKeys", &keys)
        try c.field("editClockMillis", &millis)
        editClocks = EditClocks(keys: keys, millis: millis)
    }
}

extension TemplateCatalogState.Template: PayloadRecord {
    public init() { self.init(templateId: .zero, name: "", exercises: [], createdAt: Timestamp(millis: 0)) }
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("templateId", &templateId)
        try c.field("name", &name)
        // Every target of each line (the events' four-field layout holds only some).
        var lines = exercises.map(TemplateLine.init)
        try c.field("lines", &lines)
        exercises = lines.map(\.exercise)
        try c.field("createdAt", &createdAt)
        try c.field("deleted", &deleted)
        try c.field("modules", &modules)
        try c.field("version", &version)
    }
}

extension TemplateCatalogState: PayloadValue {
    public init(from r: inout BinaryReader) throws {
        self.init()
        for t in try [Template](from: &r) {
            templates[t.templateId] = t
            creationOrder.append(t.templateId)
        }
        explicitOrder = try [UUID](from: &r)
        orderVersion = try Int64(from: &r)
        editClocks = EditClocks(keys: try [String](from: &r), millis: try [Int](from: &r))
    }

    public func encode(to w: inout BinaryWriter) {
        creationOrder.compactMap { templates[$0] }.encode(to: &w)
        explicitOrder.encode(to: &w)
        orderVersion.encode(to: &w)
        let clocks = editClocks.encoded
        clocks.keys.encode(to: &w)
        clocks.millis.encode(to: &w)
    }

    public func writeJSON(to j: inout JSONWriter) { creationOrder.compactMap { templates[$0] }.writeJSON(to: &j) }
}
