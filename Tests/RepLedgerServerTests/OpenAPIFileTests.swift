import Foundation
import Testing

@testable import RepLedgerServer

/// `docs/openapi.json` is the document the server serves at `/v1/openapi.json`, byte for byte, so the
/// repository holds the HTTP API it promises (docs/SERVER-CONTRACT.md). After a change to the API, write
/// it again with `REPLEDGER_WRITE_OPENAPI=1 swift test --filter OpenAPIFileTests`.
@Suite struct OpenAPIFileTests {
    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/openapi.json")

    @Test func theStoredDocumentIsTheServedOne() throws {
        let served = Data(OpenAPIDocument.bytes + [UInt8(ascii: "\n")])
        if ProcessInfo.processInfo.environment["REPLEDGER_WRITE_OPENAPI"] == "1" { try served.write(to: Self.file) }
        let stored = try Data(contentsOf: Self.file)
        #expect(stored == served, "docs/openapi.json differs from the served document: write it again (see this test's doc comment)")
    }
}
