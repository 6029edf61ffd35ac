/// The candidates nearest a point, closest first, ties by id: the first `limit` of all of them
/// sorted by (distance, id), found in one pass that keeps only those `limit` in order.
///
/// `nearest` keeps a handful of a directory's clinics: inserting each candidate that beats the
/// last kept one into that short list costs less than sorting every candidate, and, unlike the
/// standard library's sort, needs no `[Range<Int>]` whose first instantiation in a process has
/// the Swift runtime look `Int: Comparable` up in every conformance record of the binary.
enum NearestFirst {
    /// Up to `limit` of `candidates` with their distances from `point` in metres, closest first;
    /// equal distances by id, and equal (distance, id) in the order given.
    static func select(
        _ candidates: [(id: String, location: Coordinate)], from point: Coordinate, limit: Int
    ) -> [(id: String, distance: Double)] {
        guard limit > 0 else { return [] }
        var kept: [(id: String, distance: Double)] = []
        kept.reserveCapacity(Swift.min(limit, candidates.count))
        for candidate in candidates {
            let found = (id: candidate.id, distance: point.distance(to: candidate.location))
            if kept.count == limit {
                guard precedes(found, kept[limit - 1]) else { continue }
                kept.removeLast()
            }
            var index = kept.count
            while index > 0 && precedes(found, kept[index - 1]) { index -= 1 }
            kept.insert(found, at: index)
        }
        return kept
    }

    /// Whether `a` comes before `b`: by distance, then by id (as `(distance, id) <` compares them).
    private static func precedes(_ a: (id: String, distance: Double), _ b: (id: String, distance: Double)) -> Bool {
        a.distance != b.distance ? a.distance < b.distance : a.id < b.id
    }
}
