import VerticalsContract
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

    /// Fails with the typed error asked for: it declares every code, so its callers get the one asked for.
    public var fail: Operation<FailInput, Empty> {
        Operation(service, "fail", summary: "Fail with the given code and message.", errors: ErrorCode.knownCases)
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
        [
            echo.descriptor, fail.descriptor, throwUntyped.descriptor, relay.descriptor, count.descriptor,
            produced.descriptor,
        ]
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
}

/// The contract is `test` (its schemas are `test.EchoInput`, …): testecho.vcontract's generated
/// types extend `Test`, this alias, and so are TestEcho's.
typealias Test = TestEcho
