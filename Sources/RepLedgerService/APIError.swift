import RepLedgerAccounts
import RepLedgerCore
import RepLedgerQueries

/// Every non-2xx answer: `{"error":{"code","message",…}}` with a stable code (SERVER-CONTRACT.md §3).
public struct APIError: Error, Sendable, Equatable {
    public var status: Int
    public var code: String
    public var message: String
    /// `stream`, `expected`, `actual`, `eventId` where they apply.
    public var details: [String: String] = [:]
    /// What the server's log says beside the answer (a 503's cause): never sent to the client.
    public var logDetail: String?
    /// Sent as `Retry-After` (a 429, a 503 the client may retry).
    public var retryAfterSeconds: Int?
    /// Headers sent beside the error (a 429's `RateLimit` and `RateLimit-Policy`).
    public var headers: [String: String] = [:]

    public init(
        status: Int, code: String, message: String, details: [String: String] = [:], logDetail: String? = nil, retryAfterSeconds: Int? = nil,
        headers: [String: String] = [:]
    ) {
        self.headers = headers
        self.status = status
        self.code = code
        self.message = message
        self.details = details
        self.logDetail = logDetail
        self.retryAfterSeconds = retryAfterSeconds
    }

    public static func badRequest(_ message: String) -> APIError { APIError(status: 400, code: "badRequest", message: message) }
    public static let unauthorized = APIError(
        status: 401, code: "unauthorized",
        message: "give a valid token: Authorization: Bearer TOKEN (see `ledger server token create`)")
    public static func forbidden(_ message: String) -> APIError { APIError(status: 403, code: "forbidden", message: message) }
    /// 403 `scope`: the token is valid but made for less than this (`ledger server token create --scope`).
    public static func scope(_ message: String, eventId: String? = nil) -> APIError {
        APIError(status: 403, code: "scope", message: message, details: eventId.map { ["eventId": $0] } ?? [:])
    }
    /// A refusal of the account directory: a full set of devices is a conflict (revoke one), the rest bad input.
    public static func directory(_ failure: AccountDirectory.Failure) -> APIError {
        if case .tooManyDevices = failure { return APIError(status: 409, code: "deviceLimit", message: failure.description) }
        return .badRequest(failure.description)
    }
    public static func notFound(_ message: String) -> APIError { APIError(status: 404, code: "notFound", message: message) }
    public static let tooLarge = APIError(status: 413, code: "tooLarge", message: PushBatch.Malformed.tooLarge.description)
    public static func storage(_ message: String) -> APIError { APIError(status: 503, code: "storage", message: message) }
    public static let erased = APIError(
        status: 410, code: "erased",
        message: "this account was erased: its events can never be read, and none are served")

    public var json: JSONValue {
        var fields: [(String, JSONValue)] = [("code", .string(code)), ("message", .string(message))]
        for key in ["stream", "expected", "actual", "eventId"] {
            guard let v = details[key] else { continue }
            fields.append((key, Int64(v).map { .int($0) } ?? .string(v)))
        }
        return .object([("error", .object(fields))])
    }

    /// The answer for an error of the core: refusals are 422 with the core's
    /// name, concurrency conflicts 409, a query's unknown workout or exercise
    /// 404, bad parameters 400, storage failures 503 (one line, no internals).
    public static func from(_ error: Error, query: Bool = false) -> APIError {
        switch error {
        case let e as APIError: return e
        case let e as PushBatch.Malformed:
            switch e {
            case .tooLarge: return .tooLarge
            case .invalid(let why): return .badRequest(why)
            }
        case let e as EventAdmission.Refused:
            return APIError(status: 422, code: e.refusal.code, message: e.refusal.description, details: ["eventId": e.eventId.lowercased])
        case let e as Refusal:
            if query {
                switch e {
                case .unknownWorkout, .unknownExercise, .ambiguousWorkout, .ambiguousExercise: return .notFound(e.description)
                default: return .badRequest(e.description)
                }
            }
            return APIError(status: 422, code: e.code, message: e.description)
        case let e as QueryError: return .badRequest(e.description)
        case let e as StoreError:
            switch e {
            case .wrongExpectedVersion(let stream, let expected, let actual):
                var details = ["stream": stream.raw, "actual": String(actual)]
                if case .exactly(let n) = expected { details["expected"] = String(n) }
                return APIError(status: 409, code: "wrongExpectedVersion", message: e.description, details: details)
            case .eventIdConflict(let id, _):
                return APIError(status: 409, code: "eventIdConflict", message: e.description, details: ["eventId": id.lowercased])
            default:
                // The database went away or is failing over: the same request may succeed in a moment.
                var answer = APIError.storage("the server's storage cannot serve this request now; try again later (the server's log says why)")
                answer.logDetail = e.description
                answer.retryAfterSeconds = 1
                return answer
            }
        case is ServerStorageFailure: return .forbidden("no such account")
        case let e as AccountKeyStore.Failure:
            if case .erased = e { return .erased }
            var answer = APIError.storage("this account's key cannot be read on this server, so its events are not served; the server's log says why")
            answer.logDetail = e.description
            return answer
        case let e as any StorageEngineFailure:
            var answer = APIError.storage("the server's storage cannot serve this request now; try again later (the server's log says why)")
            answer.logDetail = e.plainMessage
            return answer
        case let e as ChainDamage: return APIError(status: 500, code: "logDamaged", message: "\(e.description); `GET verify` names it")
        case is CodecError: return .storage("stored data cannot be read; the account's log needs `verify`")
        default: return .storage("the server could not complete the request")
        }
    }
}
