import Foundation
import RepLedgerCore
import Testing

/// The DocC catalog kept true by the code: its event catalog is generated from
/// `EventCatalog` and the stored fixtures, and every code sample in it (and in
/// the kit's doc comments) is one that `DocumentationSamples` compiles and runs.
@Suite struct DocumentationTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let catalog = root.appendingPathComponent("Sources/RepLedgerKit/RepLedgerKit.docc")
    static let eventCatalog = catalog.appendingPathComponent("EventCatalog.md")

    @Test func theEventCatalogArticleIsTheOneTheCodeGenerates() throws {
        let generated = try Self.eventCatalogArticle()
        if ProcessInfo.processInfo.environment["REPLEDGER_WRITE_DOCS"] == "1" {
            try generated.write(to: Self.eventCatalog, atomically: true, encoding: .utf8)
        }
        let stored = try String(contentsOf: Self.eventCatalog, encoding: .utf8)
        let (old, new) = (
            stored.split(separator: "\n", omittingEmptySubsequences: false), generated.split(separator: "\n", omittingEmptySubsequences: false)
        )
        let firstDifference = zip(old, new).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(old.count, new.count)
        let current = stored == generated
        #expect(
            current,
            "EventCatalog.md is stale from line \(firstDifference + 1) (\(new.indices.contains(firstDifference) ? new[firstDifference] : "its end")); REPLEDGER_WRITE_DOCS=1 swift test --filter DocumentationTests writes it again"
        )
    }

    @Test func everySwiftSampleInTheCatalogAndTheDocCommentsIsCompiledByTheSamples() throws {
        let samples = Self.normalized(
            try String(contentsOf: Self.root.appendingPathComponent("Tests/RepLedgerKitTests/DocumentationSamples.swift"), encoding: .utf8))
        var blocks: [(String, String)] = []
        let fm = FileManager.default
        for name in try fm.contentsOfDirectory(atPath: Self.catalog.path) where name.hasSuffix(".md") {
            let text = try String(contentsOf: Self.catalog.appendingPathComponent(name), encoding: .utf8)
            blocks += Self.swiftBlocks(text).map { (name, $0) }
        }
        let sources = Self.root.appendingPathComponent("Sources/RepLedgerKit")
        for name in try fm.contentsOfDirectory(atPath: sources.path) where name.hasSuffix(".swift") {
            let text = try String(contentsOf: sources.appendingPathComponent(name), encoding: .utf8)
            let comments = text.split(separator: "\n", omittingEmptySubsequences: false)
                .compactMap { line -> String? in
                    let t = line.trimmingCharacters(in: .whitespaces)
                    return t.hasPrefix("///") ? String(t.dropFirst(3)) : nil
                }
            blocks += Self.swiftBlocks(comments.joined(separator: "\n")).map { (name, $0) }
        }
        #expect(blocks.count >= 8, "the catalog shows its samples")
        for (file, block) in blocks {
            #expect(samples.contains(Self.normalized(block)), "a sample in \(file) is not in DocumentationSamples.swift:\n\(block)")
        }
    }

    /// The contents of each fenced `swift` block.
    static func swiftBlocks(_ text: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let t = line.trimmingCharacters(in: .whitespaces)
            if current == nil, t == "```swift" {
                current = []
            } else if current != nil, t == "```" {
                blocks.append(current!.joined(separator: "\n"))
                current = nil
            } else if current != nil {
                current!.append(line)
            }
        }
        return blocks
    }

    /// Lines trimmed, blank ones dropped: indentation is the article's, not the code's.
    static func normalized(_ text: String) -> String {
        text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: "\n")
    }

    /// Every event type: its code, schema, stream and fields from `EventCatalog`, and the stored
    /// fixture logs (`Tests/RepLedgerCoreTests/Fixtures`) that hold it under each schema.
    static func eventCatalogArticle() throws -> String {
        let fixtures = root.appendingPathComponent("Tests/RepLedgerCoreTests/Fixtures")
        var stored: [String: [Int: [Int]]] = [:]  // type → schema → fixture releases
        let names = try FileManager.default.contentsOfDirectory(atPath: fixtures.path).filter { $0.hasSuffix("-log.jsonl") }
        let releases = names.compactMap { Int($0.dropFirst().prefix { $0.isNumber }) }.sorted()
        for release in releases {
            let text = try String(contentsOf: fixtures.appendingPathComponent("v\(release)-log.jsonl"), encoding: .utf8)
            for line in text.split(separator: "\n") {
                guard case .object(let fields) = try JSONReader.parse(String(line)),
                    case .string(let type)? = fields.first(where: { $0.0 == "type" })?.1,
                    case .int(let schema)? = fields.first(where: { $0.0 == "schema" })?.1
                else { continue }
                if stored[type, default: [:]][Int(schema), default: []].last != release {
                    stored[type, default: [:]][Int(schema), default: []].append(release)
                }
            }
        }
        var out = """
            # Event Catalog

            Every event a ledger stores, with its schemas, its stream and its fields.

            ## Overview

            This article is generated from `EventCatalog.entries` and the stored fixture logs
            (`Tests/RepLedgerCoreTests/Fixtures`), whose bytes never change; a test fails when
            it differs from what the code generates, so it cannot drift.

            An event is stored as its type's **code** (never reused), its **schema** (the payload's
            layout) and the payload's fields in the order below. A schema change adds a version and an
            upcaster that reads every older one; the fixture logs of each release are read back in the
            tests, so an old log stays readable. A field's type is its Swift type; `Optional` fields
            may be absent, and the canonical JSON (`ledger log --json`, `ledger export jsonl`) names
            each field as here.

            Streams: `workout-<id>`, `template-<id>` and `import-<id>` are one per workout, template
            and import; the others are one per ledger.

            | Event | Code | Schema | Stream | Stored in fixtures |
            | --- | --- | --- | --- | --- |

            """
        let zero = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)).lowercased
        let entries = EventCatalog.entries.sorted { $0.type.code < $1.type.code }
        func stream(_ e: EventCatalog.Entry) -> String { e.streamShape.raw.replacingOccurrences(of: zero, with: "<id>") }
        func storedIn(_ name: String) -> String {
            guard let schemas = stored[name] else { return "none yet" }
            return schemas.keys.sorted().map { schema in
                let releases = schemas[schema]!
                let span = releases.count == 1 ? "v\(releases[0])" : "v\(releases.first!)–v\(releases.last!)"
                return "schema \(schema) in \(span)"
            }.joined(separator: "; ")
        }
        for e in entries {
            out += "| `\(e.type.name)` | \(e.type.code) | \(e.type.schema) | `\(stream(e))` | \(storedIn(e.type.name)) |\n"
        }
        out += "\n## Fields\n"
        for e in entries {
            out += "\n### \(e.type.name)\n\nCode \(e.type.code), schema \(e.type.schema), stream `\(stream(e))`."
            let past = (1..<max(1, e.type.schema)).map(String.init)
            out += past.isEmpty ? " No earlier schema.\n\n" : " Earlier schemas, read by its upcaster: \(past.joined(separator: ", ")).\n\n"
            out += "| Field | Type |\n| --- | --- |\n"
            for f in e.fields { out += "| `\(f.name)` | `\(f.type)` |\n" }
        }
        return out
    }
}
