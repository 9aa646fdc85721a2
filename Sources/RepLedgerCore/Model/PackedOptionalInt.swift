/// An optional integer in 8 bytes (an `Int?` takes 16 inside a struct):
/// `Int.min` stands for absent. The fold's per-set and per-workout state uses
/// it where it holds hundreds of thousands of values.
@propertyWrapper
public struct PackedOptionalInt: Sendable, Hashable {
    private var raw: Int
    public init(wrappedValue: Int?) { raw = wrappedValue ?? .min }
    public var wrappedValue: Int? {
        get { raw == .min ? nil : raw }
        set { raw = newValue ?? .min }
    }
}
