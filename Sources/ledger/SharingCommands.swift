import ArgumentParser
import Foundation
import LedgerShell
import RepLedgerCore

/// Writing and reading shared template and program documents (`export FILE`, `import FILE`).
enum SharingText {
    static func write(_ doc: SharedDocument, to path: String, global: GlobalOptions, id: String, name: String) throws {
        do { try (doc.document.rendered + "\n").write(toFile: path, atomically: true, encoding: .utf8) } catch {
            throw ValidationError("cannot write \(path): \(error.localizedDescription)")
        }
        if global.json {
            return Console.json(
                .object([("kind", .string(doc.kind.rawValue)), ("id", .string(id)), ("file", .string(path)), ("sha256", .string(doc.hash))]))
        }
        Console.out("Wrote \(doc.kind.rawValue) \(name) to \(path) (sha256 \(doc.hash.prefix(12)))")
    }

    static func read(_ path: String, as kind: SharedDocument.Kind) throws -> SharedDocument {
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw ValidationError("cannot read \(path): \(error.localizedDescription)")
        }
        return try SharedDocument.read(text, as: kind)
    }

    /// Imports a document; the same one again answers with what it made and appends nothing.
    static func importing(_ doc: SharedDocument, global: GlobalOptions, at: AtOption, _ run: (inout CommandSession) throws -> UUID) throws {
        let ledger = try global.openLedger()
        var made: UUID?
        let recorded = try settle(ledger, at: try at.time()) { made = try run(&$0) }
        let id = try made ?? ledger.programs().importedId(of: doc)
        if global.json {
            return Console.json(
                .object([
                    ("kind", .string(doc.kind.rawValue)), ("id", .optional(id?.lowercased)), ("sha256", .string(doc.hash)),
                    ("imported", .bool(recorded)),
                ]))
        }
        let short = id.map { String($0.lowercased.prefix(8)) } ?? "?"
        Console.out(
            recorded
                ? "Imported \(doc.kind.rawValue) \(short) from a document with sha256 \(doc.hash.prefix(12))"
                : "Already imported as \(doc.kind.rawValue) \(short); nothing to change")
    }
}

extension TemplateCommand {
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export", abstract: "Write a template to a file to share, signed by its SHA-256 → {\"kind\",\"id\",\"file\",\"sha256\"}.",
            discussion: "Example: ledger template export \"Upper A\" upper-a.json")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The template: a name, an id or a unique prefix.") var template: String
        @Argument(help: "The file to write.") var file: String

        func run() throws {
            let ledger = Ledger(store: try global.openReadOnly())
            let t = try ledger.templates().resolve(template)
            let doc = SharedDocument(kind: .template, content: SharedContent.template(t, library: try ledger.library()))
            try SharingText.write(doc, to: file, global: global, id: t.templateId.lowercased, name: t.name)
        }
    }

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import", abstract: "Add a shared template from its file → {\"kind\",\"id\",\"sha256\",\"imported\"}.",
            discussion: """
                An edited file is refused; the same file twice records nothing. Exercises are matched by id, then by name.

                Example: ledger template import upper-a.json
                """)
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The file.") var file: String
        @OptionGroup var at: AtOption

        func run() throws {
            let doc = try SharingText.read(file, as: .template)
            try SharingText.importing(doc, global: global, at: at) { try $0.importTemplate(doc) }
        }
    }
}

extension ProgramCommand {
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export", abstract: "Write a program to a file to share, signed by its SHA-256 → {\"kind\",\"id\",\"file\",\"sha256\"}.",
            discussion: "Example: ledger program export active my-program.json")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The program id, a unique prefix, or `active`.") var program: String
        @Argument(help: "The file to write.") var file: String

        func run() throws {
            let ledger = Ledger(store: try global.openReadOnly())
            let p = try ledger.programs().resolve(program)
            let doc = SharedDocument(kind: .program, content: SharedContent.program(p, library: try ledger.library()))
            try SharingText.write(doc, to: file, global: global, id: p.programId.lowercased, name: p.generated.split)
        }
    }

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import", abstract: "Add a shared program from its file, as the active one → {\"kind\",\"id\",\"sha256\",\"imported\"}.",
            discussion: """
                Its days, holds and modules come with it. An edited file is refused; the same file twice records \
                nothing. At most 2 programs are kept: a third removes the oldest, as generating does.

                Example: ledger program import my-program.json
                """)
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The file.") var file: String
        @OptionGroup var at: AtOption

        func run() throws {
            let doc = try SharingText.read(file, as: .program)
            try SharingText.importing(doc, global: global, at: at) { try $0.importProgram(doc).programId }
        }
    }
}
