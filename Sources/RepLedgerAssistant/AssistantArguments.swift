import RepLedgerCore

/// A tool's arguments, read with the checks its input schema states: a wrong type or a value out of
/// range is an `invalidArgument` naming the argument, never a guess.
struct AssistantArguments {
    let values: [String: JSONValue]

    init(_ values: [String: JSONValue]) { self.values = values }

    private func present(_ name: String) -> JSONValue? {
        guard let v = values[name] else { return nil }
        if case .null = v { return nil }
        return v
    }

    func string(_ name: String, maxLength: Int = 200) throws(AssistantError) -> String? {
        guard let v = present(name) else { return nil }
        guard case .string(let s) = v else { throw .invalidArgument(name, "takes a string") }
        guard !s.trimmingCharacters(in: .whitespaces).isEmpty, s.count <= maxLength else {
            throw .invalidArgument(name, "takes 1 to \(maxLength) characters")
        }
        return s
    }

    func required(_ name: String, maxLength: Int = 200) throws(AssistantError) -> String {
        guard let s = try string(name, maxLength: maxLength) else { throw .invalidArgument(name, "is required") }
        return s
    }

    func number(_ name: String, in range: ClosedRange<Double>) throws(AssistantError) -> Double? {
        guard let v = present(name) else { return nil }
        let x: Double
        switch v {
        case .int(let i): x = Double(i)
        case .number(let d): x = d
        default: throw .invalidArgument(name, "takes a number from \(range.lowerBound.formatted) to \(range.upperBound.formatted)")
        }
        guard x.isFinite, range.contains(x) else {
            throw .invalidArgument(name, "takes a number from \(range.lowerBound.formatted) to \(range.upperBound.formatted)")
        }
        return x
    }

    /// A weight in kilograms (`weightKg`) or in pounds (`weightLb`, the lifter's unit kept as given), never both;
    /// `kilograms` bounds both, the pounds' bound being the same mass.
    func weight(in kilograms: ClosedRange<Double>) throws(AssistantError) -> Weight? {
        let kg = try number("weightKg", in: kilograms), lb = try number("weightLb", in: Self.pounds(kilograms))
        if kg != nil, lb != nil { throw .invalidArgument("weightLb", "goes instead of weightKg, not beside it") }
        return kg.map { Weight($0, .kg) } ?? lb.map { Weight($0, .lb) }
    }

    /// The whole pounds within a range of kilograms.
    static func pounds(_ kilograms: ClosedRange<Double>) -> ClosedRange<Double> {
        (kilograms.lowerBound / WeightUnit.kilogramsPerPound).rounded(.up)...(kilograms.upperBound / WeightUnit.kilogramsPerPound).rounded(.down)
    }

    func int(_ name: String, in range: ClosedRange<Int64>) throws(AssistantError) -> Int64? {
        guard let v = present(name) else { return nil }
        let i: Int64
        switch v {
        case .int(let n): i = n
        case .number(let d) where d.rounded() == d && abs(d) < 9e15: i = Int64(d)
        default: throw .invalidArgument(name, "takes a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        guard range.contains(i) else { throw .invalidArgument(name, "takes a whole number from \(range.lowerBound) to \(range.upperBound)") }
        return i
    }

    func bool(_ name: String) throws(AssistantError) -> Bool? {
        guard let v = present(name) else { return nil }
        guard case .bool(let b) = v else { throw .invalidArgument(name, "takes true or false") }
        return b
    }

    /// A list of strings (exercises of a superset): `count` of them, each of 1 to `maxLength` characters.
    func strings(_ name: String, count: ClosedRange<Int>, maxLength: Int = 200) throws(AssistantError) -> [String]? {
        guard let v = present(name) else { return nil }
        guard case .array(let items) = v, count.contains(items.count) else {
            throw .invalidArgument(name, "takes a list of \(count.lowerBound) to \(count.upperBound) names")
        }
        var out: [String] = []
        for item in items {
            guard case .string(let s) = item, !s.trimmingCharacters(in: .whitespaces).isEmpty, s.count <= maxLength else {
                throw .invalidArgument(name, "takes names of 1 to \(maxLength) characters")
            }
            out.append(s)
        }
        return out
    }

    /// A list of numbers (plate sizes): `count` of them, each in `range`.
    func numbers(_ name: String, count: ClosedRange<Int>, in range: ClosedRange<Double>) throws(AssistantError) -> [Double]? {
        guard let v = present(name) else { return nil }
        let refusal = AssistantError.invalidArgument(
            name,
            "takes a list of \(count.lowerBound) to \(count.upperBound) numbers from \(range.lowerBound.formatted) to \(range.upperBound.formatted)")
        guard case .array(let items) = v, count.contains(items.count) else { throw refusal }
        var out: [Double] = []
        for item in items {
            switch item {
            case .int(let i) where range.contains(Double(i)): out.append(Double(i))
            case .number(let d) where d.isFinite && range.contains(d): out.append(d)
            default: throw refusal
            }
        }
        return out
    }

    /// One of `choices`, as the schema's enum lists them.
    func choice(_ name: String, _ choices: [String]) throws(AssistantError) -> String? {
        guard let s = try string(name) else { return nil }
        guard choices.contains(s) else { throw .invalidArgument(name, "takes one of \(choices.joined(separator: ", "))") }
        return s
    }

    /// Arguments the tool does not take are refused: a misspelt optional argument must not pass as absent.
    func onlyKnown(_ names: Set<String>) throws(AssistantError) {
        if let unknown = values.keys.sorted().first(where: { !names.contains($0) }) {
            throw .invalidArgument(unknown, "is not an argument of this tool")
        }
    }
}

extension ClosedRange where Bound == Int {
    /// The range as JSON integers are read (a bound declared once for every front door, in `Int`).
    var wide: ClosedRange<Int64> { Int64(lowerBound)...Int64(upperBound) }
}
