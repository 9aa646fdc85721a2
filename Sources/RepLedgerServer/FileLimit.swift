import Foundation
import Logging

#if canImport(Glibc)
    import Glibc
#endif

/// Every connection is an open file: a connection cap above what the process
/// may open leaves the server unable to accept (or to open a ledger) while
/// its accept loop retries. At start the soft limit is raised to the hard
/// one, and the cap is lowered to fit under it with room for the files the
/// server itself opens (ledgers, their journals, the key store, the
/// database's connections). NIO's accept loop backs off on EMFILE as well.
enum FileLimit {
    /// The connection cap that fits → `wanted`, or less when the file limit is lower.
    static func fit(connections wanted: Int, logger: Logger) -> Int {
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return wanted }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(resource, &raised) == 0 { limit = raised }
        }
        let files = Int(min(limit.rlim_cur, 1 << 30))
        let fits = max(16, files - max(64, files / 4))
        guard wanted > fits else { return wanted }
        logger.warning("--max-connections \(wanted) lowered to \(fits): this process may open \(files) files, and needs some for its own")
        return fits
    }

    #if canImport(Glibc)
        private static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
        private static let resource = RLIMIT_NOFILE
    #endif
}
