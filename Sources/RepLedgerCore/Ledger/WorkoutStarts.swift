import Foundation

/// A workout's start as the log recorded it.
public struct WorkoutStart: Sendable, Equatable {
    public var workoutId: UUID
    public var name: String
    public var startedAt: Timestamp
    /// The app an import brought it from (`strong`, `hevy`, `fitnotes`), nil for a workout logged here.
    public var importedFrom: ImportSource?
}

extension EventStore {
    /// Every workout's start, in log order, read through the type index (no
    /// fold): what recognising a re-saved import, finding a routine by name
    /// and dating the first training all read.
    public func workoutStarts() throws -> [WorkoutStart] {
        var starts: [WorkoutStart] = []
        try read(EventQuery(types: [WorkoutStarted.eventType.name])) { e in
            guard case .workoutStarted(let s) = e.event else { return }
            starts.append(WorkoutStart(workoutId: s.workoutId, name: s.name, startedAt: e.occurredAt, importedFrom: ImportSource(device: e.device)))
        }
        return starts
    }
}

extension ImportSource {
    /// The device an import from this source records its events under.
    public var device: String { Self.devicePrefix + rawValue }

    /// The source whose import recorded an event under this device, nil for any other device.
    public init?(device: String) {
        guard device.hasPrefix(Self.devicePrefix) else { return nil }
        self.init(rawValue: String(device.dropFirst(Self.devicePrefix.count)))
    }

    private static let devicePrefix = "import-"
}
