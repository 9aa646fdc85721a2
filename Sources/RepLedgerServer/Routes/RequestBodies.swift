import Hummingbird
import NIOCore
import RepLedgerCore
import RepLedgerService

/// Reading request bodies within their limits: a push (`PushBatch.maximumBytes`,
/// refused early from its Content-Length), a small JSON body, both UTF-8 only.
extension LedgerRoutes {
    /// The body of `POST …/events`: refused (413) past `PushBatch.maximumBytes`, from its
    /// Content-Length when it gives one, else as soon as it passes the limit; UTF-8 only.
    static func pushBody(_ request: Request) async throws -> String {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > PushBatch.maximumBytes {
            try await refuseBody(request, length: length)
        }
        return try await text(request, upTo: PushBatch.maximumBytes, tooLarge: .tooLarge)
    }

    /// The body of a small JSON request (an invite, an accept): at most 16 KiB, UTF-8.
    static func smallBody(_ request: Request) async throws -> String {
        try await text(
            request, upTo: 16 << 10, tooLarge: APIError(status: 413, code: "tooLarge", message: "this request's body takes at most 16 KiB"))
    }

    /// A body read to its end as UTF-8 text: `tooLarge` as soon as it passes `limit` (a body sent
    /// without its length), and refused rather than read with replacement characters, so the log
    /// keeps exactly what was sent.
    static func text(_ request: Request, upTo limit: Int, tooLarge: APIError) async throws -> String {
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: limit)
        } catch is NIOTooManyBytesError {
            throw tooLarge
        } catch {
            throw APIError.badRequest("the body could not be read (a malformed chunk?)")
        }
        guard let text = body.getString(at: body.readerIndex, length: body.readableBytes, encoding: .utf8) ?? (body.readableBytes == 0 ? "" : nil)
        else {
            throw APIError.badRequest("the body is not UTF-8 text")
        }
        return text
    }

    /// The most of a refused body that is read (and dropped) before the 413:
    /// a client that writes its whole body before reading (Python's urllib)
    /// then gets the answer at once instead of a stalled write and a reset.
    /// Past it the connection is closed with the answer unread.
    static let maximumDiscardedBytes = 64 << 20

    /// Reads and drops what remains of a body over the limit, then refuses it
    /// (413, and the connection closes: see `AnswerContract`).
    static func refuseBody(_ request: Request, length: Int) async throws -> Never {
        if length <= maximumDiscardedBytes {
            var seen = 0
            do {
                for try await chunk in request.body {
                    seen += chunk.readableBytes
                    if seen > maximumDiscardedBytes { break }
                }
            } catch {}
        }
        throw APIError.tooLarge
    }
}
