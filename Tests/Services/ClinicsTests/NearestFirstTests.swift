import Testing

@testable import ClinicsService

@Suite("nearest's selection: the first `limit` by (distance, id), as a full sort gives them")
struct NearestFirstTests {
    /// What `nearest` answered before it selected in one pass: every candidate sorted by (distance, id), the first `limit`.
    static func sortedPrefix(
        _ candidates: [(id: String, location: Coordinate)], from point: Coordinate, limit: Int
    ) -> [(id: String, distance: Double)] {
        Array(
            candidates
                .map { (id: $0.id, distance: point.distance(to: $0.location)) }
                .sorted { ($0.distance, $0.id) < ($1.distance, $1.id) }
                .prefix(limit))
    }

    /// `count` candidates on a 3 × 3 grid of points, ids from a pool of 12: many share a distance,
    /// and some share both distance and id. Deterministic for `seed`.
    static func candidates(count: Int, seed: UInt64) -> [(id: String, location: Coordinate)] {
        var state = seed
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        return (0..<count).map { _ in
            (id: "c_\(next(12))", location: Coordinate(latitude: 51 + Double(next(3)), longitude: Double(next(3)) - 1))
        }
    }

    @Test(arguments: [1, 2, 5, 20, 100])
    func select_givesTheSortedPrefix_tiesByID(limit: Int) {
        let point = Coordinate(latitude: 52, longitude: 0)
        for seed: UInt64 in 1...40 {
            for count in [0, 1, limit - 1, limit, limit + 1, 70] {
                let candidates = Self.candidates(count: count, seed: seed)

                let selected = NearestFirst.select(candidates, from: point, limit: limit)
                let expected = Self.sortedPrefix(candidates, from: point, limit: limit)

                #expect(selected.map(\.id) == expected.map(\.id), "seed \(seed), \(count) candidates")
                #expect(selected.map(\.distance) == expected.map(\.distance), "seed \(seed), \(count) candidates")
            }
        }
    }

    @Test func select_ofEqualDistances_ordersByID_andCutsAtTheLimit() {
        let here = Coordinate(latitude: 51.5, longitude: -0.12)
        let candidates = ["c_d", "c_b", "c_c", "c_a"].map { (id: $0, location: here) }
        let far = (id: "c_0", location: Coordinate(latitude: 60, longitude: 0))

        let selected = NearestFirst.select(candidates + [far], from: here, limit: 3)

        #expect(selected.map(\.id) == ["c_a", "c_b", "c_c"])
        #expect(selected.allSatisfy { $0.distance == 0 })
    }

    @Test func select_withNoLimit_isEmpty() {
        let candidates = [(id: "c_a", location: Coordinate(latitude: 0, longitude: 0))]
        #expect(NearestFirst.select(candidates, from: Coordinate(latitude: 0, longitude: 0), limit: 0).isEmpty)
    }
}
