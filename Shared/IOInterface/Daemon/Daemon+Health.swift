import VerticalsWire
extension Daemon {
    /// Liveness over the protocol itself: answered by a routed handler, run as a task like any
    /// other request and through the pool that runs blocking work, so a stuck loop, executor or
    /// pool fails it (a protocol `ping`, answered on the loop thread, would still pass).
    /// `svc-supervisor` calls it per its manifest's `liveness` and restarts a daemon that fails it.
    public static let health = Operation<Empty, Health>(
        name, "health",
        summary: "Prove the daemon serves requests: routed, run as a task, through the blocking-work pool.",
        errors: [.deadlineExceeded, .unavailable])

    /// The Output of ``Daemon/health``.
    public struct Health: WireMessage {
        /// The vertical that answered.
        public var service: String
        /// Its process.
        public var pid: Int
        /// The round trip through the pool that runs blocking work, in microseconds.
        public var offloadMicroseconds: Int

        /// Creates the value from its fields.
        public init(service: String, pid: Int, offloadMicroseconds: Int) {
            self.service = service
            self.pid = pid
            self.offloadMicroseconds = offloadMicroseconds
        }

        public static let schema = MessageSchema(
            "daemon.Health",
            [.required(1, "service", .string), .required(2, "pid", .int), .required(3, "offloadMicroseconds", .int)])

        public func encode(to body: inout BodyWriter) {
            body.write(1, service)
            body.write(2, pid)
            body.write(3, offloadMicroseconds)
        }

        public init(from body: inout BodyReader) throws(WireDecodingError) {
            var service: String?
            var pid: Int?
            var offload: Int?
            while let tag = try body.nextTag() {
                switch tag {
                case 1: service = try body.read()
                case 2: pid = try body.read()
                case 3: offload = try body.read()
                default: try body.skip()
                }
            }
            self.init(
                service: try body.required(service, 1), pid: try body.required(pid, 2),
                offloadMicroseconds: try body.required(offload, 3))
        }
    }
}
