import IOInterface
import VerticalsWire

/// The contract of `vt-testd`, a test-only vertical whose operations exercise every path of
/// the host and the client: an echo with an optional delay, typed and untyped failures,
/// and a relay that calls another vertical while serving a request.
///
/// The service name is a parameter so that two instances (e.g. `echo` and `relay`) can run
/// side by side.
public struct TestEcho: Sendable {
    /// The vertical's name.
    public let service: String

    /// The contract of a `vt-testd` serving as `service`.
    public init(service: String = "echo") {
        self.service = service
    }

    /// Answers the text back, after `delayMilliseconds`.
    public var echo: Operation<EchoInput, EchoOutput> {
        Operation(service, "echo", summary: "Echo the text, optionally after a delay.")
    }

    /// Fails with the typed error asked for.
    public var fail: Operation<FailInput, Empty> {
        Operation(service, "fail", summary: "Fail with the given code and message.")
    }

    /// Throws an error that is not a ServiceError (answered as `internal`).
    public var throwUntyped: Operation<Empty, Empty> {
        Operation(service, "throwUntyped", summary: "Throw an untyped error.")
    }

    /// Calls `echo` on another vertical and reports the deadline it saw.
    public var relay: Operation<RelayInput, RelayOutput> {
        Operation(service, "relay", summary: "Call another vertical's echo while serving this request.")
    }

    /// Every operation.
    public var operations: [OperationDescriptor] {
        [echo.descriptor, fail.descriptor, throwUntyped.descriptor, relay.descriptor, count.descriptor, produced.descriptor]
    }

    /// Input of ``echo``.
    public struct EchoInput: WireMessage {
        public var text: String
        public var delayMilliseconds: Int

        public init(text: String, delayMilliseconds: Int = 0) {
            self.text = text
            self.delayMilliseconds = delayMilliseconds
        }

        public static let schema = MessageSchema(
            "test.EchoInput", [.required(1, "text", .string), .defaulted(2, "delayMilliseconds", .int, .int(0))])

        public func encode(to body: inout BodyWriter) {
            body.write(1, text)
            body.write(2, delayMilliseconds)
        }

        public init(from body: inout BodyReader) throws(WireDecodingError) {
            var text: String?
            var delay = 0
            while let tag = try body.nextTag() {
                switch tag {
                case 1: text = try body.read()
                case 2: delay = try body.read()
                default: try body.skip()
                }
            }
            self.init(text: try body.required(text, 1), delayMilliseconds: delay)
        }
    }

    /// Output of ``echo``.
    public struct EchoOutput: WireMessage {
        public var text: String
        /// The pid of the process that answered.
        public var servedBy: Int

        public init(text: String, servedBy: Int) {
            self.text = text
            self.servedBy = servedBy
        }

        public static let schema = MessageSchema(
            "test.EchoOutput", [.required(1, "text", .string), .required(2, "servedBy", .int)])

        public func encode(to body: inout BodyWriter) {
            body.write(1, text)
            body.write(2, servedBy)
        }

        public init(from body: inout BodyReader) throws(WireDecodingError) {
            var text: String?
            var servedBy: Int?
            while let tag = try body.nextTag() {
                switch tag {
                case 1: text = try body.read()
                case 2: servedBy = try body.read()
                default: try body.skip()
                }
            }
            self.init(text: try body.required(text, 1), servedBy: try body.required(servedBy, 2))
        }
    }

    /// Input of ``fail``.
    public struct FailInput: WireMessage {
        public var code: ErrorCode
        public var message: String

        public init(code: ErrorCode, message: String) {
            self.code = code
            self.message = message
        }

        public static let schema = MessageSchema(
            "test.FailInput", [.required(1, "code", .enumeration(ErrorCode.schema)), .required(2, "message", .string)])

        public func encode(to body: inout BodyWriter) {
            body.write(1, code)
            body.write(2, message)
        }

        public init(from body: inout BodyReader) throws(WireDecodingError) {
            var code: ErrorCode?
            var message: String?
            while let tag = try body.nextTag() {
                switch tag {
                case 1: code = try body.read()
                case 2: message = try body.read()
                default: try body.skip()
                }
            }
            self.init(code: try body.required(code, 1), message: try body.required(message, 2))
        }
    }

    /// Input of ``relay``.
    public struct RelayInput: WireMessage {
        /// The vertical whose `echo` to call.
        public var target: String
        public var text: String
        /// The delay to ask of the target.
        public var delayMilliseconds: Int

        public init(target: String, text: String, delayMilliseconds: Int = 0) {
            self.target = target
            self.text = text
            self.delayMilliseconds = delayMilliseconds
        }

        public static let schema = MessageSchema(
            "test.RelayInput",
            [
                .required(1, "target", .string), .required(2, "text", .string),
                .defaulted(3, "delayMilliseconds", .int, .int(0)),
            ])

        public func encode(to body: inout BodyWriter) {
            body.write(1, target)
            body.write(2, text)
            body.write(3, delayMilliseconds)
        }

        public init(from body: inout BodyReader) throws(WireDecodingError) {
            var target: String?
            var text: String?
            var delay = 0
            while let tag = try body.nextTag() {
                switch tag {
                case 1: target = try body.read()
                case 2: text = try body.read()
                case 3: delay = try body.read()
                default: try body.skip()
                }
            }
            self.init(target: try body.required(target, 1), text: try body.required(text, 2), delayMilliseconds: delay)
        }
    }

    /// Output of ``relay``.
    public struct RelayOutput: WireMessage {
        /// What the target answered.
        public var echoed: EchoOutput
        /// The deadline the relay had left when it received its request, in microseconds (0 = none).
        public var remainingMicroseconds: Int

        public init(echoed: EchoOutput, remainingMicroseconds: Int) {
            self.echoed = echoed
            self.remainingMicroseconds = remainingMicroseconds
        }

        public static let schema = MessageSchema(
            "test.RelayOutput",
            [.required(1, "echoed", .message(EchoOutput.self)), .required(2, "remainingMicroseconds", .int)])

        public func encode(to body: inout BodyWriter) {
            body.write(1, echoed)
            body.write(2, remainingMicroseconds)
        }

        public init(from body: inout BodyReader) throws(WireDecodingError) {
            var echoed: EchoOutput?
            var remaining: Int?
            while let tag = try body.nextTag() {
                switch tag {
                case 1: echoed = try body.read()
                case 2: remaining = try body.read()
                default: try body.skip()
                }
            }
            self.init(echoed: try body.required(echoed, 1), remainingMicroseconds: try body.required(remaining, 2))
        }
    }
}
