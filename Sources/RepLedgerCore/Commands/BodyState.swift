import Foundation

/// Weigh-ins, body measurements and progress photos from the `body` stream
/// (DOMAIN.md §15), each in time order.
public struct BodyState: Sendable, Equatable {
    /// A tape measurement or a body-fat reading, as entered.
    public struct SiteMeasurement: Sendable, Equatable {
        public var measurementId: UUID
        public var at: Timestamp
        public var site: BodySite
        public var measure: BodyMeasure
    }

    /// A progress photo's metadata (the bytes stay in the file).
    public struct Photo: Sendable, Equatable {
        public var photoId: UUID
        public var at: Timestamp
        public var pose: PhotoPose
        public var sha256: String
        public var byteCount: Int
        public var path: String
    }

    public struct Measurement: Sendable, Equatable {
        public var measurementId: UUID
        public var at: Timestamp
        /// As entered (stone and pounds as the pounds they are).
        public var weight: Weight
        public var kilograms: Double { weight.kilograms }
    }

    /// Oldest first, by when they were measured (a watch may send an older weigh-in later).
    public private(set) var measurements: [Measurement] = []
    /// Oldest first, by when they were measured.
    public private(set) var sites: [SiteMeasurement] = []
    /// Oldest first, by when they were taken.
    public private(set) var photos: [Photo] = []
    public var version: Int64 = 0

    public init() {}

    public mutating func evolve(_ event: LedgerEvent, at time: Timestamp) {
        switch event {
        case .bodyweightMeasured(let e):
            let m = Measurement(measurementId: e.measurementId, at: time, weight: e.weight)
            measurements.insert(m, at: measurements.firstIndex { $0.at > time } ?? measurements.endIndex)
        case .bodyMeasured(let e):
            let m = SiteMeasurement(measurementId: e.measurementId, at: time, site: e.site, measure: BodyMeasure(e.value, e.unit))
            sites.insert(m, at: sites.firstIndex { $0.at > time } ?? sites.endIndex)
        case .progressPhotoRecorded(let e):
            let p = Photo(photoId: e.photoId, at: time, pose: e.pose, sha256: e.sha256, byteCount: e.byteCount, path: e.path)
            photos.insert(p, at: photos.firstIndex { $0.at > time } ?? photos.endIndex)
        default: return
        }
        version += 1
    }

    /// Whether the event belongs to this state: the one list every fold that keeps the body reads.
    public static func changes(_ event: LedgerEvent) -> Bool {
        switch event {
        case .bodyweightMeasured, .bodyMeasured, .progressPhotoRecorded: true
        default: false
        }
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

extension BodyState.SiteMeasurement: PayloadRecord {
    public init() { self.init(measurementId: .zero, at: Timestamp(millis: 0), site: .waist, measure: BodyMeasure(0, .cm)) }
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("measurementId", &measurementId)
        try c.field("at", &at)
        try c.field("site", &site)
        try c.field("value", &measure.value)
        try c.field("unit", &measure.unit)
    }
}

extension BodyState.Photo: PayloadRecord {
    public init() { self.init(photoId: .zero, at: Timestamp(millis: 0), pose: .front, sha256: "", byteCount: 0, path: "") }
    public mutating func fields<C: PayloadCoder>(_ c: inout C) throws {
        try c.field("photoId", &photoId)
        try c.field("at", &at)
        try c.field("pose", &pose)
        try c.field("sha256", &sha256)
        try c.field("byteCount", &byteCount)
        try c.field("path", &path)
    }
}

extension BodyState: PayloadValue {
    public init(from r: inout BinaryReader) throws {
        self.init()
        measurements = try [Measurement](from: &r)
        sites = try [SiteMeasurement](from: &r)
        photos = try [Photo](from: &r)
        version = try Int64(from: &r)
    }

    public func encode(to w: inout BinaryWriter) {
        measurements.encode(to: &w)
        sites.encode(to: &w)
        photos.encode(to: &w)
        version.encode(to: &w)
    }

    public func writeJSON(to j: inout JSONWriter) { measurements.writeJSON(to: &j) }
}
