import RepLedgerService
import Testing

/// What a sign-in limit counts as one source: an IPv4 address, or an IPv6 address's /64 (a
/// subscriber's whole network, where a host may take any address it likes).
@Suite struct SignInSourceTests {
    @Test func anIPv6SourceCountsByItsSlash64() {
        #expect(SourceAddress.key("192.0.2.7") == "192.0.2.7")
        let network = "2001:db8:1:2::/64"
        #expect(SourceAddress.key("2001:db8:1:2::1") == network)
        #expect(SourceAddress.key("2001:0db8:0001:0002:ffff:aaaa:bbbb:cccc") == network)
        #expect(SourceAddress.key("2001:db8:1:3::1") != network)
        #expect(SourceAddress.key("::ffff:192.0.2.7") == "192.0.2.7")
        #expect(SourceAddress.key("::1") == "0:0:0:0::/64")
        #expect(SourceAddress.key("unknown") == "unknown")
    }
}
