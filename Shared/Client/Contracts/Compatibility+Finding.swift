extension Compatibility {
    /// One difference between two versions of a contract.
    public struct Finding: Sendable, Hashable, CustomStringConvertible {
        /// What changed.
        public enum Kind: String, Sendable, CaseIterable {
            // Breaking: a deployed peer of the other version would fail.
            case serviceRemoved, operationRemoved, fieldRemoved, tagReused, typeChanged, madeRequired,
                defaultChanged, errorCodeRemoved, enumCaseRemoved, descriptionInvalid
            /// Breaking: an Input's bound lowered (older callers send longer values), or an Output's
            /// raised or removed (older readers refuse the longer values).
            case boundBroken
            // Additive: older and newer peers keep working together.
            case serviceAdded, operationAdded, fieldAdded, errorCodeAdded, enumCaseAdded
            /// A bound declared where there was none, an Input's raised, an Output's lowered.
            case boundChanged

            /// Whether a peer of the other version would fail on it.
            public var isBreaking: Bool {
                switch self {
                case .serviceAdded, .operationAdded, .fieldAdded, .errorCodeAdded, .enumCaseAdded, .boundChanged: false
                default: true
                }
            }
        }

        /// What changed.
        public let kind: Kind
        /// The service, e.g. `clinics`.
        public let service: String
        /// Where: `operation`, `operation input`, or `Message.field`.
        public let place: String
        /// What changed, in words.
        public let detail: String

        /// Creates a finding.
        public init(_ kind: Kind, _ service: String, _ place: String, _ detail: String) {
            self.kind = kind
            self.service = service
            self.place = place
            self.detail = detail
        }

        /// Whether a peer of the other version would fail on it.
        public var isBreaking: Bool { kind.isBreaking }

        public var description: String {
            let location = place.isEmpty ? service : "\(service) \(place)"
            return "\(isBreaking ? "BREAKING" : "additive") \(kind.rawValue): \(location): \(detail)"
        }
    }
}
