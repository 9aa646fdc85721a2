import AsyncHTTPClient
import Foundation
import LedgerTestSupport
import NIOCore
import NIOHTTP1

/// A real browser for the coach dashboard's tests: Debian's `chromium`,
/// headless, driven through `chromedriver` over the W3C WebDriver protocol
/// (JSON over HTTP on a loopback port), with no client library between.
/// `.ci/run` installs both; without them these tests are skipped unless
/// `REPLEDGER_REQUIRE_BROWSER=1`, when their absence fails the run.
final class Browser: @unchecked Sendable {
    let driver: Process
    let base: String
    let session: String

    static let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static let chromedriver = ["/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static var available: Bool { chromium != nil && chromedriver != nil }
    static var required: Bool { ProcessInfo.processInfo.environment["REPLEDGER_REQUIRE_BROWSER"] == "1" }

    struct Failure: Error, CustomStringConvertible { var description: String }

    init(width: Int = 1280, height: Int = 1000) async throws {
        guard let chromium = Self.chromium, let chromedriver = Self.chromedriver else {
            throw Failure(description: "chromium and chromedriver are not installed (apt-get install chromium chromium-driver)")
        }
        let port = try PostgresCluster.freePort()
        driver = Process()
        driver.executableURL = URL(fileURLWithPath: chromedriver)
        driver.arguments = ["--port=\(port)"]
        driver.standardOutput = FileHandle.nullDevice
        driver.standardError = FileHandle.nullDevice
        try driver.run()
        base = "http://127.0.0.1:\(port)"
        // The driver listens within a moment of starting (a minute at most, on a loaded machine).
        var ready = false
        let deadline = Date().addingTimeInterval(60)
        while !ready, Date() < deadline {
            ready = (try? await Self.send(.GET, base + "/status", nil))?["value"] != nil
            if !ready { try await Task.sleep(for: .milliseconds(100)) }
        }
        guard ready else {
            kill(driver.processIdentifier, SIGKILL)
            throw Failure(description: "chromedriver did not start")
        }
        let capabilities: [String: Any] = [
            "capabilities": [
                "alwaysMatch": [
                    "browserName": "chrome",
                    "goog:chromeOptions": [
                        "binary": chromium,
                        "args": [
                            "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=\(width),\(height)",
                            "--hide-scrollbars",
                        ],
                    ],
                ]
            ]
        ]
        let answer = try await Self.send(.POST, base + "/session", capabilities)
        guard let value = answer["value"] as? [String: Any], let id = value["sessionId"] as? String else {
            kill(driver.processIdentifier, SIGKILL)
            throw Failure(description: "no browser session: \(answer)")
        }
        session = id
    }

    /// Ends the browser, then the driver. The driver is killed, not waited for: Foundation learns of a
    /// child's exit through a descriptor the browser it started inherited, so a wait could outlast the test.
    func quit() async {
        _ = try? await Self.send(.DELETE, "\(base)/session/\(session)", nil)
        kill(driver.processIdentifier, SIGKILL)
    }

    static func send(_ method: HTTPMethod, _ url: String, _ body: [String: Any]?) async throws -> [String: Any] {
        var request = try HTTPClient.Request(url: url, method: method)
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .data(try JSONSerialization.data(withJSONObject: body))
        }
        let response = try await TestHTTP.client.execute(request: request, deadline: .now() + .seconds(60)).get()
        let bytes = response.body.map { Data(buffer: $0) } ?? Data()
        return (try? JSONSerialization.jsonObject(with: bytes) as? [String: Any]) ?? [:]
    }

    @discardableResult
    func command(_ method: HTTPMethod, _ path: String, _ body: [String: Any]? = nil) async throws -> Any? {
        let answer = try await Self.send(method, "\(base)/session/\(session)\(path)", body ?? (method == .POST ? [:] : nil))
        if let error = answer["value"] as? [String: Any], let kind = error["error"] as? String {
            throw Failure(description: "\(kind): \(error["message"] as? String ?? "")")
        }
        return answer["value"]
    }

    func open(_ url: String) async throws { try await command(.POST, "/url", ["url": url]) }
    var url: String { get async throws { try await command(.GET, "/url") as? String ?? "" } }

    /// The page's address once it is `expected` (or, `prefix`, begins with it), or whatever it is after 60 s
    /// (a click's navigation may still be under way).
    func url(becoming expected: String, prefix: Bool = false) async throws -> String {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let now = try await url
            if now == expected || (prefix && now.hasPrefix(expected)) { return now }
            try await Task.sleep(for: .milliseconds(100))
        }
        return try await url
    }
    var title: String { get async throws { try await command(.GET, "/title") as? String ?? "" } }
    var source: String { get async throws { try await command(.GET, "/source") as? String ?? "" } }

    struct Element {
        let browser: Browser
        let id: String
        /// What found it: an element the page replaced meanwhile (a navigation still under way, "stale element") is
        /// found again by it, for 60 s at most.
        var css: String? = nil

        @discardableResult private func run<T>(_ body: (String) async throws -> T) async throws -> T {
            do {
                return try await body(id)
            } catch let failure as Failure where failure.description.contains("stale element") {
                guard let css else { throw failure }
                let deadline = Date().addingTimeInterval(60)
                while true {
                    do {
                        return try await body(try await browser.await(css).id)
                    } catch let again as Failure where again.description.contains("stale element") && Date() < deadline {
                        try await Task.sleep(for: .milliseconds(100))
                    }
                }
            }
        }

        func click() async throws { try await run { try await browser.command(.POST, "/element/\($0)/click") } }
        func type(_ text: String) async throws { try await run { try await browser.command(.POST, "/element/\($0)/value", ["text": text]) } }
        func clear() async throws { try await run { try await browser.command(.POST, "/element/\($0)/clear") } }
        var text: String { get async throws { try await run { try await browser.command(.GET, "/element/\($0)/text") as? String ?? "" } } }
        func attribute(_ name: String) async throws -> String? {
            try await run { try await browser.command(.GET, "/element/\($0)/attribute/\(name)") as? String }
        }
        func all(_ css: String) async throws -> [Element] {
            let found =
                try await browser.command(.POST, "/element/\(id)/elements", ["using": "css selector", "value": css]) as? [[String: Any]] ?? []
            return found.compactMap { $0.values.first as? String }.map { Element(browser: browser, id: $0) }
        }
    }

    func find(_ css: String) async throws -> Element {
        let found = try await command(.POST, "/element", ["using": "css selector", "value": css]) as? [String: Any]
        guard let id = found?.values.first as? String else { throw Failure(description: "no element \(css)") }
        return Element(browser: self, id: id, css: css)
    }

    /// The element once the page has one (after a click's navigation), trying for 60 s.
    func await(_ css: String) async throws -> Element {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if let found = try? await find(css) { return found }
            try await Task.sleep(for: .milliseconds(100))
        }
        return try await find(css)
    }

    func all(_ css: String) async throws -> [Element] {
        let found = try await command(.POST, "/elements", ["using": "css selector", "value": css]) as? [[String: Any]] ?? []
        return found.compactMap { $0.values.first as? String }.map { Element(browser: self, id: $0) }
    }

    /// Presses and releases one key (a WebDriver key code: "\u{E012}" is ←, "\u{E014}" is →) on the focused page.
    func press(_ key: String) async throws {
        let actions: [[String: Any]] = [["type": "keyDown", "value": key], ["type": "keyUp", "value": key]]
        try await command(.POST, "/actions", ["actions": [["type": "key", "id": "keyboard", "actions": actions]]])
    }

    /// Runs a script in the page → its value (the test reads layout; the pages' own policy allows only their script).
    func execute(_ script: String) async throws -> Any? { try await command(.POST, "/execute/sync", ["script": script, "args": []]) }

    func cookies() async throws -> [[String: Any]] { try await command(.GET, "/cookie") as? [[String: Any]] ?? [] }

    /// Deletes the current page's cookie of this name, as another browser (one that never held it) would be.
    func deleteCookie(_ name: String) async throws { try await command(.DELETE, "/cookie/\(name)") }

    func resize(width: Int, height: Int) async throws { try await command(.POST, "/window/rect", ["width": width, "height": height]) }

    /// A PNG of the whole page, or of its top `maxHeight` pixels (Chromium's full-page capture through the DevTools command).
    func screenshot(to path: String, maxHeight: Double = .infinity) async throws {
        let metrics = try await command(.POST, "/goog/cdp/execute", ["cmd": "Page.getLayoutMetrics", "params": [:]]) as? [String: Any]
        let size = (metrics?["cssContentSize"] as? [String: Any]) ?? (metrics?["contentSize"] as? [String: Any]) ?? [:]
        let width = (size["width"] as? Double) ?? 1280, height = min(maxHeight, (size["height"] as? Double) ?? 1000)
        let shot = try await command(
            .POST, "/goog/cdp/execute",
            [
                "cmd": "Page.captureScreenshot",
                "params": ["captureBeyondViewport": true, "clip": ["x": 0, "y": 0, "width": width, "height": height, "scale": 1]],
            ])
        guard let base64 = (shot as? [String: Any])?["data"] as? String, let data = Data(base64Encoded: base64) else {
            throw Failure(description: "no screenshot")
        }
        try data.write(to: URL(fileURLWithPath: path))
    }
}
