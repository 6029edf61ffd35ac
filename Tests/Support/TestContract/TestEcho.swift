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
}

/// The contract is `test` (its schemas are `test.EchoInput`, …): testecho.vcontract's generated
/// types extend `Test`, this alias, and so are TestEcho's.
typealias Test = TestEcho
