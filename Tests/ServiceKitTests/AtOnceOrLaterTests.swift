import Synchronization
import Testing
import VerticalsClient
import VerticalsContract
import VerticalsTestSupport
@testable import VerticalsServiceKit
import VerticalsTesting
import VerticalsWire

/// A route that answers at once where it can and in a task where it cannot
/// (`Router.onSync(_:atOnce:later:)`, what `daemon.contractCheck` serves a set it knows with): a
/// request the at-once handler declines is served by the later one alone, and answered once.
@Suite(.blocking, .serialized, .timeLimit(.minutes(2)))
struct AtOnceOrLaterTests {
    static let echo = TestEcho()

    /// `echo` answers at once unless its text is `later`; `fail` throws from the at-once handler.
    /// Each answer says which handler gave it and whether a task ran it.
    static func served(laterRuns: Runs) async throws -> HostedRouter {
        var router = Router(service: "echo")
        router.onSync(
            echo.echo,
            atOnce: { input, _ in
                guard input.text != "later" else { return nil }
                return .init(text: "\(input.text) at once, \(Self.inTask() ? "in a task" : "no task")", servedBy: 0)
            },
            later: { input, _ in
                laterRuns.count.add(1, ordering: .relaxed)
                await Task.yield()
                return .init(text: "\(input.text) later, \(Self.inTask() ? "in a task" : "no task")", servedBy: 0)
            })
        router.onSync(
            echo.fail, atOnce: { input, _ in throw ServiceError(input.code, input.message) },
            later: { _, _ in
                laterRuns.count.add(1, ordering: .relaxed)
                return Empty()
            })
        return try await HostedRouter(router, loopName: "at-once-host")
    }

    /// How many times a later handler ran.
    final class Runs: Sendable {
        let count = Atomic(0)
    }

    static func inTask() -> Bool {
        withUnsafeCurrentTask { $0 != nil }
    }

    @Test func whatItCanAnswerAtOnce_runsWithNoTask_andTheRestInATaskOnce() async throws {
        let laterRuns = Runs()
        let served = try await Self.served(laterRuns: laterRuns)
        #expect(try await served.client.call(Self.echo.echo, .init(text: "now")).text == "now at once, no task")
        #expect(laterRuns.count.load(ordering: .relaxed) == 0)
        #expect(try await served.client.call(Self.echo.echo, .init(text: "later")).text == "later later, in a task")
        #expect(laterRuns.count.load(ordering: .relaxed) == 1)
        // The connection serves at once again after a request went to a task.
        #expect(try await served.client.call(Self.echo.echo, .init(text: "again")).text == "again at once, no task")
        #expect(laterRuns.count.load(ordering: .relaxed) == 1)
        await served.close()
    }

    @Test func anErrorAtOnce_isTheAnswer_andNothingRunsLater() async throws {
        let laterRuns = Runs()
        let served = try await Self.served(laterRuns: laterRuns)
        let error = await #expect(throws: ServiceError.self) {
            try await served.client.call(Self.echo.fail, .init(code: .conflict, message: "taken"))
        }
        #expect(error?.code == .conflict)
        #expect(error?.message == "taken")
        #expect(laterRuns.count.load(ordering: .relaxed) == 0)
        await served.close()
    }
}
