import Glibc
import Synchronization
import Testing
import VerticalsContract
@testable import VerticalsServiceKit

/// A daemon whose compute threads are all busy (a burst of password hashes) still answers a new
/// connection's `daemon.contractCheck` for a set it has not seen: the fingerprint is short,
/// bounded work, and it is not queued behind CPU-bound jobs running far below the daemon's
/// priority.
@Suite(.serialized)
struct ContractCheckBusyComputeTests {
    @Test func everyComputeThreadBusy_aNewSetIsStillFingerprinted() async throws {
        let served = ContractCheckTests.Count()
        let hosted = try await HostedRouter(
            ContractCheckTests.router(echo: ContractCheckTests.sameEcho, served: served), loopName: "check-busy")
        let pool = BlockingThreads.compute
        let released = Atomic<Bool>(false)
        let started = Atomic<Int>(0)
        for _ in 0..<pool.limit {
            let accepted = pool.run {
                started.add(1, ordering: .relaxed)
                while !released.load(ordering: .relaxed) { usleep(1_000) }
            }
            #expect(accepted)
        }
        defer { released.store(true, ordering: .relaxed) }
        let occupied = ContinuousClock.now + .seconds(60)
        while started.load(ordering: .relaxed) < pool.limit, ContinuousClock.now < occupied {
            try await Task.sleep(for: .milliseconds(5))
        }
        try #require(started.load(ordering: .relaxed) == pool.limit, "the compute threads never all took a job")

        let answer = try await ContractCheckTests.check(
            hosted, ["echo.echo", "echo.fail"], fingerprint: "not-this-one")
        #expect(answer.service == "echo")
        #expect(!answer.fingerprint.isEmpty)
        #expect(answer.description != nil, "a different fingerprint gets the description")
        released.store(true, ordering: .relaxed)
        await hosted.close()
    }
}
