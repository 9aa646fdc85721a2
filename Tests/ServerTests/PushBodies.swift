import Foundation

/// Hand-built push bodies (SERVER-CONTRACT.md §3 "Appending"), for the refusals a
/// well-behaved device never sends.
enum PushBodies {
    static func event(
        _ type: String, stream: String, payload: String, at: String = "2026-11-02T10:00:00.000Z",
        id: UUID = UUID(), schema: Int = 1
    ) -> String {
        #"{"eventId":"\#(id.uuidString.lowercased())","stream":"\#(stream)","type":"\#(type)","schema":\#(schema),"occurredAt":"\#(at)","payload":\#(payload)}"#
    }

    static func batch(_ events: [String], expected: String? = nil) -> String {
        #"{"events":[\#(events.joined(separator: ","))]\#(expected.map { #","expectedVersions":\#($0)"# } ?? "")}"#
    }

    static func started(_ w: UUID, name: String = "Push", at: String = "2026-11-02T10:00:00.000Z", id: UUID = UUID()) -> String {
        let s = w.uuidString.lowercased()
        return event(
            "WorkoutStarted", stream: "workout-\(s)",
            payload: #"{"workoutId":"\#(s)","name":"\#(name)","origin":"empty","templateId":null,"programId":null,"programDayIndex":null}"#,
            at: at, id: id)
    }

    static func discarded(_ w: UUID) -> String {
        let s = w.uuidString.lowercased()
        return event("WorkoutDiscarded", stream: "workout-\(s)", payload: #"{"workoutId":"\#(s)"}"#, at: "2026-11-02T10:30:00.000Z")
    }

    static func set(_ w: UUID, reps: Int = 8, kg: Double = 80, at: String = "2026-11-02T10:05:00.000Z", id: UUID = UUID()) -> String {
        let s = w.uuidString.lowercased()
        return event(
            "SetLogged", stream: "workout-\(s)",
            payload: #"""
                {"workoutId":"\#(s)","setId":"\#(UUID().uuidString.lowercased())","entryId":"\#(UUID().uuidString.lowercased())","exerciseId":"barbell-bench-press","type":"normal","metrics":{"weight":{"value":\#(kg),"unit":"kg"},"reps":\#(reps),"rpe":null,"durationSeconds":null,"distanceMeters":null},"notes":null,"historyEdit":false}
                """#, at: at, id: id)
    }

    static func template(_ name: String, at: String = "2026-11-02T09:00:00.000Z", id: UUID = UUID()) -> String {
        let t = UUID().uuidString.lowercased()
        return event(
            "TemplateCreated", stream: "template-\(t)", payload: #"{"templateId":"\#(t)","name":"\#(name)","exercises":[]}"#, at: at, id: id)
    }
}
