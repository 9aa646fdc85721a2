/// The body of a push (SERVER.md §3 "Appending") as a device writes it:
/// `{"events":[{"eventId","stream","type","schema","occurredAt","causationId","correlationId","payload"}…]}`,
/// payloads in canonical JSON. The server reads this order in place
/// (`EventBatch`); the device named in the events is not sent (the token's counts).
public enum PushBatchJSON {
    public static func write(_ events: [ProposedEvent]) -> String {
        var j = JSONWriter()
        j.beginObject()
        j.key("events")
        j.beginArray()
        for e in events {
            j.beginObject()
            j.key("eventId"); j.string(e.eventId.lowercased)
            j.key("stream"); j.string(e.event.stream.raw)
            j.key("type"); j.string(e.event.eventType.name)
            j.key("schema"); j.int(Int64(e.event.eventType.schema))
            j.key("occurredAt"); j.string(e.occurredAt.iso8601)
            j.key("causationId"); e.causationId.writeJSON(to: &j)
            j.key("correlationId"); e.correlationId.writeJSON(to: &j)
            j.key("payload"); e.event.payload.writeJSON(to: &j)
            j.endObject()
        }
        j.endArray()
        j.endObject()
        return j.string
    }
}
