// `daemon.contractCheck`: a caller asks, on a new connection, whether the callee serves the
// contract it was compiled against. `ContractCheck` stays hand-written, as `Description` does
// (Daemon+Describe.swift): it carries a `Description`, which no contract file declares.
import VerticalsWire

extension Daemon {
    /// Whether the callee serves what a caller was compiled against: the caller sends the
    /// operations it declares and its fingerprint of them; the callee answers with its own
    /// fingerprint of the same operations, and with their description only when the two differ,
    /// so a caller whose build matches receives a few dozen bytes. PROTOCOL.md § 14.
    public static let contractCheck = Operation<ContractCheckInput, ContractCheck>(
        name, "contractCheck",
        summary: "Compare the contract a caller was compiled against with what this daemon serves.",
        errors: [.invalidInput])

    /// The Output of ``Daemon/contractCheck``.
    public struct ContractCheck: WireMessage {
        /// The vertical that answered.
        public var service: String
        /// Its fingerprint of the operations asked about: `sha256:` and 64 hex digits.
        public var fingerprint: String
        /// Its framework version (`VerticalsVersion/current`).
        public var version: String
        /// What it serves for the operations asked about (those it does not serve are absent);
        /// present only when ``fingerprint`` differs from the caller's.
        public var description: Description?

        /// Creates the value from its fields.
        public init(service: String, fingerprint: String, version: String, description: Description? = nil) {
            self.service = service
            self.fingerprint = fingerprint
            self.version = version
            self.description = description
        }

        public static let schema = MessageSchema(
            "daemon.ContractCheck",
            [
                .required(1, "service", .string),
                .required(2, "fingerprint", .string),
                .defaulted(3, "version", .string, .string("")),
                .optional(4, "description", .message(Description.self)),
            ],
            doc:
                "The callee's fingerprint of the operations a caller asked about, and their description when it differs."
        )

        public func encode(to body: inout BodyWriter) {
            body.write(1, service)
            body.write(2, fingerprint)
            body.write(3, version)
            body.write(4, description)
        }

        public init(from body: inout BodyReader) throws(WireDecodingError) {
            var service: String?
            var fingerprint: String?
            var version = ""
            var description: Description?
            while let tag = try body.nextTag() {
                switch tag {
                case 1: service = try body.read()
                case 2: fingerprint = try body.read()
                case 3: version = try body.read()
                case 4: description = try body.read()
                default: try body.skip()
                }
            }
            self.init(
                service: try body.required(service, 1), fingerprint: try body.required(fingerprint, 2),
                version: version, description: description)
        }
    }
}
