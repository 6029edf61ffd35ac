import Foundation

/// A point on the Earth (WGS 84 degrees), and the great-circle distance between two.
package struct Coordinate: Sendable, Hashable {
    /// The mean Earth radius of IUGG/WGS 84, in metres: the sphere the haversine formula assumes.
    package static let earthRadiusMetres = 6_371_008.8

    /// Latitude in degrees, -90...90.
    package var latitude: Double
    /// Longitude in degrees, -180...180.
    package var longitude: Double

    /// Creates a point.
    package init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// The great-circle distance to `other` in metres, by the haversine formula.
    ///
    /// ```swift
    /// let london = Coordinate(latitude: 51.5074, longitude: -0.1278)
    /// let manchester = Coordinate(latitude: 53.4808, longitude: -2.2426)
    /// london.distance(to: manchester)  // ≈ 262_000
    /// ```
    ///
    /// The spherical model is within 0.5% of the ellipsoid, which is far closer than a
    /// patient cares; haversine (unlike the law of cosines) stays accurate for short distances.
    package func distance(to other: Coordinate) -> Double {
        let φ1 = latitude * .pi / 180
        let φ2 = other.latitude * .pi / 180
        let Δφ = (other.latitude - latitude) * .pi / 180
        let Δλ = (other.longitude - longitude) * .pi / 180
        let a = sin(Δφ / 2) * sin(Δφ / 2) + cos(φ1) * cos(φ2) * sin(Δλ / 2) * sin(Δλ / 2)
        // min(1, …): rounding can push `a` a hair past 1 for antipodal points, and asin would give NaN.
        return 2 * Self.earthRadiusMetres * asin(min(1, a.squareRoot()))
    }

    /// Whether both parts are finite and in range; `nil` when they are, else the field at fault and why.
    package var problem: (field: String, reason: String)? {
        if !latitude.isFinite || !(-90...90).contains(latitude) {
            return ("latitude", "must be a number of degrees in -90...90 (got \(latitude))")
        }
        if !longitude.isFinite || !(-180...180).contains(longitude) {
            return ("longitude", "must be a number of degrees in -180...180 (got \(longitude))")
        }
        return nil
    }
}
