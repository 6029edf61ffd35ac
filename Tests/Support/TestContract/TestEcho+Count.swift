import VerticalsContract
import VerticalsWire

extension TestEcho {
    /// Streams `count` events, each `bytes` of padding, then ends with a response, or with the
    /// error `failWith` if given. Pull-driven: the next event is made only when asked for, so a
    /// test can see backpressure hold the producer (``produced``).
    public var count: StreamOperation<CountInput, CountEvent> {
        StreamOperation(
            service, "count", summary: "Stream numbered events, then end or fail.", errors: ErrorCode.knownCases)
    }

    /// How many events every `count` stream of this daemon has made so far.
    public var produced: Operation<Empty, Produced> {
        Operation(service, "produced", summary: "How many stream events this daemon has made.")
    }

    /// Input of ``count``.
    public struct CountInput: WireMessage {
        /// How many events to send; 0 streams until cancelled.
        public var count: Int
        /// Bytes of padding in each event.
        public var bytes: Int
        /// Milliseconds to wait before each event.
        public var delayMilliseconds: Int
        /// The error to end with, after the events; nil ends with a response.
        public var failWith: ErrorCode?

        public init(count: Int, bytes: Int = 0, delayMilliseconds: Int = 0, failWith: ErrorCode? = nil) {
            self.count = count
            self.bytes = bytes
            self.delayMilliseconds = delayMilliseconds
            self.failWith = failWith
        }

        public static let schema = MessageSchema(
            "test.CountInput",
            [
                .required(1, "count", .int), .defaulted(2, "bytes", .int, .int(0)),
                .defaulted(3, "delayMilliseconds", .int, .int(0)),
                .optional(4, "failWith", .enumeration(ErrorCode.schema)),
            ])

        public func encode(to body: inout BodyWriter) {
            body.write(1, count)
            body.write(2, bytes)
            body.write(3, delayMilliseconds)
            body.write(4, failWith)
        }

        public init(from body: inout BodyReader) throws(WireDecodingError) {
            var count: Int?
            var bytes = 0
            var delay = 0
            var failWith: ErrorCode?
            while let tag = try body.nextTag() {
                switch tag {
                case 1: count = try body.read()
                case 2: bytes = try body.read()
                case 3: delay = try body.read()
                case 4: failWith = try body.read()
                default: try body.skip()
                }
            }
            self.init(count: try body.required(count, 1), bytes: bytes, delayMilliseconds: delay, failWith: failWith)
        }
    }
}
