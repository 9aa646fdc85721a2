import Foundation
import RepLedgerCore

/// Templates and programs, as the CLI's `template` and `program` commands record them.
extension RepLedger {
    /// Creates a template: the exercises in order, each planned as the library suggests.
    ///
    /// - Parameters:
    ///   - name: The template's name, unique among live templates.
    ///   - exercises: Exercise ids or names the library knows.
    /// - Returns: The template's id.
    /// - Throws: `Refusal` when the command is refused (its description is one line to show): nothing is appended.
    public func createTemplate(name: String, exercises: [String]) throws -> UUID {
        try perform { try $0.createTemplate(name: name, exercises: exercises) }
    }

    /// Renames a template.
    ///
    /// - Parameters:
    ///   - template: The template's id, a unique prefix of it, or its name.
    ///   - name: The new name.
    /// - Throws: `Refusal` when the command is refused (its description is one line to show): nothing is appended.
    public func renameTemplate(_ template: String, to name: String) throws {
        try perform { try $0.renameTemplate(template, to: name) }
    }

    /// Deletes a template; workouts started from it keep their history.
    ///
    /// - Parameter template: The template's id, a unique prefix of it, or its name.
    /// - Throws: `Refusal` when the command is refused (its description is one line to show): nothing is appended.
    public func deleteTemplate(_ template: String) throws {
        try perform { try $0.deleteTemplate(template) }
    }

    /// Makes a program the active one: the program `startWorkout(program:day:)` and the prompts follow.
    ///
    /// - Parameter program: The program's id, a unique prefix of it, or its name.
    /// - Returns: The program's id.
    /// - Throws: `Refusal` when the command is refused (its description is one line to show): nothing is appended.
    @discardableResult
    public func activateProgram(_ program: String) throws -> UUID {
        try perform { try $0.activateProgram(program) }
    }

    /// A template as a file to share: its content and the SHA-256 of it, as `ledger template export` writes.
    ///
    /// - Parameter template: The template's id, a unique prefix of it, or its name.
    /// - Returns: The file's text, which ``importTemplate(_:)`` reads on another ledger.
    /// - Throws: `Refusal` or `QueryError` for an exercise, a workout or a point the log does not hold; a store error.
    public func exportTemplate(_ template: String) throws -> String {
        let t = try ledger.templates().resolve(template)
        return SharedDocument(kind: .template, content: SharedContent.template(t, library: try ledger.library())).document.rendered
    }

    /// Imports a template someone shared (`ledger template export`'s file); the same file again records nothing.
    ///
    /// - Parameter document: The shared file's text.
    /// - Returns: The template's id.
    /// - Throws: `Refusal` when the command is refused (its description is one line to show): nothing is appended.
    public func importTemplate(_ document: String) throws -> UUID {
        let shared = try SharedDocument.read(document, as: .template)
        return try importing(shared) { try $0.importTemplate(shared) }
    }

    /// Imports a program someone shared (`ledger program export`'s file), with its templates; the same file
    /// again records nothing.
    ///
    /// - Parameter document: The shared file's text.
    /// - Returns: The program's id.
    /// - Throws: `Refusal` when the command is refused (its description is one line to show): nothing is appended.
    public func importProgram(_ document: String) throws -> UUID {
        let shared = try SharedDocument.read(document, as: .program)
        return try importing(shared) { try $0.importProgram(shared).programId }
    }

    /// Imports once: a document imported before records nothing and answers what it became.
    private func importing(_ document: SharedDocument, _ run: (inout CommandSession) throws -> UUID) throws -> UUID {
        do {
            return try perform(run)
        } catch Refusal.nothingToChange {
            guard let id = try ledger.programs().importedId(of: document) else { throw Refusal.nothingToChange }
            return id
        }
    }
}
