import Foundation
import Hummingbird

/// The methods each routed path takes, filled from the API's declarations
/// (`APIRoute`) as the router is built: the router answers a path it knows
/// with a method it does not take as it answers an unknown path, and
/// `unrouted` tells the two apart (405 with the methods to use, or 404); a
/// request's metric label is its route's. Filled while the router is built,
/// read while it serves.
final class RouteTable: @unchecked Sendable {
    struct Entry: Sendable {
        /// The path's segments: a literal, `:name` (any one segment) or `**` (one or more).
        let pattern: [String]
        let methods: [HTTPRequest.Method]
        /// Whether the route asks for a token before anything else.
        let authenticated: Bool
        let route: APIRoute
    }
    private let lock = NSLock()
    private var entries: [Entry] = []

    func add(_ route: APIRoute) {
        let entry = Entry(
            pattern: route.path.split(separator: "/").map(String.init), methods: [route.method], authenticated: route.authenticated, route: route)
        lock.withLock { entries.append(entry) }
    }

    /// The metric label of a request's path: its route's, whatever the method; nil for a path no route takes.
    func label(_ segments: [String]) -> String? { matching(segments).first?.route.metricLabel(segments: segments.count) }

    /// The routes whose pattern takes `segments`, the most literal ones only (as the router
    /// prefers `invites/accept` to `invites/:invite`).
    func matching(_ segments: [String]) -> [Entry] {
        let matched = lock.withLock { entries }.compactMap { entry in Self.literals(entry.pattern, segments).map { (entry, $0) } }
        guard let best = matched.map(\.1).max() else { return [] }
        return matched.filter { $0.1 == best }.map(\.0)
    }

    /// How many literal segments of `pattern` take `segments` → nil when it does not take them.
    static func literals(_ pattern: [String], _ segments: [String]) -> Int? {
        var count = 0
        for (i, part) in pattern.enumerated() {
            if part == "**" { return i < segments.count ? count : nil }
            guard i < segments.count else { return nil }
            if part.hasPrefix(":") { continue }
            guard part == segments[i] else { return nil }
            count += 1
        }
        return pattern.count == segments.count ? count : nil
    }
}
