import Hummingbird
import RepLedgerAssistant
import RepLedgerCore
import RepLedgerQueries
import RepLedgerService

/// `POST /v1/accounts/{account}/commands`: what a lifter does in a workout, as one command API over the deciders
/// the CLI, the kit and the assistant's write tools run (`AssistantTools.command`: the MCP write tools are the same
/// commands). The body is `{"command","args","requestId","expectedPosition"?}`; `requestId` names the command's
/// event ids, so a retry (an app's outbox resending after a lost answer) appends nothing and answers as the first
/// time, on any server process, for as long as the log holds the events. Without `expectedPosition` the deciders'
/// own checks stand alone, as for a device's push.
extension LedgerRoutes {
    /// The largest command body: a command's arguments are small.
    static let maximumCommandBody = 16 << 10

    func commandRoutes() -> [APIRoute] {
        [
            APIRoute(.post, "v1/accounts/:account/commands", .token) { request, context in
                let caller = try context.authenticated(), id = context.segment("account")
                let command = try Self.command(try await Self.smallBody(request))
                if caller.scope == .read { throw APIError.scope("this token's scope is 'read': it may not record (a 'log' or 'full' token may)") }
                return Self.json(
                    try await blocking { [api] in
                        let log = try api.authorize(caller, account: id, write: true)
                        let host = AccountAssistantLedger(log: log, device: caller.device)
                        do {
                            var answer = try AssistantTools.command(command.name, arguments: command.arguments, on: host, writesRefused: nil)
                            // The workout as it stands after the command, for the screen that sent it; null once it is
                            // out of history (discarded). The command is recorded either way: its answer never fails after.
                            if case .object(var fields) = answer, case .string(let workout)? = fields.first(where: { $0.0 == "workoutId" })?.1 {
                                let summary = try? log.withLedger { ledger in
                                    try SummaryQuery.answer(ledger.store, QueryScope(warm: log.warm), workout: workout)
                                }
                                fields.append(("workout", summary.map(SummaryQuery.document) ?? .null))
                                answer = .object(fields)
                            }
                            return answer
                        } catch {
                            throw Self.commandError(error)
                        }
                    })
            }
        ]
    }

    /// A command's body read: its name, and its arguments with `requestId` and `expectedPosition` beside them.
    static func command(_ body: String) throws -> (name: String, arguments: [String: JSONValue]) {
        let f = try LedgerAPI.fields(body, allowed: ["command", "args", "requestId", "expectedPosition"])
        guard case .string(let name)? = f["command"], !name.isEmpty else {
            throw APIError.badRequest("command takes a command's name, e.g. log_set, and is required")
        }
        var arguments: [String: JSONValue] = [:]
        switch f["args"] {
        case nil, .null?: break
        case .object(let fields)?:
            for (key, value) in fields {
                guard key != "requestId", key != "expectedPosition" else {
                    throw APIError.badRequest("\(key) goes beside args, not in them")
                }
                arguments[key] = value
            }
        default: throw APIError.badRequest("args takes an object of the command's arguments")
        }
        guard let requestId = f["requestId"], requestId != .null else {
            throw APIError.badRequest("requestId is required: an id you choose for this command")
        }
        arguments["requestId"] = requestId
        if let position = f["expectedPosition"], position != .null { arguments["expectedPosition"] = position }
        return (name, arguments)
    }

    /// A refused command in the API's words: the assistant's checks as 400, 404 and 409, the deciders' as they are
    /// answered everywhere (422).
    static func commandError(_ error: Error) -> APIError {
        guard let e = error as? AssistantError else { return APIError.from(error) }
        let message = AssistantWording.message(e)
        switch e {
        case .unknownTool(let name):
            let names = AssistantTools.commands.map(\.name).joined(separator: ", ")
            return APIError(status: 404, code: "unknownCommand", message: "no command '\(name)'; the commands are \(names)")
        case .invalidArgument: return APIError(status: 400, code: "invalidArgument", message: message)
        case .staleHead(_, let head, _):
            return APIError(status: 409, code: "stalePosition", message: message, details: ["head": String(head)])
        case .scope, .readOnly: return APIError(status: 403, code: "scope", message: message)
        case .unavailable: return APIError(status: 503, code: "unavailable", message: message, retryAfterSeconds: 1)
        case .unknownResource, .unknownPrompt: return APIError(status: 404, code: "notFound", message: message)
        case .requestIdReused: return APIError(status: 409, code: "requestIdReused", message: message)
        }
    }
}
