import Foundation
import RepLedgerCore
import RepLedgerProjections
import RepLedgerQueries

/// One ledger the inspector reads, one request at a time: a device's file
/// (`ledger inspect`, opened read-only, or a bundle in memory), or an
/// account's log on the server, read under the account's own lock. Its As-of
/// folds and its counts are kept between requests: a step folds one event,
/// not the log, and the log only grows.
package final class InspectedLedger: @unchecked Sendable {
    /// Runs its argument with the store, alone (the account's lock on the server).
    private let access: ((any EventStore) throws -> Void) throws -> Void
    /// Recursive: a page reads under it and asks for its As-of views within.
    private let lock = NSRecursiveLock()
    /// The store while a read is in progress, so a read within a read does not take the store's lock again.
    private var reading: (any EventStore)?
    private let folds = AsOfFolds()
    /// How far reads have verified the chain; each read walks what was appended since.
    private var verified = ChainMark.genesis
    /// What the last read's chain check found (nil: the chain holds up to the head it read). The
    /// pages still read a damaged log, since it is where the damage is looked for, and say so on each.
    package private(set) var damage: ChainDamage?
    /// The rule set the views are read with (a bundle's own; else the built-in rules).
    package let rules: RuleSet

    /// A ledger this process alone reads (a device's file, a bundle).
    package convenience init(_ store: any EventStore, rules: RuleSet = .default) {
        self.init(rules: rules) { body in try body(store) }
    }

    /// A ledger reached through `access`, which runs its argument with the store, alone.
    package init(rules: RuleSet = .default, access: @escaping ((any EventStore) throws -> Void) throws -> Void) {
        self.rules = rules
        self.access = access
    }

    package func read<T>(_ body: (any EventStore) throws -> T) throws -> T {
        try lock.withLock {
            if let reading { return try body(reading) }
            var result: Result<T, any Error>?
            try access { store in
                reading = store
                defer { reading = nil }
                result = Result {
                    do {
                        verified = try store.verifiedHead(since: verified, headMayMoveBack: true)
                        damage = nil
                    } catch let found as ChainDamage {
                        damage = found
                    }
                    return try body(store)
                }
            }
            guard let result else { throw QueryError.invalidParameter("the ledger could not be read") }
            return try result.get()
        }
    }

    /// Counts per period of a filter, kept per head: a count reads the whole log (seconds at a million
    /// events), so each filter is counted once until the log grows.
    private var counts: [CountsKey: [(key: String, events: Int)]] = [:]
    private struct CountsKey: Hashable {
        var filter: LogPageQuery.Filter
        var period: LogPageQuery.Period
        var head: Int64
    }

    package func counts(_ filter: LogPageQuery.Filter, by period: LogPageQuery.Period) throws -> [(key: String, events: Int)] {
        try read { store in
            let key = CountsKey(filter: filter, period: period, head: try store.headPosition())
            if let kept = counts[key] { return kept }
            let made = try LogPageQuery.counts(store, filter, by: period)
            if counts.count >= 64 { counts.removeAll() }
            counts[key] = made
            return made
        }
    }

    /// Counts the whole log by week before the first page asks (`ledger inspect` does it before printing its address).
    package func warmUp() throws { _ = try counts(LogPageQuery.Filter(), by: .week) }

    /// The training log as it stood at `position`, from the kept folds.
    package func fold(at position: Int64) throws -> TrainingLogProjection {
        try read { store in try folds.log(store, at: position) }
    }

    /// The As-of views at `position`, from the kept folds.
    package func asOf(_ position: Int64) throws -> AsOfQuery.Answer {
        try read { store in try AsOfQuery.answer(store, position: position, rules: rules, folds: folds) }
    }
}
