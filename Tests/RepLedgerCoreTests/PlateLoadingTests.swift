import Testing

@testable import RepLedgerCore

/// `PlateLoading`: the plates a side for a weight, or the nearest loadable weights.
@Suite("Plate loading")
struct PlateLoadingTests {
    func total(_ l: PlateLoading.Load, bar: Double) -> Double { bar + 2 * l.perSide.reduce(0) { $0 + $1.plate * Double($1.count) } }

    @Test("standard kg and lb loads: the fewest plates, heaviest first")
    func standardLoads() throws {
        let kg = try PlateLoading.load(102.5, unit: .kg, bar: 20, plates: PlateLoading.defaultPlates(.kg))
        #expect(kg.exact?.perSide == [.init(plate: 25, count: 1), .init(plate: 15, count: 1), .init(plate: 1.25, count: 1)])
        #expect(kg.below == nil && kg.above == nil)
        let lb = try PlateLoading.load(315, unit: .lb, bar: 45, plates: PlateLoading.defaultPlates(.lb))
        #expect(lb.exact?.perSide == [.init(plate: 45, count: 3)])
        #expect(try PlateLoading.load(20, unit: .kg, bar: 20, plates: [25]).exact?.perSide == [])
    }

    @Test("a weight the plates cannot make gives the nearest below and above")
    func nearest() throws {
        let p = try PlateLoading.load(101, unit: .kg, bar: 20, plates: PlateLoading.defaultPlates(.kg))
        #expect(p.exact == nil)
        #expect(p.below?.total == 100 && p.above?.total == 102.5)
        let light = try PlateLoading.load(15, unit: .kg, bar: 20, plates: PlateLoading.defaultPlates(.kg))
        #expect(light.below == nil && light.above == .init(total: 20, perSide: []))
    }

    @Test("plates that greedy choice would miss: 100 kg from 15s and 10s is 15 + 15 + 10 a side")
    func notGreedy() throws {
        let p = try PlateLoading.load(100, unit: .kg, bar: 20, plates: [15, 10])
        #expect(p.exact?.perSide == [.init(plate: 15, count: 2), .init(plate: 10, count: 1)])
    }

    @Test("every weight from 0 to 300 kg in 0.25 kg steps: loads add up, and nearest loads bracket the weight")
    func sweep() throws {
        for quarter in 0...1200 {
            let w = Double(quarter) / 4
            let p = try PlateLoading.load(w, unit: .kg, bar: 20, plates: PlateLoading.defaultPlates(.kg))
            if let exact = p.exact {
                #expect(exact.total == w && total(exact, bar: 20) == w)
                continue
            }
            let below = p.below, above = try #require(p.above)
            #expect(above.total > w && total(above, bar: 20) == above.total)
            if let below { #expect(below.total < w && total(below, bar: 20) == below.total) } else { #expect(w < 20) }
            // Nothing loadable lies strictly between them: the steps are 2.5 kg above the bar.
            #expect(above.total - (below?.total ?? 20) <= 2.5)
        }
    }

    @Test("plates that are not weights are refused", arguments: [[0.0], [], [-5], [1.0001]])
    func badPlates(plates: [Double]) {
        #expect(throws: Refusal.self) { try PlateLoading.load(100, unit: .kg, bar: 20, plates: plates) }
    }
}
