import Testing
import VerticalsEventLoop

@Suite("Connection backpressure")
struct BackpressureTests {
    /// A server connection handed to the test once accepted.
    static func acceptOne(at path: String, on loop: EventLoop, options: ConnectionOptions) async throws
        -> Expectation<LoopBound<Connection>>
    {
        let accepted = Expectation<LoopBound<Connection>>("accepted")
        _ = try await onLoop(loop) {
            let listener = try UnixListener.bind(path: path, on: loop, options: options)
            listener.start { connection in
                connection.startReading()
                accepted.fulfill(LoopBound(connection))
            }
            return listener
        }
        return accepted
    }

    @Test func aConnectionThatDoesNotPause_keepsReadingPastHighWater() async throws {
        try await withSocketPath("bp.sock") { path, loop in
            let options = ConnectionOptions(
                highWaterMark: 1 << 20, lowWaterMark: 256 << 10, pausesReadingPastHighWater: false)
            let accepted = try await Self.acceptOne(at: path, on: loop, options: options)
            let client = try RawClient(connectingTo: path)
            let connection = try await accepted.value()
            let frames = Recorder<[UInt8]>()
            let chunk = frame([UInt8](repeating: 0xAB, count: 256 << 10))

            // 3 MiB the peer does not read: queued past the mark, and reading goes on.
            let (paused, queued) = try await loop.submit { () -> (Bool, Int) in
                connection.value.onFrame = { frames.append($0) }
                for _ in 0..<12 { connection.value.write(chunk) }
                return (connection.value.isReadingPaused, connection.value.queuedByteCount)
            }
            #expect(!paused)
            #expect(queued > options.highWaterMark)
            try client.send(frame("read on"))
            try await eventually("the frame sent past the mark arrived") { frames.values.count == 1 }
            #expect(frames.values == [Array("read on".utf8)])
        }
    }

    @Test func peerThatNeverReads_pausesReadingPastHighWater_andReadingResumesOnceItDrains() async throws {
        try await withSocketPath("bp.sock") { path, loop in
            let options = ConnectionOptions(highWaterMark: 1 << 20, lowWaterMark: 256 << 10)
            let accepted = try await Self.acceptOne(at: path, on: loop, options: options)
            let client = try RawClient(connectingTo: path)
            let connection = try await accepted.value()
            let frames = Recorder<[UInt8]>()
            let chunk = frame([UInt8](repeating: 0xAB, count: 256 << 10))
            let total = 12 * chunk.count

            // Write 3 MiB the peer does not read: the kernel takes ~200 KiB, the rest queues.
            let (paused, queued) = try await loop.submit { () -> (Bool, Int) in
                connection.value.onFrame = { frames.append($0) }
                for _ in 0..<12 { connection.value.write(chunk) }
                return (connection.value.isReadingPaused, connection.value.queuedByteCount)
            }
            #expect(paused)
            #expect(queued > options.highWaterMark)

            // A request sent while paused waits.
            try client.send(frame("while paused"))
            // The bytes are in the socket once send returns: a loop still reading them would
            // have in its next turn's poll, before a timer of the turn after fires.
            try await loopHasTurned(loop)
            try await loopHasTurned(loop)
            #expect(frames.values.isEmpty)

            // The peer reads everything: the queue drains, reading resumes, the request arrives.
            let received = try await onItsOwnThread { try client.receive(count: total).count }
            #expect(received == total)
            try await eventually("reading resumed") {
                try await loop.submit { !connection.value.isReadingPaused }
            }
            #expect(try await loop.submit { connection.value.queuedByteCount } == 0)
            try await eventually("the request sent while paused arrived") { frames.values.count == 1 }
            #expect(frames.values == [Array("while paused".utf8)])
        }
    }

    @Test func closeAfterFlush_toAPeerThatNeverReads_closesAfterTheTimeout_andCancelsQueuedWrites() async throws {
        try await withSocketPath("flush.sock") { path, loop in
            let options = ConnectionOptions(flushTimeout: .milliseconds(100))
            let accepted = try await Self.acceptOne(at: path, on: loop, options: options)
            let client = try RawClient(connectingTo: path)
            _ = client
            let connection = try await accepted.value()
            let closed = Expectation<EventLoopError?>("closed")
            let completions = Recorder<EventLoopError?>()
            let clock = ContinuousClock()
            let start = clock.now
            try await loop.submit {
                connection.value.onClose = { closed.fulfill($0) }
                connection.value.write(frame([UInt8](repeating: 1, count: 2 << 20))) { completions.append($0) }
                connection.value.closeAfterFlush()
                connection.value.write(frame("too late")) { completions.append($0) }
            }
            let error = try await closed.value()
            #expect(error?.errnoCode == -110) // UV_ETIMEDOUT
            #expect(clock.now - start >= .milliseconds(99)) // libuv time is in whole milliseconds
            try await eventually("both completions ran") { completions.values.count == 2 }
            #expect(completions.values.allSatisfy { $0 == .closed })
        }
    }

    @Test func closeAfterFlush_deliversEveryQueuedByteBeforeClosing() async throws {
        try await withSocketPath("drain.sock") { path, loop in
            // A minute to flush: this test is about every byte arriving, not about the timeout.
            let accepted = try await Self.acceptOne(at: path, on: loop, options: .init(flushTimeout: .seconds(60)))
            let client = try RawClient(connectingTo: path)
            let connection = try await accepted.value()
            let big = frame([UInt8](repeating: 9, count: 1 << 20))
            try await loop.submit {
                connection.value.write(big)
                connection.value.write(frame("last"))
                connection.value.closeAfterFlush()
            }
            let received = try await onItsOwnThread { try client.receiveUntilClosed() }
            let identical = received == big + frame("last") // (no 1 MiB diff on failure)
            #expect(received.count == big.count + 8)
            #expect(identical)
        }
    }
}
