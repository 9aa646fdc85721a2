extension EventEnvelope {
    /// The canonical JSON line of `ledger log`, export and audit:
    /// `{"position","eventId","stream","version","type","schema","occurredAt",
    /// "recordedAt","device","causationId","correlationId","payload","hash"}`.
    /// Same event, same bytes, on every machine and run.
    public var canonicalJSON: String {
        var j = JSONWriter()
        j.beginObject()
        j.key("position"); j.int(position)
        j.key("eventId"); j.string(eventId.lowercased)
        j.key("stream"); j.string(stream.raw)
        j.key("version"); j.int(version)
        j.key("type"); j.string(type.name)
        j.key("schema"); j.int(Int64(type.schema))
        j.key("occurredAt"); j.string(occurredAt.iso8601)
        j.key("recordedAt"); j.string(recordedAt.iso8601)
        j.key("device"); j.string(device)
        j.key("causationId"); causationId.writeJSON(to: &j)
        j.key("correlationId"); correlationId.writeJSON(to: &j)
        j.key("payload"); event.payload.writeJSON(to: &j)
        j.key("hash"); j.string(hash.hex)
        j.endObject()
        return j.string
    }
}
