import AsyncHTTPClient
import Foundation
import NIOCore

/// repledger-server-bench: a real `ledger serve` on loopback under simulated devices.
///
///   1. fill: ACCOUNTS accounts with EVENTS events each, pushed in batches of 500;
///   2. load: DEVICES concurrent devices, each pushing single-set batches for SECONDS
///      (pushes/s, p50 and p99 latency) into a server holding those accounts;
///   3. catch-up: one account of CATCHUP events pulled from position 0 (events/s);
///   4. warm folds: a tenth of the accounts read, the RSS and the warm accounts after;
///   5. the server's peak RSS.
///
/// Usage: repledger-server-bench --ledger PATH [--work DIR] [--devices 50] [--seconds 30]
///        [--accounts 1000] [--events 2000] [--catch-up 100000] [--json FILE]
///        or --real EXPORT,… (RealAccount.swift), or --roster CLIENTS [--others N] (RosterBench.swift),
///        or --replica-reads [--postgres-read URL]… [--readers 4] (ReplicaBench.swift),
///        each [--postgres URL] [--runs 5]
struct Options {
    var ledger = ""
    var work = FileManager.default.temporaryDirectory.appendingPathComponent("repledger-server-bench").path
    var devices = 50
    var seconds = 30.0
    var accounts = 1000
    var events = 2000
    var catchUp = 100_000
    var json: String?
    /// Exports imported into one device ledger: the real-account benchmark (RealAccount.swift) instead.
    var real: [String] = []
    /// Serve from this PostgreSQL database instead of files (with `--keys DIR`).
    var postgres: String?
    var runs = 5
    /// The coach roster benchmark (RosterBench.swift) with this many clients of `events` events each, instead.
    var clients = 0
    /// Accounts on the roster's server that granted nothing, of `otherEvents` events each.
    var others = 0
    var otherEvents = 200
    /// The replica benchmark (ReplicaBench.swift), with these hot standbys' URLs (none: the primary alone).
    var replicaBench = false
    var replicas: [String] = []
    var readers = 4

    static func parse(_ args: [String]) -> Options {
        var o = Options()
        var i = 0
        func value() -> String { i += 1; return i < args.count ? args[i] : "" }
        while i < args.count {
            switch args[i] {
            case "--ledger": o.ledger = value()
            case "--work": o.work = value()
            case "--devices": o.devices = Int(value()) ?? o.devices
            case "--seconds": o.seconds = Double(value()) ?? o.seconds
            case "--accounts": o.accounts = Int(value()) ?? o.accounts
            case "--events": o.events = Int(value()) ?? o.events
            case "--catch-up": o.catchUp = Int(value()) ?? o.catchUp
            case "--json": o.json = value()
            case "--real": o.real = value().split(separator: ",").map(String.init)
            case "--postgres": o.postgres = value()
            case "--runs": o.runs = Int(value()) ?? o.runs
            case "--roster": o.clients = Int(value()) ?? o.clients
            case "--others": o.others = Int(value()) ?? o.others
            case "--other-events": o.otherEvents = Int(value()) ?? o.otherEvents
            case "--replica-reads": o.replicaBench = true
            case "--postgres-read": o.replicas.append(value())
            case "--readers": o.readers = Int(value()) ?? o.readers
            default: FileHandle.standardError.write(Data("unknown option \(args[i])\n".utf8)); exit(2)
            }
            i += 1
        }
        guard !o.ledger.isEmpty else { FileHandle.standardError.write(Data("give --ledger PATH\n".utf8)); exit(2) }
        return o
    }
}

func say(_ s: String) { FileHandle.standardError.write(Data((s + "\n").utf8)) }

/// Runs a command and returns its stdout.
func run(_ path: String, _ args: [String]) throws -> String { try runTimed(path, args).output }

/// A process's output and its wall time, from its start to the end of its
/// output (its exit): `waitUntilExit` polls every 50 ms on Linux, which
/// would round a short command's time up by as much.
func runTimed(_ path: String, _ args: [String]) throws -> (output: String, seconds: Double) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: path)
    p.arguments = args
    let out = Pipe()
    p.standardOutput = out
    let start = ContinuousClock.now
    try p.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    let seconds = (ContinuousClock.now - start).seconds
    p.waitUntilExit()
    return (String(decoding: data, as: UTF8.self), seconds)
}

struct Account: Sendable { var id: String; var token: String }

/// Push bodies: a workout start and sets into it.
enum Bodies {
    static let at = "2026-11-02T10:00:00.000Z"
    static func started(_ w: String) -> String {
        #"{"eventId":"\#(UUID().uuidString.lowercased())","stream":"workout-\#(w)","type":"WorkoutStarted","schema":1,"occurredAt":"\#(at)","payload":{"workoutId":"\#(w)","name":"Bench","origin":"empty","templateId":null,"programId":null,"programDayIndex":null}}"#
    }
    static func set(_ w: String, _ i: Int) -> String {
        #"{"eventId":"\#(UUID().uuidString.lowercased())","stream":"workout-\#(w)","type":"SetLogged","schema":1,"occurredAt":"\#(at)","payload":{"workoutId":"\#(w)","setId":"\#(UUID().uuidString.lowercased())","entryId":"\#(w)","exerciseId":"barbell-bench-press","type":"normal","metrics":{"weight":{"value":\#(60 + i % 40),"unit":"kg"},"reps":\#(1 + i % 12),"rpe":null,"durationSeconds":null,"distanceMeters":null},"notes":null,"historyEdit":false}}"#
    }
    /// The lifter lets `coach` read their log.
    static func grant(_ coach: String) -> String {
        #"{"eventId":"\#(UUID().uuidString.lowercased())","stream":"coaching","type":"CoachAccessGranted","schema":1,"occurredAt":"\#(at)","payload":{"coachAccountId":"\#(coach)"}}"#
    }
    static func batch(_ events: [String]) -> String { #"{"events":[\#(events.joined(separator: ","))]}"# }

    /// `count` events: workouts of 20 sets each.
    static func history(_ count: Int) -> [String] {
        var out: [String] = []
        var w = ""
        for i in 0..<count {
            if i % 21 == 0 { w = UUID().uuidString.lowercased(); out.append(started(w)) } else { out.append(set(w, i)) }
        }
        return out
    }
}

final class Server: @unchecked Sendable {
    let process = Process()
    var port = 0
    init(ledger: String, data: String, storage: [String] = []) throws {
        process.executableURL = URL(fileURLWithPath: ledger)
        // Throughput, not pacing, is measured: the published limits are off.
        let unlimited = ["--key-requests-per-minute", "--account-requests-per-minute", "--key-appends-per-minute", "--account-appends-per-minute"]
            .flatMap { [$0, "0"] }
        process.arguments = ["serve", "--listen", "127.0.0.1:0", "--data", data] + storage + unlimited
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice  // one line per request: not what is measured
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) { line += out.fileHandleForReading.availableData }
        let text = String(decoding: line, as: UTF8.self)
        port = Int(text.split(separator: ":")[2].split(separator: " ")[0])!
    }
    var peakRSSMiB: Double { status("VmHWM:") }
    var rssMiB: Double { status("VmRSS:") }
    func status(_ field: String) -> Double {
        let status = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
        let kb = status.split(separator: "\n").first { $0.hasPrefix(field) }?.split(separator: " ").dropFirst().first.flatMap { Double($0) } ?? 0
        return kb / 1024
    }
    func stop() { process.terminate(); process.waitUntilExit() }
}

func post(_ base: String, _ account: Account, _ body: String) async throws -> Double {
    var request = HTTPClientRequest(url: "\(base)/v1/accounts/\(account.id)/events")
    request.method = .POST
    request.headers.add(name: "Authorization", value: "Bearer \(account.token)")
    request.headers.add(name: "Content-Type", value: "application/json")
    request.body = .bytes(ByteBuffer(string: body))
    let start = ContinuousClock.now
    let response = try await HTTPClient.shared.execute(request, timeout: .seconds(120))
    let bytes = try await response.body.collect(upTo: 1 << 24)
    guard response.status.code == 200 else { throw NSError(domain: "push \(response.status.code): \(String(buffer: bytes))", code: 1) }
    return (ContinuousClock.now - start).seconds
}

/// Pushes `events` events of history (then `extra(account)`) into each account in batches of 500, `inFlight` accounts at a time.
func fill(
    _ base: String, _ accounts: [Account], events: Int, inFlight: Int,
    extra: @escaping @Sendable (Account) -> [String] = { _ in [] }
) async throws {
    try await withThrowingTaskGroup(of: Void.self) { group in
        var next = 0
        func add() {
            let a = accounts[next]; next += 1
            group.addTask {
                let all = Bodies.history(events) + extra(a)
                for start in stride(from: 0, to: all.count, by: 500) {
                    _ = try await post(base, a, Bodies.batch(Array(all[start..<min(start + 500, all.count)])))
                }
            }
        }
        for _ in 0..<min(inFlight, accounts.count) { add() }
        while try await group.next() != nil { if next < accounts.count { add() } }
    }
}

/// A gauge's value in the server's `/metrics` (0 when absent).
func gauge(_ base: String, _ name: String) async throws -> Double {
    let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: "\(base)/metrics"), timeout: .seconds(10))
    let text = String(buffer: try await response.body.collect(upTo: 1 << 24))
    return text.split(separator: "\n").first { $0.hasPrefix(name + " ") }?.split(separator: " ").last.flatMap { Double($0) } ?? 0
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}

/// The envelopes in a page: occurrences of `{"position":`, counted on the bytes.
func envelopes(in body: ByteBuffer) -> Int {
    let needle = Array(#"{"position":"#.utf8)
    return body.withUnsafeReadableBytes { raw in
        var count = 0
        var i = 0
        while i + needle.count <= raw.count {
            if raw[i] == needle[0], raw[i + 1] == needle[1], raw[i + 2] == needle[2],
                (0..<needle.count).allSatisfy({ raw[i + $0] == needle[$0] })
            {
                count += 1
                i += needle.count
            } else {
                i += 1
            }
        }
        return count
    }
}

func percentile(_ sorted: [Double], _ p: Double) -> Double {
    guard !sorted.isEmpty else { return 0 }
    return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
}

let o = Options.parse(Array(CommandLine.arguments.dropFirst()))
let work = URL(fileURLWithPath: o.work)
try? FileManager.default.removeItem(at: work)
try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
nonisolated(unsafe) var results: [(String, String)] = []
func report(_ name: String, _ value: String) { results.append((name, value)); say("  \(name): \(value)") }
if !o.real.isEmpty {
    try await RealAccountBench(options: o, work: work.path).run()
    exit(0)
}
if o.clients > 0 {
    try await RosterBench(options: o, work: work.path).run()
    exit(0)
}
if o.replicaBench {
    try await ReplicaBench(options: o, work: work.path).run()
    exit(0)
}
let data = work.appendingPathComponent("server").path
say("repledger-server-bench: \(o.accounts) accounts × \(o.events) events, \(o.devices) devices for \(o.seconds) s, catch-up of \(o.catchUp)")

var created: [Account] = []
for i in 0...o.accounts {
    let out = try run(o.ledger, ["server", "account", "create", "lifter-\(i)", "--data", data, "--json"])
    let json = try JSONSerialization.jsonObject(with: Data(out.utf8)) as! [String: Any]
    created.append(Account(id: json["accountId"] as! String, token: json["token"] as! String))
}
let big = created.removeLast()
let accounts = created
let server = try Server(ledger: o.ledger, data: data)
let base = "http://127.0.0.1:\(server.port)"

// 1. Fill: every account's history, 8 accounts in flight.
let fillStart = ContinuousClock.now
try await fill(base, accounts, events: o.events, inFlight: 8)
let fillSeconds = (ContinuousClock.now - fillStart).seconds
report(
    "fill: \(o.accounts) accounts × \(o.events) events, batches of 500",
    String(format: "%.0f events/s (%.1f s)", Double(o.accounts * o.events) / fillSeconds, fillSeconds))

// 2. Load: each device starts a workout in its account, then pushes one set per request.
let deadline = ContinuousClock.now + .milliseconds(Int(o.seconds * 1000))
let latencies = try await withThrowingTaskGroup(of: [Double].self) { group in
    for d in 0..<o.devices {
        let a = accounts[d % accounts.count]
        group.addTask {
            let w = UUID().uuidString.lowercased()
            _ = try await post(base, a, Bodies.batch([Bodies.started(w)]))
            var mine: [Double] = []
            var i = 0
            while ContinuousClock.now < deadline {
                mine.append(try await post(base, a, Bodies.batch([Bodies.set(w, i)])))
                i += 1
            }
            return mine
        }
    }
    var all: [Double] = []
    while let some = try await group.next() { all += some }
    return all.sorted()
}
report("load: \(o.devices) devices, single-set pushes for \(Int(o.seconds)) s", String(format: "%.0f pushes/s", Double(latencies.count) / o.seconds))
report("load: push latency p50 / p99", String(format: "%.2f ms / %.2f ms", percentile(latencies, 0.5) * 1000, percentile(latencies, 0.99) * 1000))

// 2b. Warm folds: a tenth of the accounts read (their folds stay warm), then the server's RSS
// and what /metrics says is warm, under the default --warm-memory budget.
let rssBefore = server.rssMiB
let warmed = Array(accounts.prefix(max(1, accounts.count / 10)))
let warmStart = ContinuousClock.now
for a in warmed {
    var request = HTTPClientRequest(url: "\(base)/v1/accounts/\(a.id)/history?limit=20")
    request.headers.add(name: "Authorization", value: "Bearer \(a.token)")
    let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
    _ = try await response.body.collect(upTo: 1 << 24)
}
let warmSeconds = (ContinuousClock.now - warmStart).seconds
let warmGauge = String(format: "%.0f", try await gauge(base, "repledger_warm_accounts"))
report(
    "warm: \(warmed.count) of \(accounts.count) accounts read once (cold folds loaded)",
    String(format: "%.1f ms each; RSS %.0f → %.0f MiB", warmSeconds * 1000 / Double(warmed.count), rssBefore, server.rssMiB)
        + "; warm accounts: \(warmGauge) (budget 512 MiB)")

// 3. Catch-up: an account of o.catchUp events, pulled in pages of 10,000.
let bigEvents = Bodies.history(o.catchUp)
for start in stride(from: 0, to: bigEvents.count, by: 5000) {
    _ = try await post(base, big, Bodies.batch(Array(bigEvents[start..<min(start + 5000, bigEvents.count)])))
}
let pullStart = ContinuousClock.now
var pulled = 0
var bytes = 0
// Pages are counted, not parsed: what is measured is the server's answer.
for after in stride(from: 0, to: o.catchUp, by: 10000) {
    var request = HTTPClientRequest(url: "\(base)/v1/accounts/\(big.id)/events?after=\(after)&limit=10000")
    request.headers.add(name: "Authorization", value: "Bearer \(big.token)")
    let response = try await HTTPClient.shared.execute(request, timeout: .seconds(120))
    let body = try await response.body.collect(upTo: 1 << 30)
    bytes += body.readableBytes
    pulled += envelopes(in: body)
}
let pullSeconds = (ContinuousClock.now - pullStart).seconds
report(
    "catch-up: pull \(pulled) events in pages of 10,000",
    String(format: "%.0f events/s (%.2f s, %.0f MB/s)", Double(pulled) / pullSeconds, pullSeconds, Double(bytes) / pullSeconds / 1e6))
report("server peak RSS", String(format: "%.0f MiB", server.peakRSSMiB))
server.stop()

print("| workload | figure |\n| --- | --- |")
for (name, value) in results { print("| \(name) | \(value) |") }
if let json = o.json {
    let object = Dictionary(uniqueKeysWithValues: results)
    try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys]).write(to: URL(fileURLWithPath: json))
}
try? FileManager.default.removeItem(at: work)
