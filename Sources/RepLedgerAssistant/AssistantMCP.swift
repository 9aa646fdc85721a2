import Dispatch
import Foundation
import MCP
import RepLedgerCore

/// Who a call is for and what they may do: the log, whether writes are refused here, and where the
/// blocking work runs (a device's process: a global queue; a server: its own workers, by account).
public struct AssistantSession: Sendable {
    public var ledger: any AssistantLedger
    /// Why writes are refused (`--read-only`, a read key); nil when they are not.
    public var writesRefused: AssistantError?
    /// Runs the work off the caller's thread and returns when it has run (or will never run: the host is stopping).
    public var run: @Sendable (_ work: @escaping @Sendable () -> Void) async -> Void

    public init(
        ledger: any AssistantLedger, writesRefused: AssistantError? = nil,
        run: @escaping @Sendable (_ work: @escaping @Sendable () -> Void) async -> Void = { work in
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().async {
                    work()
                    done.resume()
                }
            }
        }
    ) {
        self.ledger = ledger
        self.writesRefused = writesRefused
        self.run = run
    }

    func perform<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        let outcome = Outcome<T>()
        await run { outcome.set(Result { try body() }) }
        guard let result = outcome.get() else { throw AssistantError.unavailable }
        return try result.get()
    }
}

/// What a piece of work left for the task that waited for it.
private final class Outcome<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<T, Error>?
    func set(_ r: Result<T, Error>) { lock.withLock { result = r } }
    func get() -> Result<T, Error>? { lock.withLock { result } }
}

/// The MCP server over the assistant's tools, resources and prompts (the SDK's `Server`, on
/// whichever transport the host starts it: stdio for `ledger mcp`, Streamable HTTP for `/mcp`).
public enum AssistantMCP {
    /// - Parameters:
    ///   - readOnly: no write tool is offered at all (`ledger mcp --read-only`).
    ///   - session: the session of the call being handled (on HTTP, from its key); throws to refuse it.
    /// - Returns: the server, its handlers registered, for the host to start on a transport.
    public static func server(readOnly: Bool, session: @escaping @Sendable () async throws -> AssistantSession) async -> Server {
        let server = Server(
            name: "repledger", version: RepLedgerVersion.current, title: "RepLedger",
            instructions:
                "A lifter's hash-chained workout log. Weights are kilograms. Reads give the log's head; writes take it as expectedPosition, and a requestId of your own so a retry appends nothing twice.",
            capabilities: .init(
                prompts: .init(listChanged: false), resources: .init(subscribe: false, listChanged: false), tools: .init(listChanged: false)))

        await server.withMethodHandler(ListTools.self) { _ in
            let writable = try await session().writesRefused == nil
            return .init(tools: AssistantCatalog.tools(readOnly: readOnly || !writable).map(tool))
        }
        await server.withMethodHandler(CallTool.self) { params in
            let arguments = (params.arguments ?? [:]).mapValues(json)
            do {
                let s = try await session()
                let refused = readOnly ? AssistantError.readOnly(params.name) : s.writesRefused
                let answer = try await s.perform {
                    try AssistantTools.call(params.name, arguments: arguments, on: s.ledger, writesRefused: refused)
                }
                var content: [Tool.Content] = [.text(text: answer.document.rendered, annotations: nil, _meta: nil)]
                if let head = answer.head {
                    content.append(.text(text: JSONValue.object([("head", head)]).rendered, annotations: nil, _meta: nil))
                }
                return .init(content: content, structuredContent: Value?.some(value(answer.document)), isError: false)
            } catch let e as MCPError {
                throw e
            } catch {
                let document = AssistantWording.document(error)
                return .init(
                    content: [.text(text: AssistantWording.message(error), annotations: nil, _meta: nil)],
                    structuredContent: Value?.some(value(document)),
                    isError: true)
            }
        }
        await server.withMethodHandler(ListResources.self) { _ in
            .init(resources: [
                Resource(
                    name: "log", uri: "ledger://log?after=0", title: "The log from its start",
                    description: "`ledger log` lines, \(AssistantResources.logPage) at most; read on with after=the last position.",
                    mimeType: "application/jsonl")
            ])
        }
        await server.withMethodHandler(ListResourceTemplates.self) { _ in
            .init(templates: [
                Resource.Template(
                    uriTemplate: AssistantResources.workoutTemplate, name: "workout", title: "A workout",
                    description: "The `workout` tool's document for a workout id (or a unique prefix, or last).", mimeType: "application/json"),
                Resource.Template(
                    uriTemplate: AssistantResources.logTemplate, name: "log", title: "The log after a position",
                    description: "`ledger log` lines after the position, \(AssistantResources.logPage) at most.", mimeType: "application/jsonl"),
            ])
        }
        await server.withMethodHandler(ReadResource.self) { params in
            let s = try await session()
            let uri = params.uri
            do {
                let (text, mimeType) = try await s.perform { try AssistantResources.read(uri, on: s.ledger) }
                return .init(contents: [.text(text, uri: uri, mimeType: mimeType)])
            } catch {
                throw MCPError.invalidParams(AssistantWording.message(error))
            }
        }
        await server.withMethodHandler(ListPrompts.self) { _ in
            .init(
                prompts: AssistantPrompts.all.map { p in
                    Prompt(
                        name: p.name, description: p.description,
                        arguments: p.arguments.map { .init(name: $0.name, description: $0.description, required: false) })
                })
        }
        await server.withMethodHandler(GetPrompt.self) { params in
            do {
                let text = try AssistantPrompts.text(params.name, arguments: params.arguments ?? [:])
                let description = AssistantPrompts.all.first { $0.name == params.name }?.description
                return .init(description: description, messages: [.user(.text(text: text))])
            } catch {
                throw MCPError.invalidParams(AssistantWording.message(error))
            }
        }
        return server
    }

    static func tool(_ t: AssistantTool) -> Tool {
        Tool(
            name: t.name, title: t.title, description: t.description, inputSchema: value(t.inputSchema),
            annotations: t.writes
                ? .init(title: t.title, readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false)
                : .init(title: t.title, readOnlyHint: true, openWorldHint: false))
    }

    // MARK: Between the SDK's values and the ledger's JSON

    static func json(_ v: Value) -> JSONValue {
        switch v {
        case .null: .null
        case .bool(let b): .bool(b)
        case .int(let i): .int(Int64(i))
        case .double(let d): .number(d)
        case .string(let s): .string(s)
        case .data(_, let d): .string(d.base64EncodedString())
        case .array(let items): .array(items.map(json))
        case .object(let fields): .object(fields.sorted { $0.key < $1.key }.map { ($0.key, json($0.value)) })
        }
    }

    static func value(_ j: JSONValue) -> Value {
        switch j {
        case .null: .null
        case .bool(let b): .bool(b)
        case .int(let i): .int(Int(i))
        case .number(let d): .double(d)
        case .string(let s): .string(s)
        case .array(let items): .array(items.map(value))
        case .object(let fields): .object(Dictionary(fields.map { ($0.0, value($0.1)) }, uniquingKeysWith: { _, last in last }))
        case .raw(let text): (try? JSONReader.parse(text)).map(value) ?? .string(text)
        }
    }
}
