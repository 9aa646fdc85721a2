import Foundation

/// How a store's payload column holds a payload: sealed under the account's
/// key (bound to the event's id), or in clear as on a device. The one place
/// a store seals what it writes, opens what it reads, and decodes an event
/// for replay, so no store branches on encryption itself.
public struct PayloadSeal: Sendable {
    public let cipher: PayloadCipher?

    public init(_ cipher: PayloadCipher?) { self.cipher = cipher }

    /// The bytes to store for `payload`.
    public func sealed(_ payload: [UInt8], eventId: UUID) throws -> [UInt8] {
        guard let cipher else { return payload }
        return try cipher.seal(payload, context: eventId.bytes16)
    }

    /// Calls `body` with the plaintext of a stored payload column. A column
    /// that does not open is the row's `unreadableEvent`.
    @inline(__always)
    public func open<T>(
        _ stored: UnsafeRawBufferPointer, eventId: UnsafeRawBufferPointer, position: Int64,
        _ body: (UnsafeRawBufferPointer) throws -> T
    ) throws -> T {
        guard let cipher else { return try body(stored) }
        do {
            return try cipher.open(stored, context: eventId, body)
        } catch let failure as PayloadCipher.Failure {
            throw StoreError.unreadableEvent(position: position, reason: failure.description)
        }
    }

    /// The plaintext of a stored payload column, copied out.
    public func opened(_ stored: UnsafeRawBufferPointer, eventId: UnsafeRawBufferPointer, position: Int64) throws -> [UInt8] {
        try open(stored, eventId: eventId, position: position) { Array($0) }
    }

    /// The replay decoder: a stored payload column to its event, by the
    /// row's type code and schema (upcasting older schemas). Any failure is
    /// the row's `unreadableEvent`.
    @inline(__always)
    public func event(
        code: Int, schema: Int, stored: UnsafeRawBufferPointer, eventId: UnsafeRawBufferPointer,
        position: Int64
    ) throws -> LedgerEvent {
        do {
            return try open(stored, eventId: eventId, position: position) {
                try LedgerEvent.decode(code: code, schema: schema, payload: $0)
            }
        } catch let e as CodecError {
            throw StoreError.unreadableEvent(position: position, reason: e.description)
        }
    }
}
