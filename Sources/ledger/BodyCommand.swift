import ArgumentParser
import Foundation
import LedgerShell
import RepLedgerCore
import RepLedgerProjections
import RepLedgerQueries

/// `ledger body log|history|photo`: weigh-ins, measurements and progress photos (DOMAIN.md §15).
struct BodyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "body", abstract: "Your body: weigh-ins, measurements and progress photos, and their history.",
        discussion: """
            Weights in kg, lb or stone and pounds; a bare number is in your bodyweight unit \
            (`ledger settings bodyweight kg|lb|st`, else your lifting unit). Lengths in cm or in \
            (a bare number: in if you lift in lb, else cm); body fat in percent.

            Examples:
              ledger body log --weight 82.4kg
              ledger body log --waist 82cm --arms 38cm --body-fat 18%
              ledger body log --weight "13st 2lb" --at 2026-11-23T07:00:00Z
              ledger body photo ~/Pictures/front.jpg --pose front
              ledger body history
            """,
        subcommands: [Log.self, History.self, Photo.self])

    struct Log: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "log", abstract: "Record a weigh-in and body measurements → {\"measurementId\",\"measures\"}.")
        @OptionGroup var global: GlobalOptions
        @Option(help: "82.4kg, 181.5lb, 13st 2lb, or a bare number in your bodyweight unit.") var weight: String?
        @Option(help: "Waist: 82cm or 32.5in.") var waist: String?
        @Option(help: "Chest.") var chest: String?
        @Option(help: "Arms (upper arm).") var arms: String?
        @Option(help: "Thighs.") var thighs: String?
        @Option(help: "Hips.") var hips: String?
        @Option(help: "Neck.") var neck: String?
        @Option(name: .customLong("body-fat"), help: "Body fat, e.g. 18%.") var bodyFat: String?
        @OptionGroup var at: AtOption

        var given: [(BodySite, String)] {
            [(.waist, waist), (.chest, chest), (.arms, arms), (.thighs, thighs), (.hips, hips), (.neck, neck), (.bodyFat, bodyFat)]
                .compactMap { site, text in text.map { (site, $0) } }
        }

        func run() throws {
            guard weight != nil || !given.isEmpty else {
                throw Refusal.invalidMeasure(
                    "nothing", reason: "give --weight or a measurement: --waist, --chest, --arms, --thighs, --hips, --neck or --body-fat")
            }
            let ledger = try global.openLedger()
            let account = try ledger.account()
            let display = account.effectiveBodyweightDisplay
            let parsed = try weight.map { try BodyweightText.parse($0, display: display) }
            let measures = try given.map { site, text in (site: site, measure: try BodyMeasure.parse(text, site: site, lifting: account.liftingUnit))
            }
            let (weighIn, ids) = try ledger.execute(at: try at.time()) { session in
                (try parsed.map { try session.logBodyweight($0) }, measures.isEmpty ? [] : try session.logBodyMeasures(measures))
            }
            if global.json {
                Console.json(
                    .object([
                        ("measurementId", .optional(weighIn?.lowercased)),
                        (
                            "measures",
                            .array(
                                zip(measures, ids).map { m, id in
                                    .object([("site", .string(m.site.rawValue)), ("measurementId", .string(id.lowercased))])
                                })
                        ),
                    ]))
                return
            }
            let sizes = measures.map { "\(BodyMeasureText.site($0.site)) \(BodyMeasureText.show($0.measure))" }.joined(separator: ", ")
            if let parsed, let weight {
                let weighIn = "Weighed in at \(BodyweightText.show(kg: parsed.kilograms, in: BodyweightText.typedDisplay(weight) ?? display))"
                Console.out(sizes.isEmpty ? weighIn : "\(weighIn); \(sizes)")
            } else {
                Console.out("Measured \(sizes)")
            }
        }
    }

    struct History: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "history",
            abstract: "Every weigh-in, measurement and progress photo, newest first → {\"measurements\",\"measures\",\"photos\"}.",
            discussion: "Example: ledger body history --site waist")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var query: QueryOptions
        @Option(help: "Only this measurement: \(BodySite.allCases.map { kebab($0.rawValue) }.joined(separator: ", ")).") var site: String?

        func run() throws {
            let chosen = try site.map { try vocabulary(BodySite.self, "measurement", $0) }
            let log = try query.log(try global.openStore())
            let a = BodyHistoryQuery.answer(log, site: chosen)
            if global.json {
                Console.json(BodyHistoryQuery.document(a))
                return
            }
            guard !a.weighIns.isEmpty || !a.measures.isEmpty || !a.photos.isEmpty else {
                Console.out("Nothing recorded yet. Add a weigh-in with `ledger body log --weight 82.4kg`, or --waist 82cm.")
                return
            }
            let display = log.account.effectiveBodyweightDisplay
            if !a.weighIns.isEmpty {
                Console.table(
                    ["Date", "Bodyweight"], a.weighIns.map { [$0.at.localText, BodyweightText.show(kg: $0.kilograms, in: display)] },
                    rightAligned: [1])
            }
            if !a.measures.isEmpty {
                Console.table(
                    ["Date", "Measurement", "Value"],
                    a.measures.map { [$0.at.localText, BodyMeasureText.site($0.site), BodyMeasureText.show($0.measure)] }, rightAligned: [2])
            }
            if !a.photos.isEmpty {
                Console.table(
                    ["Date", "Photo", "SHA-256", "File"], a.photos.map { [$0.at.localText, $0.pose.rawValue, String($0.sha256.prefix(12)), $0.path] })
            }
        }
    }

    struct Photo: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "photo",
            abstract: "Record a progress photo's date, pose and SHA-256 → {\"photoId\",\"sha256\"}; the file stays where it is.",
            discussion: """
                The photo's bytes never enter the log, which keeps its path and digest: `account erase` removes the \
                file while it still holds those bytes. A file recorded already is refused.

                Example: ledger body photo ~/Pictures/2026-11-23-front.jpg --pose front --at 2026-11-23T07:00:00Z
                """)
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The photo file.") var file: String
        @Option(help: "front, side, back or other.") var pose = "front"
        @OptionGroup var at: AtOption

        func run() throws {
            let chosen = try vocabulary(PhotoPose.self, "pose", pose)
            let url = URL(fileURLWithPath: file).standardizedFileURL
            guard let bytes = FileManager.default.contents(atPath: url.path) else {
                throw Refusal.invalidMeasure("photo '\(file)'", reason: "no readable file there")
            }
            let sha256 = Digest.sha256(Array(bytes)).hex
            let ledger = try global.openLedger()
            let body = try ledger.body()
            let id = try ledger.execute(at: try at.time()) {
                try $0.recordProgressPhoto(path: url.path, sha256: sha256, byteCount: bytes.count, pose: chosen, body: body)
            }
            respond(global, ["photoId": id.lowercased, "sha256": sha256], human: "Recorded a \(chosen.rawValue) photo (\(sha256.prefix(12)))")
        }
    }
}

/// Body measurements for people: "82 cm", "32.5 in", "18 %".
enum BodyMeasureText {
    static func show(_ m: BodyMeasure) -> String { "\(m.value.formatted) \(m.unit == .percent ? "%" : m.unit.rawValue)" }
    static func site(_ s: BodySite) -> String { s == .bodyFat ? "body fat" : s.rawValue }
}
