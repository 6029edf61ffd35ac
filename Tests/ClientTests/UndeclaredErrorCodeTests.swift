import Testing
@testable import VerticalsClient
import VerticalsContract
import VerticalsEventLoop
import VerticalsTestSupport
import VerticalsTesting
import VerticalsWire

/// A callee answers only the codes its contract declares for the operation, and those any call may
/// get: any other reaches the caller as `internal`, the code it sent kept in a detail
/// (``ServiceError/declared(_:by:)``).
struct UndeclaredErrorCodeTests {
    /// Answers `fail` with the code and message asked for, retryable, with one detail.
    static func answer(_ request: Message) -> [UInt8] {
        let input = (try? request.decodeBody(as: TestEcho.FailInput.self)) ?? .init(code: .internal, message: "")
        return ScriptedCallee.error(
            ServiceError(input.code, input.message, details: [ErrorDetail("id", "c_1")], retryable: true), to: request)
    }

    /// `echo.fail` as a build declares it: answering `declared`.
    static func fail(declaring declared: [ErrorCode]) -> Operation<TestEcho.FailInput, Empty> {
        Operation("echo", "fail", summary: "Fail with the given code and message.", errors: declared)
    }

    /// What a call of `operation` asking the callee for `code` fails with.
    static func failure(of operation: Operation<TestEcho.FailInput, Empty>, answered code: ErrorCode) async throws
        -> ServiceError?
    {
        let directory = TemporaryDirectory()
        let sockets = SocketDirectory(directory.path)
        let callee = try ScriptedCallee(at: sockets.socketPath(for: "echo"), answer: Self.answer)
        defer { callee.stop() }
        return try await withClient("undeclared-code-test", sockets: sockets) { client -> ServiceError? in
            do throws(ServiceError) {
                _ = try await client.call(operation, .init(code: code, message: "as asked"), timeout: .seconds(60))
                return nil
            } catch {
                return error
            }
        }
    }

    @Test func aCodeTheOperationDoesNotDeclare_reachesTheCallerAsInternal_keepingTheCodeSent() async throws {
        let error = try #require(try await Self.failure(of: Self.fail(declaring: []), answered: .conflict))
        #expect(error.code == .internal)
        #expect(!error.retryable)
        #expect(error.detail(ServiceError.undeclaredCodeKey) == "conflict")
        #expect(error.detail("id") == "c_1")
        #expect(error.message.contains("echo.fail answered with conflict"))
        #expect(error.message.hasSuffix("as asked"))
    }

    @Test func aCodeNoBuildKnows_reachesTheCallerAsInternal_keepingTheCodeSent() async throws {
        let error = try #require(try await Self.failure(of: Self.fail(declaring: []), answered: .unknown("teapot")))
        #expect(error.code == .internal)
        #expect(error.detail(ServiceError.undeclaredCodeKey) == "teapot")
    }

    @Test func aDeclaredCode_reachesTheCallerAsItCame() async throws {
        let error = try #require(try await Self.failure(of: Self.fail(declaring: [.conflict]), answered: .conflict))
        #expect(error == ServiceError(.conflict, "as asked", details: [ErrorDetail("id", "c_1")], retryable: true))
    }

    @Test func aCodeAnyCallMayGet_reachesTheCallerAsItCame_undeclared() async throws {
        let anyCall: [ErrorCode] = [
            .unavailable, .deadlineExceeded, .resourceExhausted, .cancelled, .unimplemented, .protocolError, .internal,
            .invalidInput, .permissionDenied,
        ]
        for code in anyCall {
            let error = try #require(try await Self.failure(of: Self.fail(declaring: []), answered: code))
            #expect(error.code == code)
            #expect(error.detail(ServiceError.undeclaredCodeKey) == nil)
        }
    }

    @Test func aConnectionErrorWithACodeNoConnectionErrorCarries_isInternal() {
        let sent = ServiceError(.notFound, "gone", retryable: true)
        let kept = sent.aboutTheConnection(of: "echo")
        #expect(kept.code == .internal)
        #expect(kept.detail(ServiceError.undeclaredCodeKey) == "notFound")
        let closing = ServiceError(.unavailable, "idle", details: [ServiceError.unreadDetail], retryable: true)
        #expect(closing.aboutTheConnection(of: "echo") == closing)
    }

    @Test func anUndeclaredError_keepsAtMostTheDetailsAndTheMessageACalleesErrorMay() {
        let details = (0..<ServiceError.calleeMaxDetails).map { ErrorDetail("k\($0)", "v") }
        let sent = ServiceError(
            .conflict, String(repeating: "m", count: ServiceError.calleeMessageMaxBytes), details: details)
        let kept = sent.declared([], by: "echo.fail")
        #expect(kept.details.count == ServiceError.calleeMaxDetails)
        #expect(kept.details.first == ErrorDetail(ServiceError.undeclaredCodeKey, "conflict"))
        #expect(kept.message.utf8.count <= ServiceError.calleeMessageMaxBytes)
    }
}
