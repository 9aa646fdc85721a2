import ArgumentParser
import Foundation

/// `--listen HOST:PORT` read the one way `serve`, `inspect` and `app` take it: a bracketed IPv6 host is unbracketed.
enum ListenAddress {
    static func parse(_ listen: String, example: String) throws -> (host: String, port: Int) {
        guard let colon = listen.lastIndex(of: ":"), let port = Int(listen[listen.index(after: colon)...]), (0...65535).contains(port) else {
            throw ValidationError("--listen takes HOST:PORT, e.g. \(example)")
        }
        return (String(listen[..<colon]).trimmingCharacters(in: CharacterSet(charactersIn: "[]")), port)
    }
}
