import Foundation
import LedgerTestSupport
import Testing

@testable import RepLedgerCore
@testable import RepLedgerProjections

@Suite("Volume (DOMAIN.md §5)")
struct VolumeTests {
    @Test("sets and tonnage by workout, ISO week and muscle; bodyweight adds a set and 0 kg")
    func grouping() throws {
        var b = LogBuilder()
        try b.workout("2026-11-01T07:00:00Z", sets: [working("barbell-bench-press", 100, 5), warmup("barbell-bench-press", 50, 5)])
        try b.workout("2026-11-02T07:00:00Z", sets: [working("pull-up", nil, 10), working("barbell-row", 80, 8)])
        let weeks = VolumeProjection.rows(b.log, by: .week)
        #expect(weeks.map(\.key) == ["2026-W44", "2026-W45"])  // Sunday 1 Nov is still week 44
        #expect(weeks.map(\.sets) == [1, 2])
        #expect(weeks.map(\.tonnageKg) == [500, 640])
        let muscles = Dictionary(uniqueKeysWithValues: VolumeProjection.rows(b.log, by: .muscle).map { ($0.key, $0) })
        #expect(muscles["chest"]?.sets == 1)
        #expect(muscles["chest"]?.tonnageKg == 500)
        #expect(muscles["lats"]?.sets == 1)  // pull-up: primary lats
        #expect(muscles["lats"]?.tonnageKg == 0)
        #expect(muscles["back"]?.sets == 1)  // row: primary back
        #expect(muscles["triceps"]?.sets == 0)
        #expect(muscles["triceps"]?.secondarySets == 1)  // bench press works triceps secondarily
        #expect(muscles["biceps"]?.secondarySets == 2)  // pull-up and row
        #expect(VolumeProjection.rows(b.log, by: .workout).map(\.sets) == [1, 2])
    }
}

@Suite("Entitlements and gating (DOMAIN.md §10)")
struct EntitlementTests {
    func state(_ b: LogBuilder, _ iso: String) -> EntitlementsProjection.State {
        EntitlementsProjection.state(b.log, at: .at(iso))
    }

    func buy(_ b: inout LogBuilder, _ product: Product, _ tx: String, original: String? = nil, from: String, to: String) throws {
        try b.run(from) {
            try $0.recordPurchase(
                product: product, transactionId: tx, originalTransactionId: original,
                purchasedAt: .at(from), expiresAt: .at(to))
        }
    }

    @Test("active from purchase up to, not including, expiry; renewals extend")
    func window() throws {
        var b = LogBuilder()
        try buy(&b, .proMonthly, "t1", from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z")
        #expect(!state(b, "2025-12-31T23:59:59Z").isPro)
        #expect(state(b, "2026-01-01T00:00:00Z").isPro)
        #expect(state(b, "2026-01-31T23:59:59Z").activeProducts == [.proMonthly])
        #expect(!state(b, "2026-02-01T00:00:00Z").isPro)  // expiry is exclusive
        try buy(&b, .proMonthly, "t2", original: "t1", from: "2026-02-01T00:00:00Z", to: "2026-03-01T00:00:00Z")
        #expect(state(b, "2026-02-01T00:00:00Z").isPro)
        #expect(state(b, "2026-02-01T00:00:00Z").templateLimit == nil)
    }

    @Test("a refund or revocation ends it from its own time on")
    func refund() throws {
        var b = LogBuilder()
        try buy(&b, .proAnnual, "t1", from: "2026-01-01T00:00:00Z", to: "2027-01-01T00:00:00Z")
        try b.run("2026-03-10T12:00:00Z") { try $0.refund(transactionId: "t1", at: .at("2026-03-10T12:00:00Z")) }
        #expect(state(b, "2026-03-10T11:59:59Z").isPro)
        #expect(!state(b, "2026-03-10T12:00:00Z").isPro)
        #expect(throws: Refusal.unknownTransaction("nope")) {
            try b.run("2026-03-11T00:00:00Z") { try $0.refund(transactionId: "nope", at: .at("2026-03-11T00:00:00Z")) }
        }
        try buy(&b, .coachMonthly, "c1", from: "2026-04-01T00:00:00Z", to: "2026-05-01T00:00:00Z")
        try b.run("2026-04-15T00:00:00Z") { try $0.revoke(transactionId: "c1", at: .at("2026-04-15T00:00:00Z"), reason: "family sharing") }
        #expect(state(b, "2026-04-14T00:00:00Z").isCoach)
        #expect(!state(b, "2026-04-15T00:00:00Z").isCoach)
    }

    @Test("Coach implies Pro")
    func coachImpliesPro() throws {
        var b = LogBuilder()
        try buy(&b, .coachAnnual, "c1", from: "2026-01-01T00:00:00Z", to: "2027-01-01T00:00:00Z")
        let s = state(b, "2026-06-01T00:00:00Z")
        #expect(s.isCoach && s.isPro)
        #expect(s.templateLimit == nil)
    }

    @Test("restoring purchases replays known transactions and changes nothing")
    func restore() throws {
        var b = LogBuilder()
        try buy(&b, .proMonthly, "t1", from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z")
        let before = b.session.pending.count
        try buy(&b, .proMonthly, "t1", from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z")
        try buy(&b, .proAnnual, "t1", from: "2026-01-01T00:00:00Z", to: "2027-02-01T00:00:00Z")  // same id, other details
        #expect(b.session.pending.count == before)
        #expect(state(b, "2026-06-01T00:00:00Z").activeProducts.isEmpty)
    }

    @Test("Free allows 3 templates; the 4th is refused naming Pro; Pro lifts it; made templates survive a lapse")
    func templateLimit() throws {
        var b = LogBuilder()
        for name in ["Push", "Pull", "Legs"] {
            try b.run("2026-01-05T07:00:00Z") { _ = try $0.createTemplate(name: name, exercises: ["deadlift"]) }
        }
        let before = b.session.pending.count
        #expect(throws: Refusal.templateLimit(limit: 3, products: [.proMonthly, .proAnnual])) {
            try b.run("2026-01-05T08:00:00Z") { _ = try $0.createTemplate(name: "Arms", exercises: []) }
        }
        #expect(throws: Refusal.self) {
            try b.run("2026-01-05T08:00:00Z") { _ = try $0.duplicateTemplate("Push") }
        }
        #expect(b.session.pending.count == before)
        #expect(Refusal.templateLimit(limit: 3, products: [.proMonthly, .proAnnual]).description.contains("repledger_pro_monthly"))

        try buy(&b, .proMonthly, "t1", from: "2026-01-06T00:00:00Z", to: "2026-02-06T00:00:00Z")
        try b.run("2026-01-07T00:00:00Z") { _ = try $0.createTemplate(name: "Arms", exercises: ["barbell-curl"]) }
        // After the lapse, the four stay; a fifth is refused again.
        #expect(TemplatesProjection.rows(b.log).map(\.name) == ["Push", "Pull", "Legs", "Arms"])
        #expect(throws: Refusal.self) {
            try b.run("2026-03-01T00:00:00Z") { _ = try $0.createTemplate(name: "Core", exercises: []) }
        }
        #expect(state(b, "2026-03-01T00:00:00Z").liveTemplates == 4)
        // Deleting one does not make room under the limit of 3: 3 are still live.
        try b.run("2026-03-02T00:00:00Z") { try $0.deleteTemplate("Arms") }
        #expect(throws: Refusal.self) {
            try b.run("2026-03-02T00:00:00Z") { _ = try $0.createTemplate(name: "Core", exercises: []) }
        }
    }

    @Test("logging never looks at entitlements; the upsell follows 3 completed workouts until dismissed")
    func upsell() throws {
        var b = LogBuilder()
        for day in 2...4 { try b.workout("2026-11-0\(day)T07:00:00Z", sets: [working("deadlift", 100, 5)]) }
        #expect(!state(b, "2026-11-04T07:00:00Z").softUpsell)  // the third finishes at 07:07
        #expect(state(b, "2026-11-04T08:00:00Z").softUpsell)
        b.run("2026-11-05T07:00:00Z") { $0.dismissUpsell() }
        #expect(state(b, "2026-11-04T08:00:00Z").softUpsell)  // as of before the dismissal
        #expect(!state(b, "2026-11-05T07:00:00Z").softUpsell)
    }

    @Test("templates keep their order, renames and last use")
    func templates() throws {
        var b = LogBuilder()
        var ids: [UUID] = []
        for name in ["A", "B", "C"] {
            try b.run("2026-01-05T07:00:00Z") { ids.append(try $0.createTemplate(name: name, exercises: ["back-squat"])) }
        }
        try b.run("2026-01-06T07:00:00Z") { try $0.reorderTemplates(["C", "A", "B"]) }
        try b.run("2026-01-06T07:01:00Z") { try $0.renameTemplate("A", to: "A2") }
        #expect(throws: Refusal.self) { try b.run("2026-01-06T07:02:00Z") { try $0.reorderTemplates(["C", "A2"]) } }
        var started: UUID?
        try b.run("2026-01-07T07:00:00Z") { started = try $0.startWorkout(fromTemplate: "B") }
        let rows = TemplatesProjection.rows(b.log)
        #expect(rows.map(\.name) == ["C", "A2", "B"])
        #expect(rows[2].lastUsedAt == .at("2026-01-07T07:00:00Z"))
        let startedId = try #require(started)
        let w = try #require(b.log.workouts[startedId])
        #expect(w.templateId == ids[1])
        #expect(w.sets.count == 3)  // three planned sets from the template line
        #expect(w.sets.allSatisfy { !$0.completed })
    }
}
