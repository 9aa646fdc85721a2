#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The source a sign-in limit counts. An IPv4 address is one source; an IPv6 address counts by its
/// /64, the network one subscriber is given (a host there can take a new address for every request);
/// an IPv4 address written as IPv6 (`::ffff:192.0.2.1`) counts as the IPv4 address it is.
public enum SourceAddress {
    /// `192.0.2.1` → `192.0.2.1`; `2001:db8:1:2:aaaa::1` → `2001:db8:1:2::/64`; anything else as given.
    public static func key(_ address: String) -> String {
        var bytes = [UInt8](repeating: 0, count: 16)
        guard address.contains(":"), inet_pton(AF_INET6, address, &bytes) == 1 else { return address }
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
            return bytes[12...].map(String.init).joined(separator: ".")
        }
        let groups = stride(from: 0, to: 8, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
        return groups.joined(separator: ":") + "::/64"
    }
}
