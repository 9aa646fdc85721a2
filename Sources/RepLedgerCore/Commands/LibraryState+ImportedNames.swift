import Foundation

extension LibraryState {
    /// The library's exercise for a name another app wrote, when the library
    /// has it under another name: its whole name, an alias of it (the
    /// exercise database's name, `ohp`), or the app's "Name (Equipment)" as
    /// the library writes it ("Shrug (Dumbbell)" is Dumbbell Shrug,
    /// "Concentration Curl (Dumbbell)" is Concentration Curls) when that
    /// exercise uses that equipment. Nothing looser: a wrong match would put
    /// a lifter's sets under an exercise they never did, where a custom
    /// exercise can still be merged by hand (`exercise merge`).
    public func importMatch(_ name: String) -> Exercise? {
        if let x = exactMatch(name) { return x.archived ? nil : x }
        let key = name.trimmingSpaces().lowercased()
        if let id = ExerciseLibrary.exercise(forAlias: key), let x = exercises[id], !x.archived { return x }
        guard let open = key.lastIndex(of: "("), key.hasSuffix(")") else { return nil }
        let base = String(key[..<open]).trimmingSpaces()
        let written = String(key[key.index(after: open)..<key.index(before: key.endIndex)]).trimmingSpaces()
        guard let equipment = Equipment.allCases.first(where: { $0.rawValue.lowercased() == written.filter { $0 != " " } }), !base.isEmpty else {
            return nil
        }
        let wanted = [Self.wordKey("\(written) \(base)"), Self.wordKey(base)]
        let found = order.lazy.compactMap { exercises[$0] }.filter { x in
            !x.archived && x.definition.equipment.contains(equipment) && wanted.contains(Self.wordKey(x.name.lowercased()))
        }
        return found.first
    }

    /// A name's words, each without a plural's final "s": "dumbbell lunges" and "lunge dumbbell" differ, "curl" and "curls" do not.
    private static func wordKey(_ lowercased: String) -> [Substring] {
        lowercased.split { !($0.isLetter || $0.isNumber) }.map { w in w.count > 3 && w.hasSuffix("s") && !w.hasSuffix("ss") ? w.dropLast() : w }
    }
}
