import Foundation

/// Watch samples and weigh-ins (DOMAIN.md §13, §15).
extension CommandSession {
    /// A heart-rate (bpm) or active-energy (kcal) sample from a watch, on the workout's stream.
    public mutating func recordHealthSample(
        _ workoutId: UUID, kind: HealthSampleKind, value: Double,
        historyEdit: Bool = false
    ) throws {
        _ = try writableWorkout(workoutId, historyEdit: historyEdit)
        try Invariants.check(sample: value, of: kind)
        var e = HealthSampleRecorded()
        e.workoutId = workoutId
        e.kind = kind
        e.value = value
        emit([.healthSampleRecorded(e)])
    }

    /// A weigh-in, as entered (validated by `BodyweightText.parse`).
    public mutating func logBodyweight(_ weight: Weight) throws -> UUID {
        try weight.validate()
        var e = BodyweightMeasured()
        e.measurementId = ids.next()
        e.weight = weight
        emit([.bodyweightMeasured(e)])
        return e.measurementId
    }

    /// Body measurements taken together (`body log --waist 82cm --arms 38cm …`): one event each.
    public mutating func logBodyMeasures(_ measures: [(site: BodySite, measure: BodyMeasure)]) throws -> [UUID] {
        guard Set(measures.map(\.site)).count == measures.count else { throw Refusal.invalidMeasure("a site given twice", reason: "give each once") }
        var events: [LedgerEvent] = []
        for (site, measure) in measures {
            try measure.check(site)
            var e = BodyMeasured()
            e.measurementId = ids.next()
            e.site = site
            e.value = measure.value
            e.unit = measure.unit
            events.append(.bodyMeasured(e))
        }
        emit(events)
        return events.compactMap { if case .bodyMeasured(let e) = $0 { e.measurementId } else { nil } }
    }

    /// A progress photo: its metadata only (the edge reads the file and hashes it).
    /// A photo with the bytes of one recorded already is refused.
    public mutating func recordProgressPhoto(
        path: String, sha256: String, byteCount: Int, pose: PhotoPose, body: BodyState
    ) throws -> UUID {
        if let known = body.photos.first(where: { $0.sha256 == sha256 }) {
            throw Refusal.invalidMeasure("the photo", reason: "recorded already on \(known.at.isoDate) (\(known.photoId.lowercased.prefix(8)))")
        }
        var e = ProgressPhotoRecorded()
        e.photoId = ids.next()
        e.pose = pose
        e.sha256 = sha256
        e.byteCount = byteCount
        e.path = path
        try Invariants.check(photo: e)
        emit([.progressPhotoRecorded(e)])
        return e.photoId
    }

    /// `settings bodyweight kg|lb|st`; refused as `nothingToChange` when the lifter already chose it
    /// (a first choice of the unit it shows in anyway is kept: later lifting-unit changes no longer move it).
    public mutating func setBodyweightDisplay(_ display: BodyweightDisplay) throws(Refusal) {
        guard !account.bodyweightDisplayChosen || account.bodyweightDisplay != display else { throw .nothingToChange }
        var e = BodyweightDisplayChanged()
        e.display = display
        emit([.bodyweightDisplayChanged(e)])
    }
}
