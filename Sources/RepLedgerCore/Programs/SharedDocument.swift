import Foundation

/// A template or a program as a file to share (`template export`, `program
/// export`): its content and the SHA-256 of that content, so an edit made
/// after sharing is seen on import, and the same document imported twice is
/// known by its hash. The hash is over the content with every object's keys
/// sorted, so a tool that reorders keys or reflows whitespace changes nothing.
public struct SharedDocument: Sendable {
    public enum Kind: String, Sendable, CaseIterable, PayloadEnum {
        case template, program
    }

    public static let version = 1
    public var kind: Kind
    public var content: JSONValue
    /// Lowercase hex SHA-256 of the canonical content.
    public var hash: String

    public init(kind: Kind, content: JSONValue) {
        self.kind = kind
        self.content = content
        hash = Self.hash(content)
    }

    /// The file: `{"repledger":KIND,"version":1,"sha256":HEX,"content":{…}}`.
    public var document: JSONValue {
        .object([("repledger", .string(kind.rawValue)), ("version", .int(Int64(Self.version))), ("sha256", .string(hash)), ("content", content)])
    }

    /// Reads a shared file of `kind`; refused when it is not one, or when its content no longer matches its hash.
    public static func read(_ text: String, as kind: Kind) throws(Refusal) -> SharedDocument {
        let parsed: JSONValue
        do { parsed = try JSONReader.parse(text) } catch { throw .invalidDocument("it is not JSON (\(error.description))") }
        guard case .object(let fields) = parsed else { throw .invalidDocument("it is not a RepLedger \(kind.rawValue) document") }
        let field = { (name: String) in fields.first { $0.0 == name }?.1 }
        guard case .string(let k)? = field("repledger"), let found = Kind(rawValue: k) else {
            throw .invalidDocument("it is not a RepLedger \(kind.rawValue) document")
        }
        guard found == kind else {
            throw .wrongDocumentKind(found: found.rawValue, expected: kind.rawValue)
        }
        guard case .int(let v)? = field("version"), v == Int64(version) else {
            throw .invalidDocument("its version is not \(version), the one this ledger reads")
        }
        guard case .string(let claimed)? = field("sha256"), let content = field("content"), case .object = content else {
            throw .invalidDocument("it lacks its content or its sha256")
        }
        let doc = SharedDocument(kind: kind, content: content)
        guard doc.hash == claimed.lowercased() else {
            throw .invalidDocument("it was edited after it was shared: its content no longer matches its sha256")
        }
        return doc
    }

    static func hash(_ v: JSONValue) -> String { Digest.sha256(Array(canonical(v).rendered.utf8)).hex }

    static func canonical(_ v: JSONValue) -> JSONValue {
        switch v {
        case .object(let pairs): .object(pairs.map { ($0.0, canonical($0.1)) }.sorted { $0.0 < $1.0 })
        case .array(let items): .array(items.map(canonical))
        default: v
        }
    }
}

/// What a shared template or program holds, written and read field by field.
public enum SharedContent {
    /// A line with its targets and its exercise's name (for a ledger that knows the exercise under another id).
    public static func line(_ l: TemplateExercise, name: String) -> JSONValue {
        .object([
            ("exerciseId", .string(l.exerciseId)), ("exercise", .string(name)), ("sets", .int(Int64(l.sets))),
            ("repsMin", .optional(l.repsMin)), ("repsMax", .optional(l.repsMax)), ("durationSeconds", .optional(l.durationSeconds)),
            ("weight", l.weight.map { .object([("value", .number($0.value)), ("unit", .string($0.unit.rawValue))]) } ?? .null),
            ("restSeconds", .optional(l.restSeconds)),
        ])
    }

    /// A shared line: its exercise as named in the document (id and name), and its targets.
    public struct Line: Sendable {
        public var exerciseId: String
        public var name: String
        public var targets: TemplateExercise
    }

    public static func template(_ t: TemplateCatalogState.Template, library: LibraryState) -> JSONValue {
        .object([
            ("name", .string(t.name)),
            ("lines", .array(t.exercises.map { line($0, name: library.name(of: $0.exerciseId)) })),
            (
                "modules",
                .array(
                    t.modules.map { m in
                        .object([
                            ("name", .string(m.name)), ("type", .string(m.type.rawValue)),
                            ("exerciseIds", .array(m.exerciseIds.map(JSONValue.string))),
                        ])
                    })
            ),
        ])
    }

    /// A program with its days, holds and modules; its planned weeks (kind and length: the importer's block starts
    /// the day it is imported) and percentage targets only when it has them, so a document of a program without
    /// them reads as it did before they existed.
    public static func program(_ p: ProgramCatalogState.Program, library: LibraryState) -> JSONValue {
        let weeks: [(String, JSONValue)] =
            p.block.map { b in
                [("weeks", .object([("kind", .string(b.kind.rawValue)), ("weeks", .int(Int64(b.weeks)))]))]
            } ?? []
        return .object(
            weeks + [
                ("split", .string(p.generated.split)), ("seed", .string(String(p.generated.seed))),
                (
                    "sessions",
                    .array(
                        p.generated.sessions.enumerated().map { i, s in
                            .object([
                                ("name", .string(s.name)),
                                (
                                    "exercises",
                                    .array(
                                        s.exercises.map { x in
                                            let hold = p.hold(session: i, exerciseId: x.exerciseId)
                                            let percent: [(String, JSONValue)] =
                                                p.percentTarget(session: i, exerciseId: x.exerciseId).map { t in
                                                    [("percentOfMax", .optional(t.percent)), ("percentOf", .optional(t.of?.rawValue))]
                                                } ?? []
                                            return .object(
                                                [
                                                    ("exerciseId", .string(x.exerciseId)), ("exercise", .string(library.name(of: x.exerciseId))),
                                                    ("sets", .int(Int64(x.sets))), ("repsMin", .int(Int64(x.repsMin))),
                                                    ("repsMax", .int(Int64(x.repsMax))),
                                                    ("restSeconds", .int(Int64(x.restSeconds))), ("injuryWarning", .bool(x.injuryWarning)),
                                                    ("holdSecondsMin", .optional(hold?.secondsMin)), ("holdSecondsMax", .optional(hold?.secondsMax)),
                                                ] + percent)
                                        })
                                ),
                                (
                                    "modules",
                                    .array(
                                        p.modules(day: i).map { m in
                                            .object([
                                                ("name", .string(m.name)), ("type", .string(m.type.rawValue)),
                                                ("lines", .array(m.lines.map { line($0.exercise, name: library.name(of: $0.exercise.exerciseId)) })),
                                            ])
                                        })
                                ),
                            ])
                        })
                ),
            ])
    }

    // MARK: Reading

    /// Fields of a content object, refusing what a document of this ledger never holds.
    struct Fields {
        let pairs: [(String, JSONValue)]
        let at: String
        init(_ v: JSONValue, at: String) throws(Refusal) {
            guard case .object(let p) = v else { throw .invalidDocument("\(at) is not an object") }
            pairs = p
            self.at = at
        }
        func value(_ k: String) -> JSONValue? { pairs.first { $0.0 == k }?.1 }
        func string(_ k: String) throws(Refusal) -> String {
            guard case .string(let s)? = value(k) else { throw .invalidDocument("\(at) lacks its \(k)") }
            return s
        }
        func int(_ k: String) throws(Refusal) -> Int? {
            switch value(k) {
            case nil, .null?: return nil
            case .int(let i)?: return Int(exactly: i)
            default: throw .invalidDocument("\(at)'s \(k) is not a whole number")
            }
        }
        func number(_ k: String) throws(Refusal) -> Double? {
            switch value(k) {
            case nil, .null?: return nil
            case .int(let i)?: return Double(i)
            case .number(let d)?: return d
            default: throw .invalidDocument("\(at)'s \(k) is not a number")
            }
        }
        func array(_ k: String) throws(Refusal) -> [JSONValue] {
            switch value(k) {
            case nil, .null?: return []
            case .array(let a)?: return a
            default: throw .invalidDocument("\(at)'s \(k) is not a list")
            }
        }
    }

    static func readLine(_ v: JSONValue, at: String) throws(Refusal) -> Line {
        let f = try Fields(v, at: at)
        var t = TemplateExercise(exerciseId: try f.string("exerciseId"))
        t.sets = try f.int("sets") ?? 3
        t.repsMin = try f.int("repsMin")
        t.repsMax = try f.int("repsMax")
        t.durationSeconds = try f.number("durationSeconds")
        t.restSeconds = try f.int("restSeconds")
        if let w = f.value("weight"), w != .null {
            let wf = try Fields(w, at: "\(at)'s weight")
            guard let value = try wf.number("value"), let unit = WeightUnit(rawValue: try wf.string("unit")) else {
                throw .invalidDocument("\(at)'s weight needs a value and a unit")
            }
            t.weight = Weight(value, unit)
        }
        return Line(exerciseId: t.exerciseId, name: try f.string("exercise"), targets: t)
    }

    static func moduleType(_ text: String, at: String) throws(Refusal) -> ModuleType {
        guard let t = ModuleType(rawValue: text) else { throw .invalidDocument("\(at) has an unknown module type '\(text)'") }
        return t
    }
}
