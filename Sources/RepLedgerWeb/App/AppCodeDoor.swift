/// How `ledger app` lets a browser in with no account page: the address it prints carries a one-time code,
/// and opening it trades the code for an app session of the one account whose log is the device's file, on
/// the token `ledger app` made for the browser (device "app", so what it records says where it came from).
package struct AppCodeDoor: Sendable {
    package let account: String
    package let tokenHash: [UInt8]
    package let codes = OneTimeCodes()

    package init(account: String, tokenHash: [UInt8]) {
        self.account = account
        self.tokenHash = tokenHash
    }
}
