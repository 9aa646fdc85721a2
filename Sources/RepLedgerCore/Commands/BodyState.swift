import Foundation

/// Weigh-ins from the `body` stream (DOMAIN.md §15), in time order.
public struct BodyState: Sendable, Equatable {
    public struct Measurement: Sendable, Equatable {
        public var measurementId: UUID
        public var at: Timestamp
        /// As entered (stone and pounds as the pounds they are).
        public var weight: Weight
        public var kilograms: Double { weight.kilograms }
    }

    /// Oldest first, by when they were measured (a watch may send an older weigh-in later).
    public private(set) var measurements: [Measurement] = []
    public var version: Int64 = 0

    public init() {}

    public mutating func evolve(_ event: LedgerEvent, at time: Timestamp) {
        guard case .bodyweightMeasured(let e) = event else { return }
        version += 1
        let m = Measurement(measurementId: e.measurementId, at: time, weight: e.weight)
        let i = measurements.firstIndex { $0.at > time } ?? measurements.endIndex
        measurements.insert(m, at: i)
    }

    /// The latest bodyweight measured at or before `t`, in kilograms.
    public func kilograms(atOrBefore t: Timestamp) -> Double? {
        var low = 0, high = measurements.count
        while low < high {
            let mid = (low + high) / 2
            if measurements[mid].at <= t { low = mid + 1 } else { high = mid }
        }
        return low > 0 ? measurements[low - 1].kilograms : nil
    }
}

extension BodyState.Measurement: PayloadRecord {
    public init() { self.init(measurementId: .zero, at: Timestamp(millis: 0), weight: Weight()) }
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("measurementId", &measurementId)
        try c.field("at", &at)
        try c.field("weight", &weight)
    }
}

extension BodyState: PayloadValue {
    public init(from r: inout BinaryReader) throws {
        self.init()
        measurements = try [Measurement](from: &r)
        version = try Int64(from: &r)
    }

    public func encode(to w: inout BinaryWriter) {
        measurements.encode(to: &w)
        version.encode(to: &w)
    }

    public func writeJSON(to j: inout JSONWriter) { measurements.writeJSON(to: &j) }
}
