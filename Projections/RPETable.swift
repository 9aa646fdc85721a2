import Foundation

/// Reactive Training Systems' RPE chart (Mike Tuchscherer; "Beginning RTS",
/// articles.reactivetrainingsystems.com, 2015): the percent of a one-rep max
/// a set of `reps` at an RPE is. It depends on reps + reps in reserve
/// (10 − RPE) alone, in half steps, so one row of 30 values holds the chart:
/// 1 rep at RPE 10 is 100 %, and each half step further from a max takes the
/// next value, down to 15.5 (12 reps at RPE 6.5).
public enum RPETable {
    static let percents: [Double] = [
        100.0, 97.8, 95.5, 93.9, 92.2, 90.7, 89.2, 87.8, 86.3, 85.0, 83.7, 82.4, 81.1, 79.9, 78.6,
        77.4, 76.2, 75.1, 73.9, 72.3, 70.7, 69.4, 68.0, 66.7, 65.3, 64.0, 62.6, 61.3, 59.9, 58.6,
    ]

    /// The chart's percent for `reps` (1–12) at `rpe` (6.5–10, to the nearest half); nil outside it.
    public static func percent(reps: Int, rpe: Double) -> Double? {
        let half = (rpe * 2).rounded() / 2
        guard (1...12).contains(reps), (6.5...10).contains(half) else { return nil }
        let index = (reps - 1) * 2 + Int(((10 - half) * 2).rounded())
        return index < percents.count ? percents[index] : nil
    }
}
