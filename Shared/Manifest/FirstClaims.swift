import VerticalsWire

/// Which service claimed each value first (a user, a credential file, a replica's destination),
/// for the checks that give each service its own: a later claim is a problem naming the first.
struct FirstClaims {
    private var first: [String: String] = [:]

    /// Records that `service` claims `value`, or, when another service claimed it first, a
    /// `.duplicate` problem at `service`'s `key`: `message(other)` says why, and its values name
    /// `value` (as `detail`) and the other service.
    mutating func claim(
        _ value: String, by service: String, key: String, detail: String, _ message: (_ other: String) -> String
    ) -> ManifestError? {
        guard let other = first[value] else {
            first[value] = service
            return nil
        }
        return ManifestError(
            .duplicate, service: service, key: key, message(other),
            values: [ErrorDetail(detail, value), ErrorDetail("other", other)])
    }
}
