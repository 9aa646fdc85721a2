import RepLedgerCore
import RepLedgerProjections

/// How history and summary print a session's kind, feeling and closing note.
enum SessionText {
    /// "running · felt 4/5 — Legs heavy", or nil when there is nothing beyond a strength session's defaults.
    static func closing(_ w: WorkoutHistoryProjection.WorkoutRow) -> String? {
        let parts = [
            w.deload ? "deload" : nil, w.activity == .strength ? nil : kebab(w.activity.rawValue),
            w.feeling.map { "felt \($0)/5" },
        ].compactMap { $0 }
        let note = w.closingNote.map { " — \($0)" } ?? ""
        guard !parts.isEmpty || !note.isEmpty else { return nil }
        return (parts.isEmpty ? "closing note" : parts.joined(separator: " · ")) + note
    }
}
