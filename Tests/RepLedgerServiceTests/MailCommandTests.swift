import Foundation
import LedgerTestSupport
import Testing

@testable import RepLedgerService

/// The mail command as the server runs it: a command that hangs past its deadline is killed with everything it
/// started, and a full queue refuses instead of growing.
@Suite struct MailCommandTests {
    @Test("a mail command past its deadline is killed with its children: none of its sleeps is left")
    func aHungCommandIsKilledWholly() throws {
        let marker = "41.\(Int.random(in: 100...999))"
        defer { _ = try? Process.run(URL(fileURLWithPath: "/usr/bin/pkill"), arguments: ["-f", "sleep \(marker)"]) }
        let mail = MailCommand(command: "sleep \(marker) & sleep \(marker); wait")
        #expect(throws: MailCommand.Failure.self) { try mail.send(to: "a@example.org", subject: "s", body: "b", deadline: 0.5) }
        let deadline = Date().addingTimeInterval(10)
        while RunningSleeps.count(marker) > 0, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(RunningSleeps.count(marker) == 0, "a timed-out mail command left its children running")
    }

    @Test("the queue sends off the caller's thread, at most two at a time, and refuses past its capacity")
    func theQueueIsBounded() throws {
        let marker = "43.\(Int.random(in: 100...999))"
        defer { _ = try? Process.run(URL(fileURLWithPath: "/usr/bin/pkill"), arguments: ["-f", "sleep \(marker)"]) }
        let queue = MailQueue(command: "sleep \(marker)")
        defer { queue.close() }
        let started = Date()
        var accepted = 0
        for i in 0..<(MailQueue.capacity + MailQueue.senders + 5) where queue.enqueue(.init(to: "p\(i)@example.org", subject: "s", body: "b")) {
            accepted += 1
        }
        // Enqueueing returned at once, though each send sleeps for 43 s.
        #expect(Date().timeIntervalSince(started) < 20)
        #expect(accepted >= MailQueue.capacity && accepted <= MailQueue.capacity + MailQueue.senders, "\(accepted)")
        let deadline = Date().addingTimeInterval(10)
        while RunningSleeps.count(marker) < MailQueue.senders, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(RunningSleeps.count(marker) == MailQueue.senders)
        // Closed, it kills what runs and drops what waits: no sleep is left, none starts.
        queue.close()
        let closing = Date().addingTimeInterval(10)
        while RunningSleeps.count(marker) > 0, Date() < closing { Thread.sleep(forTimeInterval: 0.05) }
        #expect(RunningSleeps.count(marker) == 0)
        #expect(!queue.enqueue(.init(to: "late@example.org", subject: "s", body: "b")))
    }
}
