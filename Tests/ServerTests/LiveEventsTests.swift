import AsyncHTTPClient
import Foundation
import LedgerTestSupport
import NIOCore
import Testing

/// `GET …/events/live`: the catch-up, then every new event once, with keep-alives.
@Suite(.serialized) struct LiveEventsTests {
    @Test func catchUpThenLiveWithoutGapsOrRepeats() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let server = try ServerProcess(cli: cli, keepAlive: 0.2)
        let alice = try server.createAccount("alice")
        let events = "/v1/accounts/\(alice.id)/events"
        let w = UUID()
        #expect(try await server.post(events, token: alice.token, body: PushBodies.batch([PushBodies.started(w)])).status == 200)

        var request = HTTPClientRequest(url: server.base + "/v1/accounts/\(alice.id)/events/live?after=0")
        request.headers.add(name: "Authorization", value: "Bearer \(alice.token)")
        let response = try await TestHTTP.client.execute(request, timeout: .seconds(30))
        #expect(response.status.code == 200)
        #expect(response.headers.first(name: "Content-Type") == "text/event-stream")

        // Writers append while the stream is open: single events and a batch, from another task.
        let writer = Task {
            for i in 0..<20 {
                let sets: [String] = i % 5 == 0 ? [PushBodies.set(w), PushBodies.set(w), PushBodies.set(w)] : [PushBodies.set(w)]
                let body = PushBodies.batch(sets)
                _ = try await server.post(events, token: alice.token, body: body)
            }
        }
        var text = ""
        var ids: [Int] = []
        for try await chunk in response.body {
            text += String(buffer: chunk)
            ids = text.split(separator: "\n").filter { $0.hasPrefix("id: ") }.compactMap { Int($0.dropFirst(4)) }
            if ids.count >= 29, text.contains(": keep-alive") { break }
        }
        try await writer.value
        #expect(firstDifference(ids, Array(1...ids.count)) == nil, "positions in order, none missing, none twice")
        let expectedCount = 29  // 1 start, 16 single sets, 4 batches of 3
        #expect(ids.count == expectedCount)
        // Each data line is the event's envelope, exactly as GET …/events gives it.
        let all = try await server.get(events, token: alice.token)
        let dataLines = text.split(separator: "\n").filter { $0.hasPrefix("data: ") }.map { String($0.dropFirst(6)) }
        #expect(all.body.hasPrefix(#"{"events":["# + dataLines.joined(separator: ",")))
    }

    @Test func aLiveStreamStartsAfterAPositionAndNeedsAccess() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let server = try ServerProcess(cli: cli, keepAlive: 0.2)
        let alice = try server.createAccount("alice")
        let bob = try server.createAccount("bob")
        let events = "/v1/accounts/\(alice.id)/events"
        let w = UUID()
        #expect(
            try await server.post(events, token: alice.token, body: PushBodies.batch([PushBodies.started(w), PushBodies.set(w), PushBodies.set(w)]))
                .status == 200)
        #expect(try await server.get(events + "/live", token: bob.token).status == 403)
        #expect(try await server.get(events + "/live", token: nil).status == 401)
        #expect(try await server.get(events + "/live?after=x", token: alice.token).status == 400)

        var request = HTTPClientRequest(url: server.base + events + "/live?after=2")
        request.headers.add(name: "Authorization", value: "Bearer \(alice.token)")
        let response = try await TestHTTP.client.execute(request, timeout: .seconds(30))
        var text = ""
        for try await chunk in response.body {
            text += String(buffer: chunk)
            if text.contains(": keep-alive") { break }
        }
        let ids = text.split(separator: "\n").filter { $0.hasPrefix("id: ") }.compactMap { Int($0.dropFirst(4)) }
        #expect(ids == [3])
    }
}
