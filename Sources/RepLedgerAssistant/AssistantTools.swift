import RepLedgerCore
import RepLedgerQueries

/// One tool call, from its name and arguments to its answer: the checks every tool shares (known
/// tool, known arguments, writes allowed) and then the read or the write.
public enum AssistantTools {
    public struct Answer: Sendable {
        public var document: JSONValue
        /// The head the read was made at (reads only).
        public var head: JSONValue?
    }

    /// Calls the tool `name` on `host`; a write is refused with `writesRefused` when that is given
    /// (a read-only server, a read key).
    public static func call(
        _ name: String, arguments: [String: JSONValue], on host: any AssistantLedger, writesRefused: AssistantError?
    ) throws -> Answer {
        guard let tool = AssistantCatalog.tool(name) else { throw AssistantError.unknownTool(name) }
        let a = AssistantArguments(arguments)
        try a.onlyKnown(tool.argumentNames)
        if tool.writes {
            if let writesRefused { throw writesRefused }
            return Answer(document: try AssistantWrites.call(name, a, on: host), head: nil)
        }
        let (document, head) = try AssistantReads.call(name, a, on: host)
        return Answer(document: document, head: head)
    }
}

extension AssistantTools {
    /// The write commands, as the command API (`POST /v1/accounts/{account}/commands`) offers them: the MCP write
    /// tools, one implementation for both front doors.
    public static var commands: [AssistantTool] { AssistantCatalog.tools(readOnly: false).filter(\.writes) }

    /// One command of the command API: a write tool by name with its arguments, `requestId` and, if given,
    /// `expectedPosition`, run exactly as the MCP tool runs it. A read tool's name is no command (queries have their
    /// own routes).
    public static func command(
        _ name: String, arguments: [String: JSONValue], on host: any AssistantLedger, writesRefused: AssistantError?
    ) throws -> JSONValue {
        guard let tool = AssistantCatalog.tool(name), tool.writes else { throw AssistantError.unknownTool(name) }
        let a = AssistantArguments(arguments)
        try a.onlyKnown(tool.argumentNames)
        if let writesRefused { throw writesRefused }
        return try AssistantWrites.call(name, a, on: host, positionRequired: false)
    }
}

/// The words an assistant reads for a refused call: one line, as the CLI words the same refusal
/// (without the CLI's flags), and for a moved log what was appended since.
public enum AssistantWording {
    public static func message(_ error: Error) -> String {
        switch error {
        case let e as AssistantError:
            switch e {
            case .unknownTool(let n):
                return "no tool '\(n)'; the tools are " + AssistantCatalog.tools(readOnly: false).map(\.name).joined(separator: ", ")
            case .unknownResource(let u):
                return "no resource '\(u)'; the resources are \(AssistantResources.workoutTemplate) and \(AssistantResources.logTemplate)"
            case .unknownPrompt(let n):
                return "no prompt '\(n)'; the prompts are " + AssistantPrompts.all.map(\.name).joined(separator: ", ")
            case .invalidArgument(let n, let why): return "\(n) \(why)"
            case .staleHead(let expected, let head, let since):
                let listed = since.map { "#\($0.position) \($0.type) (\($0.stream), \($0.device), \($0.occurredAt.iso8601))" }.joined(separator: "; ")
                return "the log moved since you read it at position \(expected): it is at \(head) now, and nothing was appended. "
                    + "Appended since: \(listed). Read again, then write with expectedPosition \(head)"
            case .readOnly(let n): return "this ledger is served read-only: \(n) records nothing here"
            case .scope(let s): return "this key's scope is '\(s)': it may read, not append (a 'log' or 'full' key may)"
            case .unavailable: return "the server is stopping; try again in a moment"
            case .requestIdReused(let id):
                return "requestId '\(id)' was used for another command or other arguments, and nothing was appended: give this one a new requestId"
            }
        case let e as Refusal: return e.description
        case let e as QueryError: return e.description
        case let e as StoreError:
            switch e {
            // A writer raced this one between its check and its append: worth reading again. Other store failures say nothing of the machine.
            case .wrongExpectedVersion, .eventIdConflict: return e.description
            default: return storageFailure
            }
        default: return storageFailure
        }
    }

    static let storageFailure = "the ledger could not answer (a storage failure); try again"

    /// The error as a document: `{"error":{"code","message",…}}`, with the head and what was appended since for a moved log.
    public static func document(_ error: Error) -> JSONValue {
        var fields: [(String, JSONValue)] = [("code", .string(code(error))), ("message", .string(message(error)))]
        if case AssistantError.staleHead(_, let head, let since) = error {
            fields.append(("head", .object([("position", .int(head))])))
            fields.append(
                (
                    "since",
                    .array(
                        since.map {
                            .object([
                                ("position", .int($0.position)), ("type", .string($0.type)), ("stream", .string($0.stream)),
                                ("device", .string($0.device)), ("occurredAt", .string($0.occurredAt.iso8601)),
                            ])
                        })
                ))
        }
        return .object([("error", .object(fields))])
    }

    static func code(_ error: Error) -> String {
        switch error {
        case let e as AssistantError:
            switch e {
            case .unknownTool: return "unknownTool"
            case .unknownResource: return "unknownResource"
            case .unknownPrompt: return "unknownPrompt"
            case .invalidArgument: return "invalidArgument"
            case .staleHead: return "stalePosition"
            case .readOnly: return "readOnly"
            case .scope: return "scope"
            case .unavailable: return "unavailable"
            case .requestIdReused: return "requestIdReused"
            }
        case let e as Refusal: return e.code
        case is QueryError: return "invalidArgument"
        case let e as StoreError:
            switch e {
            case .wrongExpectedVersion: return "wrongExpectedVersion"
            case .eventIdConflict: return "eventIdConflict"
            default: return "storage"
            }
        default: return "storage"
        }
    }
}
