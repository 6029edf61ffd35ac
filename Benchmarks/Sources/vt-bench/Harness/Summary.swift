/// Median with min–max of one figure over the rounds of a run: how every number is reported.
struct Summary: Codable, Sendable {
    /// The middle value (the mean of the two middle ones for an even count).
    var median: Double
    /// The smallest value.
    var min: Double
    /// The largest value.
    var max: Double
    /// Every round's value, in the order measured.
    var rounds: [Double]

    /// The summary of `values` (at least one).
    init(_ values: [Double]) {
        precondition(!values.isEmpty, "a summary needs at least one value")
        let sorted = values.sorted()
        let middle = sorted.count / 2
        median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        min = sorted[0]
        max = sorted[sorted.count - 1]
        rounds = values
    }

    /// The round-by-round ratio `values[i] / baseline[i]` of two interleaved series.
    static func ratio(_ values: [Double], over baseline: [Double]) -> Summary {
        Summary(zip(values, baseline).map { $0 / $1 })
    }
}
