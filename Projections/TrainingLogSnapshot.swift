import Foundation
import RepLedgerCore

/// The fold's state in the compact binary codec, for snapshots. Workouts are
/// written in id order so the same state always gives the same bytes.
extension TrainingLogProjection {
    public var snapshotBytes: [UInt8] {
        var w = BinaryWriter(capacity: 256 + workouts.count * 1024)
        position.encode(to: &w)
        library.encode(to: &w)
        account.encode(to: &w)
        templates.encode(to: &w)
        body.encode(to: &w)
        programs.encode(to: &w)
        let ordered = workouts.values.sorted { $0.workoutId.uuidKey < $1.workoutId.uuidKey }
        ordered.encode(to: &w)
        return w.bytes
    }

    public init(snapshot bytes: [UInt8]) throws {
        self.init()
        try bytes.withUnsafeBytes { raw in
            var r = BinaryReader(raw)
            position = try Int64(from: &r)
            library = try LibraryState(from: &r)
            account = try AccountState(from: &r)
            templates = try TemplateCatalogState(from: &r)
            body = try BodyState(from: &r)
            programs = try ProgramCatalogState(from: &r)
            let list = try [WorkoutState](from: &r)
            workouts.reserveCapacity(list.count)
            for w in list { workouts[w.workoutId] = w }
            guard r.isAtEnd else { throw CodecError.trailingBytes(type: Self.name, count: r.remaining) }
        }
        rebuildOrder()
    }
}

extension UUID {
    /// The id as two big-endian integers: byte order, cheap to compare.
    var uuidKey: (UInt64, UInt64) {
        withUnsafeBytes(of: uuid) {
            (UInt64(bigEndian: $0.loadUnaligned(as: UInt64.self)), UInt64(bigEndian: $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
        }
    }
}
