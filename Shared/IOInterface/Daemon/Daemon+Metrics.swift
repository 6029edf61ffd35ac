import VerticalsWire
extension Daemon {
    /// The daemon's own counters in the Prometheus text exposition format (version 0.0.4):
    /// requests, errors by code and latency per operation, open connections, requests in
    /// flight and the loop's queue depth. `svc-supervisor metrics` gathers every daemon's,
    /// labels each with its service, and adds the supervisor's view (restarts, state, RSS).
    public static let metrics = Operation<Empty, Metrics>(
        name, "metrics",
        summary: "Report the daemon's request, error, latency, connection and queue metrics as Prometheus text.",
        errors: [.deadlineExceeded, .unavailable])

    /// The Output of ``Daemon/metrics``.
    public struct Metrics: WireMessage {
        /// The vertical that answered.
        public var service: String
        /// The metrics, in the Prometheus text exposition format: `# TYPE` lines and samples,
        /// one per line, without the service label (the scraper adds it).
        public var exposition: String

        /// Creates the value from its fields.
        public init(service: String, exposition: String) {
            self.service = service
            self.exposition = exposition
        }

        public static let schema = MessageSchema(
            "daemon.Metrics", [.required(1, "service", .string), .required(2, "exposition", .string)])

        public func encode(to body: inout BodyWriter) {
            body.write(1, service)
            body.write(2, exposition)
        }

        public init(from body: inout BodyReader) throws(WireDecodingError) {
            var service: String?
            var exposition: String?
            while let tag = try body.nextTag() {
                switch tag {
                case 1: service = try body.read()
                case 2: exposition = try body.read()
                default: try body.skip()
                }
            }
            self.init(service: try body.required(service, 1), exposition: try body.required(exposition, 2))
        }
    }
}
