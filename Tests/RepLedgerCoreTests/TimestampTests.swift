import Testing

@testable import RepLedgerCore

@Suite("Timestamps")
struct TimestampTests {
    @Test(
        "ISO 8601 round trips keep the offset",
        arguments: [
            "2026-11-02T07:30:00+01:00", "2026-03-29T01:59:59.999Z", "1999-12-31T23:00:00-05:30", "2024-02-29T12:00:00+14:00",
        ])
    func roundTrip(text: String) throws {
        let t = try #require(Timestamp.parseISO8601(text, defaultOffsetMinutes: 0))
        #expect(t.iso8601 == text)
    }

    @Test("zones, bare dates and the default offset")
    func parsing() throws {
        let utc = try #require(Timestamp.parseISO8601("2026-11-02T06:30:00Z", defaultOffsetMinutes: 0))
        let cet = try #require(Timestamp.parseISO8601("2026-11-02T07:30:00+0100", defaultOffsetMinutes: 0))
        #expect(utc.millis == cet.millis)
        let local = try #require(Timestamp.parseISO8601("2026-11-02T07:30", defaultOffsetMinutes: 60))
        #expect(local.millis == utc.millis)
        let day = try #require(Timestamp.parseISO8601("2026-11-02", defaultOffsetMinutes: -300))
        #expect(day.iso8601 == "2026-11-02T00:00:00-05:00")
        #expect(utc.millis == 1_793_601_000_000)
    }

    @Test(
        "impossible dates and junk are rejected",
        arguments: [
            "2026-02-29", "2026-13-01", "2026-11-31", "2026-11-02T24:00", "2026-11-02T07:30:00+01:00x", "yesterday", "",
            "2026-11-02T07:30:00.Z",
        ])
    func rejects(text: String) {
        #expect(Timestamp.parseISO8601(text, defaultOffsetMinutes: 0) == nil)
    }

    @Test("the local calendar day and weekday follow the stored offset")
    func localFields() throws {
        // 23:30 UTC on a Sunday is already Monday in Berlin.
        let t = try #require(Timestamp.parseISO8601("2026-11-01T23:30:00Z", defaultOffsetMinutes: 0))
        let berlin = Timestamp(millis: t.millis, offsetMinutes: 60)
        #expect(t.isoDate == "2026-11-01")
        #expect(t.local.isoWeekday == 7)
        #expect(berlin.isoDate == "2026-11-02")
        #expect(berlin.local.isoWeekday == 1)
    }
}
