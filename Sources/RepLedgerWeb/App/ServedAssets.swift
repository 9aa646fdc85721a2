import Crypto

/// The app's files as the server serves them: each under a name that holds
/// its content's hash (`app.3f2a9c01d4.js`), cached for a year and never
/// asked for again, so a new release reaches a phone as new names, never as
/// a stale copy under an old one. The modules' imports and the service
/// worker's list name the hashed files; the worker itself keeps its fixed
/// address (`/app/sw.js`, as browsers require) and is revalidated, and its
/// cache is named after the release's files, so it replaces the last one's.
package enum ServedAssets {
    package struct File: Sendable {
        /// The name served under `/app/`.
        package var name: String
        package var text: String
        package var contentType: String
        /// Whether the name holds the content's hash (cached for good) or is fixed (revalidated).
        package var immutable: Bool
    }

    /// Every file, by the name it is served under.
    package static var files: [String: File] { served.files }

    /// The name a file of `Assets/` is served under.
    package static func name(of original: String) -> String { served.names[original] ?? original }

    private static let served: (files: [String: File], names: [String: String]) = {
        var hashed: [String: String] = [:]
        var out: [String: File] = [:]
        func serve(_ original: String, _ text: String) {
            let dot = original.lastIndex(of: ".")!
            let name = "\(original[..<dot]).\(digest(text))\(original[dot...])"
            hashed[original] = name
            out[name] = File(name: name, text: text, contentType: contentType(original), immutable: true)
        }
        // In dependency order: a module's hash covers the hashed names of what it imports.
        serve("outbox.js", AppAssets.files["outbox.js"] ?? "")
        serve("app.css", AppAssets.files["app.css"] ?? "")
        serve("app.js", (AppAssets.files["app.js"] ?? "").replacingOccurrences(of: "\"./outbox.js\"", with: "\"./\(hashed["outbox.js"]!)\""))
        var worker = AppAssets.files["sw.js"] ?? ""
        for (original, name) in hashed {
            worker = worker.replacingOccurrences(of: "\"\(LifterApp.root)/\(original)\"", with: "\"\(LifterApp.root)/\(name)\"")
        }
        worker = worker.replacingOccurrences(of: "const CACHE = \"repledger-app\";", with: "const CACHE = \"repledger-app-\(digest(worker))\";")
        out["sw.js"] = File(name: "sw.js", text: worker, contentType: contentType("sw.js"), immutable: false)
        return (out, hashed)
    }()

    /// The first ten hex digits of the text's SHA-256.
    package static func digest(_ text: String) -> String {
        SHA256.hash(data: Array(text.utf8)).prefix(5).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    static func contentType(_ name: String) -> String { name.hasSuffix(".css") ? "text/css; charset=utf-8" : "text/javascript; charset=utf-8" }
}
