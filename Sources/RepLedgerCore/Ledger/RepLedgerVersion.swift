/// The release this build is: one string for `ledger --version`, the
/// server's `/v1/health` and its OpenAPI document, so they never disagree.
public enum RepLedgerVersion {
    /// The fourth release in the making; the third stands as 3.0.0.
    public static let current = "4.0.0-dev"
}
