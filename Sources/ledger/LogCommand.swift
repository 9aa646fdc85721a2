import ArgumentParser
import LedgerShell
import RepLedgerCore
import RepLedgerQueries

struct LogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log", abstract: "The raw event log, in position order (JSON Lines with --json).",
        discussion: """
            Examples:
              ledger log --type SetLogged --since 2026-11-01
              ledger log --correlation 3f2a9c  # what one command, import, sync or request appended
              ledger log --caused-by 1042      # the events of the command that appended #1042
              ledger log --device watch --grep "grip"
              ledger log --touching exercise "Bench Press"  # its sets, swaps, edits and merges
            """)
    @OptionGroup var global: GlobalOptions
    @OptionGroup var asOf: AsOfOption
    @Option(help: "Only this stream, e.g. workout-<id>, library, account.") var stream: String?
    @Option(help: "Only this event type (repeatable), e.g. SetLogged.") var type: [String] = []
    @Option(help: "Start at this position.") var from: Int64 = 1
    @Option(help: "Only events recorded at or after this time (ISO 8601).") var since: String?
    @Option(help: "Only events recorded at or before this time (ISO 8601).") var until: String?
    @Option(help: "Only events recorded by this device.") var device: String?
    @Option(help: "Only the events of this correlation (a command, an import run, a sync push, a request): its id or a prefix.")
    var correlation: String?
    @Option(help: "Only the events of the command that appended the event at this position, and those it caused.") var causedBy: Int64?
    @Option(help: "Only events whose names or notes hold this text (any case).") var grep: String?
    @Option(
        parsing: .upToNextOption,
        help: ArgumentHelp(
            "Every event that touched one exercise, workout or set, through edits, swaps, moves and merges.",
            valueName: "exercise|workout|set ID"))
    var touching: [String] = []

    func validate() throws {
        if !touching.isEmpty, touching.count != 2 || LogPageQuery.Touching.Kind(rawValue: touching[0]) == nil {
            throw ValidationError(#"--touching takes exercise, workout or set and its id or name, e.g. --touching exercise "Bench Press""#)
        }
        for t in type where EventCatalog.entry(named: t) == nil {
            throw ValidationError("unknown event type '\(t)'; known: \(EventCatalog.entries.map(\.type.name).joined(separator: ", "))")
        }
    }

    func run() throws {
        // A damaged log is still shown (it is where the damage is looked for), then said (exit 3).
        let (store, damage) = try global.openForAudit()
        var filter = LogPageQuery.Filter()
        (filter.device, filter.correlation, filter.causedBy, filter.grep) = (device, correlation, causedBy, grep)
        if let kind = touching.first.flatMap(LogPageQuery.Touching.Kind.init), touching.count == 2 {
            filter.touching = LogPageQuery.Touching(kind: kind, reference: touching[1])
        }
        filter = try filter.resolved(in: store)
        var query = EventQuery(stream: stream.map(StreamName.init), types: type.isEmpty ? nil : type, from: from)
        query.throughPosition = try asOf.position(in: store)
        query.recordedFrom = try since.map(parseTime)
        query.recordedThrough = try until.map(parseTime)
        try store.read(query) { e in
            guard filter.admits(e) else { return }
            if global.json {
                Console.out(e.canonicalJSON)
            } else {
                Console.out("#\(e.position)  \(e.occurredAt.iso8601)  \(e.stream.raw) v\(e.version)  \(e.type.name)  \(e.event.payloadJSON)")
            }
        }
        if let damage { throw damage }
    }
}

struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify", abstract: "Check the hash chain of the whole log; exits 3 at the first bad position.")
    @OptionGroup var global: GlobalOptions

    func run() throws {
        // Read-only: verify works on a full disk, a read-only file, and never changes what it checks.
        let store = try global.openReadOnly()
        let report = try store.verify()
        if global.json {
            Console.json(VerifyQuery.document(report))
        } else if report.ok {
            Console.out("ok: \(report.events) events, chain intact. Head hash \(report.headHash)")
        }
        if let bad = report.firstBadPosition {
            throw IntegrityFailure(position: bad, reason: report.reason ?? "unknown")
        }
    }
}
