import Foundation
import LedgerTestSupport
import Testing

/// Accounts people make themselves, against a real server: email codes sent
/// through a real mail command, Sign in with Apple with the tests' own keys,
/// the devices a signed-in person adds and revokes, and erasure; every
/// refusal one line, and nothing made by a refused attempt.
@Suite struct SignInTests {
    static func body(_ pairs: [String: String]) -> String {
        // Strings only: JSONSerialization cannot fail on them.
        let data = (try? JSONSerialization.data(withJSONObject: pairs, options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    @Test func emailCodesMakeAnAccountAddDevicesAndErasureEndsThem() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let mail = try CapturedMail(in: cli.folder)
        let server = try ServerProcess(cli: cli, serveFlags: ["--mail-command", mail.command])
        let lina = "Lina@Example.org"

        // A code is sent; a wrong one is refused in one line and makes nothing.
        let sent = try await server.post("/v1/auth/email/start", token: nil, body: Self.body(["email": lina]))
        #expect(sent.status == 202, "\(sent.body)")
        let code = try #require(try mail.code(to: "lina@example.org"), "no code was mailed")
        let wrong = code == "000000" ? "000001" : "000000"
        let refused = try await server.post(
            "/v1/auth/email/verify", token: nil, body: Self.body(["email": lina, "code": wrong, "device": "phone"]))
        #expect(refused.status == 401 && refused.errorCode == "signInRefused", "\(refused.body)")
        #expect(!refused.body.contains("\n"))

        // The right code signs up: the account is new, the phone has a token that writes.
        let phone = try await server.post("/v1/auth/email/verify", token: nil, body: Self.body(["email": lina, "code": code, "device": "phone"]))
        #expect(phone.status == 200, "\(phone.body)")
        #expect(phone.json?["created"] as? Bool == true)
        let account = try #require(phone.json?["accountId"] as? String), phoneToken = try #require(phone.json?["token"] as? String)
        let events = "/v1/accounts/\(account)/events"
        #expect(try await server.post(events, token: phoneToken, body: PushBodies.batch([PushBodies.started(UUID())])).status == 200)

        // A used code works once; the next sign-in with a new code finds the same account.
        let reused = try await server.post("/v1/auth/email/verify", token: nil, body: Self.body(["email": lina, "code": code, "device": "tablet"]))
        #expect(reused.status == 401)
        #expect(try await server.post("/v1/auth/email/start", token: nil, body: Self.body(["email": "lina@example.org"])).status == 202)
        let again = try #require(try mail.code(to: "lina@example.org", message: 2))
        let laptop = try await server.post(
            "/v1/auth/email/verify", token: nil, body: Self.body(["email": lina, "code": again, "device": "laptop"]))
        #expect(laptop.json?["accountId"] as? String == account && laptop.json?["created"] as? Bool == false, "\(laptop.body)")
        let laptopToken = try #require(laptop.json?["token"] as? String)

        // Devices: the phone adds a watch; the list marks the caller's own; revoking the laptop ends it at once.
        let watch = try await server.post("/v1/devices", token: phoneToken, body: #"{"device":"Lina's watch"}"#)
        #expect(watch.status == 201, "\(watch.body)")
        let watchToken = try #require(watch.json?["token"] as? String)
        #expect(try await server.get(events, token: watchToken).status == 200)
        let listed = try await server.get("/v1/devices", token: phoneToken)
        let rows = try #require(listed.json?["devices"] as? [[String: Any]])
        #expect(rows.map { $0["device"] as? String } == ["phone", "laptop", "Lina's watch"])
        #expect(rows.map { $0["current"] as? Bool } == [true, false, false])
        #expect(!listed.body.contains(watchToken))
        let laptopId = try #require(rows[1]["id"] as? String)
        #expect(try await server.request(.DELETE, "/v1/devices/\(laptopId)", token: phoneToken).status == 200)
        #expect(try await server.get(events, token: laptopToken).errorCode == "unauthorized")
        #expect(try await server.request(.DELETE, "/v1/devices/\(laptopId)", token: phoneToken).status == 404)
        #expect(try await server.post("/v1/devices", token: phoneToken, body: #"{"device":"x","scope":"full"}"#).status == 400)

        // No answer tells whether an address has an account; bad input is one line.
        let stranger = try await server.post("/v1/auth/email/start", token: nil, body: Self.body(["email": "nobody@example.org"]))
        #expect(stranger.status == sent.status && stranger.body == sent.body)
        let notEmail = try await server.post("/v1/auth/email/start", token: nil, body: Self.body(["email": "lina at example"]))
        #expect(notEmail.status == 400 && notEmail.errorCode == "badRequest")
        #expect(try await server.post("/v1/auth/email/start", token: nil, body: #"{"email":"a@b.org","extra":1}"#).status == 400)

        // Codes sent to one address are limited: past five in ten minutes, 429 with Retry-After, and no mail.
        // Five in a row fill the window whenever the earlier ones were sent (a loaded run can take minutes).
        var accepted = 0
        for _ in 0..<5 where try await server.post("/v1/auth/email/start", token: nil, body: Self.body(["email": lina])).status == 202 {
            accepted += 1
        }
        // Every accepted request's message arrives (two were mailed before these), then a refused one mails nothing.
        let mailed = try mail.waitForMessages(to: "lina@example.org", count: 2 + accepted)
        #expect(mailed == 2 + accepted)
        let limited = try await server.post("/v1/auth/email/start", token: nil, body: Self.body(["email": lina]))
        #expect(limited.status == 429 && limited.headers["retry-after"] != nil, "\(limited.status) \(limited.body)")
        #expect(try mail.messages(to: "lina@example.org").count == mailed)

        // Erasure by the account's own device: every device of it then hears 410, not 401.
        #expect(try await server.request(.DELETE, "/v1/accounts/\(account)", token: watchToken).status == 200)
        #expect(try await server.get(events, token: phoneToken).errorCode == "erased")
        #expect(try await server.get("/v1/devices", token: watchToken).status == 410)
        #expect(!server.log.contains(code) && !server.log.contains(phoneToken))
    }

    @Test func signInWithAppleChecksTheTokenAndFindsTheAccountAgain() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let apple = try TestApple()
        let server = try ServerProcess(
            cli: cli, serveFlags: ["--apple-keys", try apple.writeJWKS(in: cli.folder), "--apple-client-id", TestApple.clientId])
        func signIn(_ token: String, nonce: String, device: String = "iPhone") async throws -> ServerProcess.Reply {
            try await server.post("/v1/auth/apple", token: nil, body: Self.body(["identityToken": token, "nonce": nonce, "device": device]))
        }
        let subject = "001234.abcdef.0987"

        // Refused, each in one line and making nothing: another key's, another app's, expired, another sign-in's nonce, not Apple's.
        let forger = try TestApple()
        let refusals = [
            try forger.token(subject: subject, nonce: "n1"),
            try apple.token(subject: subject, nonce: "n1", audience: "com.other.app"),
            try apple.token(subject: subject, nonce: "n1", issuedAt: Date().addingTimeInterval(-3600), lifetime: 600),
            try apple.token(subject: subject, nonce: "another"),
            try apple.token(subject: subject, nonce: "n1", issuer: "https://example.org"),
            "not.a.jwt",
        ]
        for token in refusals {
            let r = try await signIn(token, nonce: "n1")
            #expect(r.status == 401 && r.errorCode == "signInRefused", "\(r.status) \(r.body)")
            #expect(!r.body.contains("\n"))
        }

        // The first good sign-in makes the account; the same token again is a replay.
        let good = try apple.token(subject: subject, nonce: "n1")
        let first = try await signIn(good, nonce: "n1")
        #expect(first.status == 200 && first.json?["created"] as? Bool == true, "\(first.body)")
        let account = try #require(first.json?["accountId"] as? String)
        #expect(try await signIn(good, nonce: "n1").status == 401)
        // Nor does a re-spelt copy sign in again: padding added, the standard alphabet's `+` and `/`, or an unused low bit
        // of the signature's last character changed; each is the same token, remembered by what it says.
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        let lastCharacter = try #require(good.last)
        let last = try #require(alphabet.firstIndex(of: lastCharacter))
        var respelt = [good + "==", String(good.dropLast()) + String(alphabet[last ^ 1])]
        if good.contains("-") || good.contains("_") {
            respelt.append(good.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/"))
        }
        for copy in respelt {
            let replay = try await signIn(copy, nonce: "n1")
            #expect(replay.status == 401 && replay.errorCode == "signInRefused", "\(replay.status) \(replay.body)")
        }

        // A later sign-in on another device finds the same account by Apple's user id.
        let second = try await signIn(try apple.token(subject: subject, nonce: "n2"), nonce: "n2", device: "iPad")
        #expect(second.json?["accountId"] as? String == account && second.json?["created"] as? Bool == false, "\(second.body)")
        let devices = try await server.get("/v1/devices", token: try #require(second.json?["token"] as? String))
        #expect((devices.json?["devices"] as? [[String: Any]])?.map { $0["device"] as? String } == ["iPhone", "iPad"])
        #expect(!server.log.contains(good))

        // A server with no --apple-keys says it does not offer this; one without --mail-command, email.
        let plain = try ServerProcess(cli: cli)
        let none = try await plain.post("/v1/auth/apple", token: nil, body: Self.body(["identityToken": good, "nonce": "n1", "device": "x"]))
        #expect(none.status == 501 && none.errorCode == "notConfigured")
        #expect(try await plain.post("/v1/auth/email/start", token: nil, body: Self.body(["email": "a@b.org"])).status == 501)
    }

    @Test func theCLISignsInByACodeOnTheTerminalOrByAppleAndThenSyncs() async throws {
        let cli = try LedgerProcess()
        defer { cli.cleanUp() }
        let mail = try CapturedMail(in: cli.folder)
        let apple = try TestApple()
        let server = try ServerProcess(
            cli: cli,
            serveFlags: [
                "--mail-command", mail.command, "--apple-keys", try apple.writeJWKS(in: cli.folder), "--apple-client-id", TestApple.clientId,
            ])

        // The laptop signs up by email: the code is asked for on the terminal, the token kept in a file of the user's alone.
        let laptopDb = cli.folder.appendingPathComponent("laptop.sqlite").path
        #expect(try cli.run(["workout", "start", "--db", laptopDb], useDbFlag: false).status == 0)
        let running = try cli.start(
            ["sync", server.base, "--sign-in", "email", "--email", "sam@example.org", "--device", "laptop", "--json", "--db", laptopDb], input: true)
        let asked = try await onOwnThread { running.waitForStandardError(containing: "A code was sent", seconds: 120) }
        #expect(asked, "no prompt: \(running.standardError)")
        running.type(try #require(try mail.code(to: "sam@example.org")))
        let first = try await onOwnThread { running.finish() }
        #expect(first.status == 0, "\(first.stderr)")
        #expect((first.json?["pushed"] as? Int ?? 0) > 0, "\(first.stdout)")
        let tokenFile = laptopDb + ".token"
        let mode = try FileManager.default.attributesOfItem(atPath: tokenFile)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let status = try cli.run(["sync", "status", "--json", "--db", laptopDb], useDbFlag: false)
        let account = try #require(status.json?["account"] as? String, "\(status.stdout)")
        #expect(first.stderr.contains("Signed up: account \(account)"))

        // The phone signs in with Apple into an account of its own; a refused sign-in leaves no sync target.
        let phoneDb = cli.folder.appendingPathComponent("phone.sqlite").path
        let tokenPath = cli.folder.appendingPathComponent("identity.jwt").path
        try apple.token(subject: "sam.apple", nonce: "raw-nonce").write(toFile: tokenPath, atomically: true, encoding: .utf8)
        let wrongNonce = try cli.run(
            ["sync", server.base, "--sign-in", "apple", "--identity-token-file", tokenPath, "--nonce", "other", "--db", phoneDb], useDbFlag: false)
        #expect(wrongNonce.status != 0 && wrongNonce.stderr.contains("nonce"), "\(wrongNonce.stderr)")
        #expect(try cli.run(["sync", "--db", phoneDb], useDbFlag: false).stderr.contains("no sync target"))
        let phone = try cli.run(
            [
                "sync", server.base, "--sign-in", "apple", "--identity-token-file", tokenPath, "--nonce", "raw-nonce", "--device", "phone", "--db",
                phoneDb,
            ],
            useDbFlag: false)
        #expect(phone.status == 0, "\(phone.stderr)")
        #expect(phone.stderr.contains("Signed up") && !phone.stderr.contains(account))

        // Afterwards a plain sync uses the kept token.
        #expect(try cli.run(["body", "log", "--weight", "80kg", "--db", laptopDb], useDbFlag: false).status == 0)
        let later = try cli.run(["sync", "--json", "--db", laptopDb], useDbFlag: false)
        #expect(later.status == 0 && later.json?["pushed"] as? Int == 1, "\(later.stderr) \(later.stdout)")
    }
}
