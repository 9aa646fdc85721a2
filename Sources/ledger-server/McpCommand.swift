import ArgumentParser
import Foundation
import LedgerShell
import MCP
import RepLedgerAssistant
import RepLedgerCore
import RepLedgerSnapshots

/// `ledger mcp`: this device's ledger served to an AI assistant over MCP on stdin and stdout.
struct McpCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mcp", abstract: ServerCommands.mcpAbstract,
        discussion: """
            Speaks the Model Context Protocol on stdin and stdout (start it from the assistant's \
            configuration, not by hand). Read tools answer the CLI's --json documents; write tools \
            (start_workout, log_set, edit_set, complete_set, uncomplete_set, delete_set, duplicate_set, add_exercise, \
            remove_exercise, swap_exercise, link_superset, rest_timer, finish_workout, discard_workout, \
            add_note, log_bodyweight) take the head \
            the assistant last read as expectedPosition, and refuse if you recorded anything since, and \
            a requestId, so a retried call appends nothing twice. Events it records carry the device \
            name `assistant`. --read-only offers no write tool at all. \(ServerCommands.whereItRuns)

            Example (an MCP client's configuration):
              {"mcpServers": {"repledger": {"command": "ledger", "args": ["mcp", "--db", "/path/to/repledger.sqlite"]}}}
            """)
    @OptionGroup var global: GlobalOptions
    @Flag(help: "Offer the read tools only: nothing can be recorded.") var readOnly = false

    func run() throws {
        let ledger: Ledger
        if readOnly {
            ledger = Ledger(store: try global.openReadOnly(), device: Self.device)
        } else {
            ledger = Ledger(store: try global.openOrCreateStore(), device: Self.device)
            ledger.afterAppend = { try SnapshotPolicy.apply($0) }
        }
        let session = AssistantSession(ledger: DeviceAssistantLedger(ledger))
        let readOnly = self.readOnly
        try blockingRun {
            let server = await AssistantMCP.server(readOnly: readOnly) { session }
            try await server.start(transport: StdioTransport())
            await server.waitUntilCompleted()
        }
    }

    /// The `device` of what the assistant records: the log says who wrote each event.
    static let device = "assistant"
}
