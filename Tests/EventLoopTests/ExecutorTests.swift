import Dispatch
import Testing
import VerticalsEventLoop

/// An actor whose isolation is the loop itself.
actor LoopBoundCounter {
    let loop: EventLoop
    var count = 0

    init(loop: EventLoop) { self.loop = loop }

    nonisolated var unownedExecutor: UnownedSerialExecutor { loop.asUnownedSerialExecutor() }

    func increment() -> (count: Int, onLoop: Bool) {
        count += 1
        return (count, loop.inEventLoop)
    }
}

@Suite("EventLoop as a Swift executor")
struct ExecutorTests {
    @Test func taskWithExecutorPreference_runsOnTheLoopThread() async throws {
        try await withEventLoop { loop in
            let onLoop = await Task(executorPreference: loop) { loop.inEventLoop }.value
            #expect(onLoop)
        }
    }

    @Test func taskWithExecutorPreference_resumesOnTheLoopAfterEveryAwait() async throws {
        try await withEventLoop { loop in
            let places = await Task(executorPreference: loop) { () -> [Bool] in
                var places = [loop.inEventLoop]
                try? await Task.sleep(for: .milliseconds(5))
                places.append(loop.inEventLoop)
                // Resumed from a Dispatch thread: the job still comes back to the loop.
                await withCheckedContinuation { continuation in
                    DispatchQueue.global().async { continuation.resume() }
                }
                places.append(loop.inEventLoop)
                await Task.yield()
                places.append(loop.inEventLoop)
                let fromLoop = try? await loop.submit { 1 }
                places.append(loop.inEventLoop && fromLoop == 1)
                return places
            }.value
            #expect(places == [true, true, true, true, true])
        }
    }

    @Test func withTaskExecutorPreference_runsTheBodyOnTheLoop() async throws {
        try await withEventLoop { loop in
            let onLoop = await withTaskExecutorPreference(loop) {
                await Task.yield()
                return loop.inEventLoop
            }
            #expect(onLoop)
        }
    }

    @Test func actorWithTheLoopAsExecutor_runsIsolatedCodeOnTheLoop() async throws {
        try await withEventLoop { loop in
            let counter = LoopBoundCounter(loop: loop)
            for expected in 1...3 {
                let (count, onLoop) = await counter.increment()
                #expect(count == expected)
                #expect(onLoop)
            }
            let viaAssume = try await loop.submit {
                counter.assumeIsolated { $0.count } // checkIsolated passes on the loop thread
            }
            #expect(viaAssume == 3)
        }
    }

    @Test func manyTasks_interleaveOnTheLoopWithoutLosingAny() async throws {
        try await withEventLoop { loop in
            let total = await withTaskGroup(of: Int.self) { group in
                for index in 0..<500 {
                    group.addTask(executorPreference: loop) {
                        await Task.yield()
                        return loop.inEventLoop ? index : -1_000_000
                    }
                }
                return await group.reduce(0, +)
            }
            #expect(total == (0..<500).reduce(0, +))
        }
    }
}
