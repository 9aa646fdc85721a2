import Foundation

/// The measured values of a set. Every field is optional because exercise
/// kinds measure different things (DOMAIN.md §2): strength has weight × reps
/// (weight absent for bodyweight work), cardio duration and/or distance,
/// isometric a hold time.
public struct SetMetrics: Sendable, Hashable, PayloadRecord {
    // Stored packed (48 bytes instead of 80): a long log's fold holds one of
    // these per set, and five optionals padded to 16 bytes each were a fifth
    // of its memory. An absent number is a bit pattern no value decodes to.
    private var weightValue = 0.0
    @PackedOptionalInt public var reps: Int? = nil
    private var rpeBits = SetMetrics.absentBits
    private var durationBits = SetMetrics.absentBits
    private var distanceBits = SetMetrics.absentBits
    /// 0 when there is no weight, 1 for kg, 2 for lb.
    private var weightUnit: UInt8 = 0

    /// A NaN with a payload: JSON and the binary codec never produce it.
    private static let absentBits: UInt64 = 0x7FF8_0000_DEAD_BEEF

    public var weight: Weight? {
        get {
            switch weightUnit {
            case 1: Weight(weightValue, .kg)
            case 2: Weight(weightValue, .lb)
            default: nil
            }
        }
        set {
            weightValue = newValue?.value ?? 0
            switch newValue?.unit {
            case .kg: weightUnit = 1
            case .lb: weightUnit = 2
            case nil: weightUnit = 0
            }
        }
    }
    public var rpe: Double? {
        get { Self.number(rpeBits) }
        set { rpeBits = Self.bits(newValue) }
    }
    public var durationSeconds: Double? {
        get { Self.number(durationBits) }
        set { durationBits = Self.bits(newValue) }
    }
    public var distanceMeters: Double? {
        get { Self.number(distanceBits) }
        set { distanceBits = Self.bits(newValue) }
    }

    @inline(__always) private static func number(_ bits: UInt64) -> Double? { bits == absentBits ? nil : Double(bitPattern: bits) }
    @inline(__always) private static func bits(_ value: Double?) -> UInt64 { value?.bitPattern ?? absentBits }

    public init() {}
    public init(
        weight: Weight? = nil, reps: Int? = nil, rpe: Double? = nil,
        durationSeconds: Double? = nil, distanceMeters: Double? = nil
    ) {
        self.weight = weight
        self.reps = reps
        self.rpe = rpe
        self.durationSeconds = durationSeconds
        self.distanceMeters = distanceMeters
    }

    // Equality and hashing by the values, as the optionals compared them (0.0 == -0.0).
    public static func == (a: SetMetrics, b: SetMetrics) -> Bool {
        a.weight == b.weight && a.reps == b.reps && a.rpe == b.rpe
            && a.durationSeconds == b.durationSeconds && a.distanceMeters == b.distanceMeters
    }
    public func hash(into h: inout Hasher) {
        h.combine(weight)
        h.combine(reps)
        h.combine(rpe)
        h.combine(durationSeconds)
        h.combine(distanceMeters)
    }

    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("weight", &weight)
        try c.field("reps", &reps)
        try c.field("rpe", &rpe)
        try c.field("durationSeconds", &durationSeconds)
        try c.field("distanceMeters", &distanceMeters)
    }
}

/// A planned set: on the screen, not yet done (templates, programs, "add set").
public struct SetAdded: EventPayload {
    public static let eventType = EventType("SetAdded", code: 30)
    public var workoutId = UUID.zero
    public var setId = UUID.zero
    public var entryId = UUID.zero
    public var exerciseId = ""
    public var type: SetType = .normal
    public var target = SetMetrics()
    public var stream: StreamName { .workout(workoutId) }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("workoutId", &workoutId)
        try c.field("setId", &setId)
        try c.field("entryId", &entryId)
        try c.field("exerciseId", &exerciseId)
        try c.field("type", &type)
        try c.field("target", &target)
    }
}

/// A set done and recorded in one step (the common case on phone and watch).
/// If `setId` names a planned set, that set is filled in and completed.
/// `historyEdit` marks a deliberate change to a finished workout.
public struct SetLogged: EventPayload {
    public static let eventType = EventType("SetLogged", code: 31)
    public var workoutId = UUID.zero
    public var setId = UUID.zero
    public var entryId = UUID.zero
    public var exerciseId = ""
    public var type: SetType = .normal
    public var metrics = SetMetrics()
    public var notes: String? = nil
    public var historyEdit = false
    public var stream: StreamName { .workout(workoutId) }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("workoutId", &workoutId)
        try c.field("setId", &setId)
        try c.field("entryId", &entryId)
        try c.field("exerciseId", &exerciseId)
        try c.field("type", &type)
        try c.field("metrics", &metrics)
        try c.field("notes", &notes)
        try c.field("historyEdit", &historyEdit)
    }
}

/// A correction. Only the fields present change; the rest keep their values.
public struct SetEdited: EventPayload {
    public static let eventType = EventType("SetEdited", code: 32)
    public var workoutId = UUID.zero
    public var setId = UUID.zero
    public var type: SetType? = nil
    public var changes = SetMetrics()
    public var notes: String? = nil
    public var historyEdit = false
    public var stream: StreamName { .workout(workoutId) }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("workoutId", &workoutId)
        try c.field("setId", &setId)
        try c.field("type", &type)
        try c.field("changes", &changes)
        try c.field("notes", &notes)
        try c.field("historyEdit", &historyEdit)
    }
}

public struct SetDeleted: EventPayload {
    public static let eventType = EventType("SetDeleted", code: 33)
    public var workoutId = UUID.zero
    public var setId = UUID.zero
    public var historyEdit = false
    public var stream: StreamName { .workout(workoutId) }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("workoutId", &workoutId)
        try c.field("setId", &setId)
        try c.field("historyEdit", &historyEdit)
    }
}

/// Ticks a planned set, keeping its target values as the done values.
public struct SetCompleted: EventPayload {
    public static let eventType = EventType("SetCompleted", code: 34)
    public var workoutId = UUID.zero
    public var setId = UUID.zero
    public var stream: StreamName { .workout(workoutId) }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("workoutId", &workoutId)
        try c.field("setId", &setId)
    }
}

public struct SetUncompleted: EventPayload {
    public static let eventType = EventType("SetUncompleted", code: 35)
    public var workoutId = UUID.zero
    public var setId = UUID.zero
    public var stream: StreamName { .workout(workoutId) }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("workoutId", &workoutId)
        try c.field("setId", &setId)
    }
}

/// How hard a set was, beyond RPE: reps in reserve (stored as entered; RPE =
/// 10 − RIR) and tempo (`3-1-1-0`: down, pause, up, pause; `X` explosive).
/// A field left nil keeps its value; each field's last write by `occurredAt` wins.
public struct SetEffortRecorded: EventPayload {
    public static let eventType = EventType("SetEffortRecorded", code: 36)
    public var workoutId = UUID.zero
    public var setId = UUID.zero
    public var rir: Double? = nil
    public var tempo: String? = nil
    public var stream: StreamName { .workout(workoutId) }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("workoutId", &workoutId)
        try c.field("setId", &setId)
        try c.field("rir", &rir)
        try c.field("tempo", &tempo)
    }
}

/// What a set was done with, beyond its load: a band's colour, an
/// implement's value (a machine's seat or pin, a kettlebell's size, a cable
/// attachment), as the lifter names them. Each field given replaces the
/// set's earlier one; the newer write wins across devices.
public struct SetEquipmentRecorded: EventPayload {
    public static let eventType = EventType("SetEquipmentRecorded", code: 39)
    public var workoutId = UUID.zero
    public var setId = UUID.zero
    public var band: String? = nil
    public var implement: String? = nil
    public var stream: StreamName { .workout(workoutId) }
    public init() {}
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("workoutId", &workoutId)
        try c.field("setId", &setId)
        try c.field("band", &band)
        try c.field("implement", &implement)
    }
}
