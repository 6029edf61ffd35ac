/// Whether a histogram family's samples make histograms Prometheus accepts: for each series (its
/// labels but `le`), `_bucket` samples with a number or `+Inf` as `le`, counts that never fall as
/// `le` rises, a `+Inf` bucket, a `_count` equal to it, and a `_sum`.
enum HistogramCheck {
    /// True when every series of `family` (a histogram) is whole.
    static func isValid(_ family: Exposition.Family) -> Bool {
        var buckets: [[String]: [(bound: Double, count: Double)]] = [:]
        var counts: [[String]: Double] = [:]
        var sums = Set<[String]>()
        for sample in family.samples {
            let key = sample.labels.filter { $0.0 != "le" }.sorted { $0.0 < $1.0 }.flatMap { [$0.0, $0.1] }
            guard let value = number(sample.value) else { return false }
            switch sample.name {
            case family.name + "_bucket":
                guard let le = sample.labels.first(where: { $0.0 == "le" })?.1, let bound = number(le) else {
                    return false
                }
                buckets[key, default: []].append((bound, value))
            case family.name + "_count":
                counts[key] = value
            case family.name + "_sum":
                sums.insert(key)
            default:
                return false
            }
        }
        guard Set(buckets.keys) == Set(counts.keys), Set(counts.keys) == sums else { return false }
        for (key, series) in buckets {
            let sorted = series.sorted { $0.bound < $1.bound }
            guard let last = sorted.last, last.bound == .infinity, last.count == counts[key] else { return false }
            guard zip(sorted, sorted.dropFirst()).allSatisfy({ $0.count <= $1.count && $0.bound < $1.bound }) else {
                return false
            }
        }
        return true
    }

    /// A sample value or bound as a number (`+Inf`, `-Inf` and `NaN` included).
    private static func number(_ text: String) -> Double? {
        switch text {
        case "+Inf": .infinity
        case "-Inf": -.infinity
        case "NaN": .nan
        default: Double(text)
        }
    }
}
