import Dispatch
import Foundation
import Glibc
import Synchronization
import Testing
import VerticalsEventLoop

@Suite("EventLoop: the thread, the queue, shutdown")
struct EventLoopTests {
    @Test func execute_fromManyThreads_runsEverythingOnTheLoopInOrderPerThread() async throws {
        try await withEventLoop { loop in
            let threads = 8
            let perThread = 5_000
            let seen = LoopBound(Box<[[Int]]>(Array(repeating: [], count: threads)))
            let offLoop = Mutex(0)
            DispatchQueue.concurrentPerform(iterations: threads) { thread in
                for sequence in 0..<perThread {
                    loop.execute {
                        if !loop.inEventLoop { offLoop.withLock { $0 += 1 } }
                        seen.value.value[thread].append(sequence)
                    }
                }
            }
            let result = try await loop.submit { seen.value.value }
            #expect(offLoop.withLock { $0 } == 0)
            for sequences in result {
                #expect(sequences == Array(0..<perThread))
            }
        }
    }

    @Test func execute_onTheLoopThread_neverRunsInline() async throws {
        try await withEventLoop { loop in
            let order = Recorder<String>()
            let done = Expectation<Void>("deferred work")
            loop.execute {
                loop.execute {
                    order.append("deferred")
                    done.fulfill(())
                }
                order.append("caller continues")
            }
            try await done.value()
            #expect(order.values == ["caller continues", "deferred"])
        }
    }

    @Test func submit_returnsTheResult_andRethrows() async throws {
        struct Boom: Error {}
        try await withEventLoop { loop in
            let value = try await loop.submit { loop.inEventLoop ? 42 : -1 }
            #expect(value == 42)
            await #expect(throws: Boom.self) { try await loop.submit { throw Boom() } }
        }
    }

    @Test func inEventLoop_isFalseElsewhere() async throws {
        try await withEventLoop { loop in
            #expect(!loop.inEventLoop)
            let onLoop = try await loop.submit { loop.inEventLoop }
            #expect(onLoop)
        }
    }

    @Test func submit_afterShutdown_throwsClosed() async throws {
        let loop = try EventLoop()
        loop.shutdown()
        loop.shutdown() // idempotent
        await #expect(throws: EventLoopError.closed) { try await loop.submit { 1 } }
    }

    @Test func shutdown_calledOnTheLoopThread_stopsTheLoopWithoutDeadlock() async throws {
        let loop = try EventLoop()
        let stopped = Expectation<Void>("stop scheduled from the loop")
        loop.execute {
            loop.shutdown()
            stopped.fulfill(())
        }
        try await stopped.value()
        loop.shutdown() // joins the thread the loop stopped itself
        await #expect(throws: EventLoopError.closed) { try await loop.submit { 1 } }
    }

    @Test func shutdown_fromManyThreadsAtOnce_returnsEverywhere() async throws {
        let loop = try EventLoop()
        DispatchQueue.concurrentPerform(iterations: 4) { _ in loop.shutdown() }
        await #expect(throws: EventLoopError.closed) { try await loop.submit { 1 } }
    }

    @Test func shutdown_closesEveryHandle_andRunsTheirCloseCallbacks() async throws {
        try await withTemporaryDirectory { directory in
            let loop = try EventLoop()
            let closes = Countdown(2, "both ends closed")
            let completions = Recorder<EventLoopError?>()
            let connected = Expectation<Void>("connected")
            let accepted = Expectation<Void>("accepted")
            let path = directory + "/s.sock"
            _ = try await onLoop(loop) {
                let listener = try UnixListener.bind(path: path, on: loop)
                listener.start { connection in
                    connection.onClose = { _ in closes.tick() } // never reads: the client's write stays queued
                    accepted.fulfill(())
                }
                let timer = LoopTimer(loop: loop)
                timer.start(after: .seconds(3600)) {}
                Connection.connect(path: path, on: loop) { result in
                    guard case .success(let connection) = result else { return }
                    connection.onClose = { _ in closes.tick() }
                    // A write too big for the socket buffer stays queued until shutdown cancels it.
                    connection.write(frame([UInt8](repeating: 7, count: 4 << 20))) { completions.append($0) }
                    connected.fulfill(())
                }
            }
            try await connected.value()
            try await accepted.value()
            loop.shutdown()
            try await closes.reached.value()
            #expect(completions.values == [EventLoopError.closed])
            #expect(!fileExists(path))
        }
    }

    @Test func idleLoop_blocksInsteadOfSpinning() async throws {
        try await withEventLoop { loop in
            let task = try await loop.submit { () -> String in
                // "/proc/thread-self" links to "<pid>/task/<tid>".
                var buffer = [CChar](repeating: 0, count: 256)
                let count = readlink("/proc/thread-self", &buffer, buffer.count - 1)
                return String(decoding: buffer.prefix(max(count, 0)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
            let statPath = "/proc/" + task + "/stat"
            try await Task.sleep(for: .milliseconds(50))
            let before = try cpuTicks(statPath)
            try await Task.sleep(for: .milliseconds(300))
            let after = try cpuTicks(statPath)
            // A spinning thread would burn ~30 ticks (10 ms each) in 300 ms.
            #expect(after - before <= 1, "the idle loop thread used \(after - before) ticks of CPU in 300 ms")
        }
    }

    @Test func loopThread_carriesTheLoopsName() async throws {
        try await withEventLoop(name: "vt-named-loop-long-name") { loop in
            let name = try await loop.submit { () -> String in
                (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
            }
            #expect(name.trimmingCharacters(in: .whitespacesAndNewlines) == "vt-named-loop-l")
        }
    }
}

/// A mutable reference, confined to one loop by the tests that use it.
final class Box<Value> {
    var value: Value
    init(_ value: Value) { self.value = value }
}

/// utime + stime of a thread, in clock ticks, from its `/proc/.../stat`.
func cpuTicks(_ statPath: String) throws -> Int {
    let text = try String(contentsOfFile: statPath, encoding: .utf8)
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
    guard let close = text.lastIndex(of: ")") else { throw TimedOut(what: "stat", after: .zero) }
    let fields = text[text.index(after: close)...].split(separator: " ")
    // fields[0] is field 3 (state), so field n is fields[n - 3].
    return Int(fields[11])! + Int(fields[12])!
}
