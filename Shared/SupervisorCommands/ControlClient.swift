import ArgumentParser
import VerticalsContract
import VerticalsEventLoop
import VerticalsClient
import VerticalsSupervisorClient
import VerticalsWire

/// `--run-dir`, shared by every command that talks to a running suite (``SuiteLocation``).
package struct RunDirectoryOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(stringLiteral: SuiteLocation.help))
    package var runDir: String?

    /// The default (ArgumentParser fills `--run-dir` in).
    package init() {}

    /// Where the suite is, and what was looked at to find it.
    package var location: SuiteLocation { SuiteLocation.resolve(flag: runDir) }

    /// The run directory (relative paths stay relative in messages).
    package var path: String { location.runDirectory }
}

/// One call to the supervisor's control socket, `<run dir>/supervisor.sock`.
package enum ControlClient {
    /// Calls `operation` on the suite at `location`; a supervisor that does not answer is exit
    /// status 69 with where was looked, an unknown service 64 (EX_USAGE), another refusal the
    /// status `reasons` gives its `reason` detail, else the one `statuses` gives its code, else 1.
    package static func call<Input, Output>(
        _ operation: Operation<Input, Output>, _ input: Input, location: SuiteLocation,
        timeout: Duration = .seconds(60),
        statuses: [ErrorCode: Int32] = [:], reasons: [String: Int32] = [:]
    ) async throws -> Output {
        do {
            return try await call(
                operation, input, runDirectory: location.runDirectory, timeout: timeout, statuses: statuses,
                reasons: reasons)
        } catch let error as CLIError where error.code == .unreachable {
            throw error.adding(lines: location.advice.map { "\($0)" })
        }
    }

    /// Calls `operation`; a supervisor that does not answer is exit status 69 with a hint.
    /// `calleeCheck`, when given, must pass the control socket's listener before a byte is sent.
    package static func call<Input, Output>(
        _ operation: Operation<Input, Output>, _ input: Input, runDirectory: String, timeout: Duration = .seconds(60),
        statuses: [ErrorCode: Int32] = [:], reasons: [String: Int32] = [:], calleeCheck: CalleeCheck? = nil
    ) async throws -> Output {
        let loop = try EventLoop(name: "svc-supervisor")
        let client = ServiceClient(loop: loop, sockets: SocketDirectory(runDirectory), calleeCheck: calleeCheck)
        defer {
            client.close()
            loop.shutdown()
        }
        do {
            return try await client.call(operation, input, timeout: timeout)
        } catch {
            let socket = "\(SocketDirectory(runDirectory).path)/supervisor.sock"
            // The client's own `unavailable` names the service it could not reach; one the
            // supervisor answers (an upgrade whose new process failed) is a refusal like any other.
            if error.code == .unavailable, error.details.contains(where: { $0.key == "service" }) {
                throw CLIError(
                    .unreachable, status: 69, "no supervisor at \(socket): start it with `make run`", cause: error)
            }
            if error.code == .notFound {
                // The supervisor names what it knows: an unknown service is bad usage (EX_USAGE).
                throw CLIError(.notFound, status: 64, "\(operation.fullName): \(error.message)", cause: error)
            }
            let reason = error.details.first { $0.key == "reason" }.flatMap { reasons[$0.value] }
            throw CLIError(
                .refused, status: reason ?? statuses[error.code] ?? 1,
                "\(operation.fullName) failed: \(error.code): \(error.message)",
                details: [ErrorDetail("wireCode", error.code.wireName)], cause: error)
        }
    }

    /// Runs `body`, turning a ``CLIError`` into its message on standard error and its exit status.
    package static func reporting(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch let error as CLIError {
            Terminal.error("error: \(error.text)")
            throw ExitCode(error.status)
        }
    }
}

/// `--timeout` of a command that asks every running daemon in turn (`metrics`, `trace`): how
/// long each one's answer may take.
package struct DaemonAnswerTimeout: ParsableArguments {
    @Option(name: .long, help: "Seconds to wait for each daemon's answer.")
    package var timeout: Double = 2

    /// The default (ArgumentParser fills `--timeout` in).
    package init() {}

    package func validate() throws {
        guard timeout > 0 else { throw ValidationError("--timeout must be positive") }
    }

    /// The timeout, as a call's deadline.
    package var duration: Duration { .milliseconds(Int64(timeout * 1000)) }
}
