import Foundation

/// `split_templates.json`, the data programs are generated from: which splits
/// exist for each number of training days (in the file's order), what each is
/// for, and each split's sessions as sized for an hour. The core reads the
/// copy `.ci/embed-data` embeds; `decode` reads any other copy the same way,
/// so a test can show that an edited file changes what is generated.
public struct SplitTemplateFile: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public var split: Split
        public var days: Int
        public var explanation: String
        public var sessions: [SlotTemplates.Session]
    }

    /// Why a split file was refused, naming the place in the file.
    public enum Problem: Error, Equatable, CustomStringConvertible {
        case notJSON(String)
        case unknownSplit(String)
        case missingSplit(String)
        case repeatedSplit(String)
        case daysOutOfRange(split: String, days: Int)
        case sessionsDoNotMatchDays(split: String, days: Int, sessions: Int)
        case unknownMainLift(session: String, name: String)
        case unknownMuscle(session: String, name: String)
        case emptySession(String)

        public var description: String {
            switch self {
            case .notJSON(let why): "split_templates.json is not the expected JSON: \(why)"
            case .unknownSplit(let n): "split_templates.json names a split the generator does not know: \(n)"
            case .missingSplit(let n): "split_templates.json leaves out the split \(n)"
            case .repeatedSplit(let n): "split_templates.json lists \(n) twice"
            case .daysOutOfRange(let s, let d): "split_templates.json gives \(s) \(d) days; a split has 1 to 6"
            case .sessionsDoNotMatchDays(let s, let d, let n): "split_templates.json gives \(s) \(d) days but \(n) sessions"
            case .unknownMainLift(let s, let n): "split_templates.json: \(s) names an unknown main lift \(n)"
            case .unknownMuscle(let s, let n): "split_templates.json: \(s) names an unknown muscle \(n)"
            case .emptySession(let s): "split_templates.json: \(s) has no exercises"
            }
        }
    }

    public var entries: [Entry]

    /// The file as embedded in the core.
    public static let embedded: SplitTemplateFile = {
        do throws(Problem) { return try decode(Data(text.utf8)) } catch {
            // The embedded copy is checked by CI (.ci/embed-data --check) and by the split tests.
            preconditionFailure(error.description)
        }
    }()

    public func entry(_ split: Split) -> Entry {
        // decode refuses a file that leaves a split out.
        entries.first { $0.split == split }!
    }

    /// The splits for a number of training days, in the file's order.
    public func options(days: Int) -> [Split] { entries.filter { $0.days == days }.map(\.split) }

    private struct Raw: Decodable {
        struct RawSplit: Decodable {
            var name: String
            var days: Int
            var explanation: String
            var sessions: [RawSession]
        }

        struct RawSession: Decodable {
            var name: String
            var mainLifts: [String]
            var muscles: [String]
        }

        var splits: [RawSplit]
    }

    public static func decode(_ data: Data) throws(Problem) -> SplitTemplateFile {
        let raw: Raw
        do { raw = try JSONDecoder().decode(Raw.self, from: data) } catch { throw .notJSON(String(describing: error)) }
        var entries: [Entry] = []
        for s in raw.splits {
            guard let split = Split(rawValue: s.name) else { throw .unknownSplit(s.name) }
            guard !entries.contains(where: { $0.split == split }) else { throw .repeatedSplit(s.name) }
            guard (1...6).contains(s.days) else { throw .daysOutOfRange(split: s.name, days: s.days) }
            guard s.sessions.count == s.days else { throw .sessionsDoNotMatchDays(split: s.name, days: s.days, sessions: s.sessions.count) }
            var sessions: [SlotTemplates.Session] = []
            for r in s.sessions {
                var slots: [SlotTemplates.Slot] = []
                for name in r.mainLifts {
                    guard let lift = SlotTemplates.MainLift(rawValue: name) else { throw .unknownMainLift(session: r.name, name: name) }
                    slots.append(.main(lift))
                }
                for name in r.muscles {
                    guard let muscle = Muscle(rawValue: name) else { throw .unknownMuscle(session: r.name, name: name) }
                    slots.append(.muscle(muscle))
                }
                guard !slots.isEmpty else { throw .emptySession(r.name) }
                sessions.append(SlotTemplates.Session(name: r.name, slots: slots))
            }
            entries.append(Entry(split: split, days: s.days, explanation: s.explanation, sessions: sessions))
        }
        if let missing = Split.allCases.first(where: { s in !entries.contains { $0.split == s } }) { throw .missingSplit(missing.rawValue) }
        return SplitTemplateFile(entries: entries)
    }
}
