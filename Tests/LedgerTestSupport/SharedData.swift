import Foundation
import Testing

/// The real files that live beside the repository, not in it: `../shared/data/` (real Strong,
/// Hevy and FitNotes exports, each folder with its `SOURCES.md`), or `$REPLEDGER_SHARED_DATA`.
///
/// A clone of the repository alone has none of them, so every test that reads them carries
/// ``Testing/Trait/needsSharedData(_:)``: it skips there with a printed reason. CI has them: it
/// first runs the whole suite with `REPLEDGER_SHARED_DATA` pointing at nothing, as a clone would (a
/// test that reads the files without this trait fails there), then runs the tests that skipped for want
/// of them with the files and `REPLEDGER_REQUIRE_SHARED_DATA=1`, so that none of them can skip (`.ci/run`).
package enum SharedData {
    /// One folder of real files.
    package enum Folder: String, Sendable, CaseIterable {
        case realExports = "real-exports"
        case realExportsMore = "real-exports-more"
        case realExports5 = "real-exports-5"
    }

    /// `../shared/data` beside the repository, or `$REPLEDGER_SHARED_DATA`.
    package static let root: URL = {
        if let explicit = ProcessInfo.processInfo.environment["REPLEDGER_SHARED_DATA"] { return URL(fileURLWithPath: explicit) }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/data")
    }()

    package static func url(_ folder: Folder) -> URL { root.appendingPathComponent(folder.rawValue) }

    /// Whether the folder is here (its `SOURCES.md` is).
    package static func has(_ folder: Folder) -> Bool {
        FileManager.default.fileExists(atPath: url(folder).appendingPathComponent("SOURCES.md").path)
    }

    /// CI's `REPLEDGER_REQUIRE_SHARED_DATA=1`: a test that needs the files runs, and fails, where they are missing.
    package static var required: Bool { ProcessInfo.processInfo.environment["REPLEDGER_REQUIRE_SHARED_DATA"] == "1" }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test or suite only where every one of `folders` is present; elsewhere it is skipped with
    /// a reason that begins `needs ../shared/data` (`.ci/shared-data-tests` reads it). Where CI requires the files, it always runs.
    package static func needsSharedData(_ folders: SharedData.Folder...) -> Self {
        let missing = folders.filter { !SharedData.has($0) }.map { "../shared/data/\($0.rawValue)" }
        let reason = "needs \(missing.joined(separator: " and ")), which a clone of the repository alone does not have"
        return .enabled(if: missing.isEmpty || SharedData.required, Comment(rawValue: reason))
    }
}
