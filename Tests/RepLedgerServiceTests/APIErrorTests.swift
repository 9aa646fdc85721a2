import Foundation
import RepLedgerAccounts
import RepLedgerCore
import RepLedgerQueries
import RepLedgerService
import Testing

/// Every error of the core, the stores and the accounts becomes one answer
/// of SERVER-CONTRACT.md §3: a status, a stable code, a message, and the storage's
/// own words kept for the server's log only.
@Suite struct APIErrorTests {
    /// The field of `{"error":{…}}` named `key`.
    static func field(_ error: APIError, _ key: String) -> JSONValue? {
        guard case .object(let top) = error.json, case .object(let fields)? = top.first(where: { $0.0 == "error" })?.1 else { return nil }
        return fields.first { $0.0 == key }?.1
    }

    @Test func refusalsAre422WithTheCoresCodeAndQueriesSayNotFound() {
        let refusal = Refusal.unknownExercise("Zercher Squat")
        let pushed = APIError.from(refusal)
        #expect(pushed.status == 422 && pushed.code == refusal.code && pushed.message == refusal.description)
        let queried = APIError.from(refusal, query: true)
        #expect(queried.status == 404 && queried.code == "notFound")
        #expect(APIError.from(Refusal.noChangesGiven, query: true).status == 400)
    }

    @Test func concurrencyConflictsAre409WithTheirDetails() {
        let stream = StreamName.workout(UUID())
        let moved = APIError.from(StoreError.wrongExpectedVersion(stream: stream, expected: .exactly(3), actual: 5))
        #expect(moved.status == 409 && moved.code == "wrongExpectedVersion")
        #expect(Self.field(moved, "expected") == .int(3) && Self.field(moved, "actual") == .int(5))
        #expect(Self.field(moved, "stream") == .string(stream.raw))
        let id = UUID()
        let taken = APIError.from(StoreError.eventIdConflict(eventId: id, position: 9))
        #expect(taken.status == 409 && Self.field(taken, "eventId") == .string(id.lowercased))
    }

    @Test func storageFailuresAre503AndKeepTheirCauseOutOfTheAnswer() {
        let down = APIError.from(StoreError.database("connection refused to db.internal:5432"))
        #expect(down.status == 503 && down.code == "storage" && down.retryAfterSeconds == 1)
        #expect(down.logDetail?.contains("db.internal") == true)
        #expect(!down.json.rendered.contains("db.internal"))
        #expect(APIError.from(CodecError.json(expected: "an object", found: "a number")).status == 503)
    }

    @Test func accountsAnswersNameNoInternals() {
        #expect(APIError.from(ServerStorageFailure.notAnAccountId) == .forbidden("no such account"))
        #expect(APIError.from(AccountKeyStore.Failure.erased(account: "a")) == .erased)
        #expect(APIError.from(PushBatch.Malformed.tooLarge) == .tooLarge)
        #expect(APIError.from(PushBatch.Malformed.invalid("events takes an array")).status == 400)
    }
}
