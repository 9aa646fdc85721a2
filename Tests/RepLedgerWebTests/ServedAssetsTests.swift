import Crypto
import Foundation
import Testing

@testable import RepLedgerWeb

/// The lifter's app's files as served (issue 80, item 6): each under a name
/// holding its content's hash, the imports and the service worker's list
/// naming those, the whole app under 150 KB.
@Suite struct ServedAssetsTests {
    static func hex(_ text: String) -> String { SHA256.hash(data: Array(text.utf8)).map { String(format: "%02x", $0) }.joined() }

    @Test func everyFileIsServedUnderItsContentsHashAndReferencedByIt() throws {
        let files = ServedAssets.files
        #expect(
            Set(files.keys.map { $0.replacingOccurrences(of: #"\.[0-9a-f]{10}\."#, with: ".", options: .regularExpression) })
                == ["app.js", "app.css", "outbox.js", "sw.js"])
        for (name, file) in files where file.immutable {
            #expect(name.contains("." + String(Self.hex(file.text).prefix(10)) + "."), "\(name) does not hold its content's hash")
        }
        let app = try #require(files[ServedAssets.name(of: "app.js")])
        #expect(app.text.contains("from \"./\(ServedAssets.name(of: "outbox.js"))\"") && !app.text.contains("\"./outbox.js\""))
        let worker = try #require(files["sw.js"])
        #expect(!worker.immutable)
        for original in ["app.js", "app.css", "outbox.js"] {
            #expect(worker.text.contains("\"/app/\(ServedAssets.name(of: original))\"") && !worker.text.contains("\"/app/\(original)\""))
        }
        #expect(worker.text.range(of: #"const CACHE = "repledger-app-[0-9a-f]{10}";"#, options: .regularExpression) != nil)
        let page = LifterApp.page(account: "a", csrf: "c")
        #expect(page.contains("/app/\(ServedAssets.name(of: "app.js"))") && page.contains("/app/\(ServedAssets.name(of: "app.css"))"))
        let bytes = files.values.reduce(0) { $0 + $1.text.utf8.count } + page.utf8.count
        #expect(bytes < 150_000, "the whole app is \(bytes) bytes")
    }
}
