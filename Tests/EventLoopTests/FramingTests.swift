import Testing
import VerticalsEventLoop
import VerticalsWire

@Suite("Connection: frames that break the protocol")
struct FramingTests {
    enum BadFrame: String, CaseIterable, Sendable {
        case zeroLength, oversized
        var bytes: [UInt8] {
            switch self {
            case .zeroLength: [0, 0, 0, 0]
            case .oversized: [0, 0x10, 0, 1] // 1 MiB + 1 against a 1 MiB limit
            }
        }
        var expected: FrameError {
            switch self {
            case .zeroLength: .emptyFrame
            case .oversized: .oversized(length: (1 << 20) + 1, limit: 1 << 20)
            }
        }
    }

    @Test(arguments: BadFrame.allCases)
    func badFrame_reportsOnFrameError_afterTheGoodFramesBeforeIt_andTheOwnerCanAnswerAndClose(_ bad: BadFrame)
        async throws
    {
        try await withSocketPath("f.sock") { path, loop in
            let frames = Recorder<[UInt8]>()
            let frameError = Expectation<FrameError>("onFrameError")
            let options = ConnectionOptions(maxFrameSize: 1 << 20)
            _ = try await onLoop(loop) {
                let listener = try UnixListener.bind(path: path, on: loop, options: options)
                listener.start { connection in
                    connection.onFrame = { frames.append($0) }
                    connection.onFrameError = { [unowned connection] error in
                        frameError.fulfill(error)
                        connection.write(frame("protocol error"))
                        connection.closeAfterFlush()
                    }
                    connection.startReading()
                }
                return listener
            }
            let client = try RawClient(connectingTo: path)
            try client.send(frame("fine") + bad.bytes + frame("never delivered"))
            #expect(try await frameError.value() == bad.expected)
            #expect(frames.values == [Array("fine".utf8)])
            // The owner's error frame arrives, then the server closes.
            #expect(try client.receiveUntilClosed() == frame("protocol error"))
        }
    }

    @Test func frameAtExactlyTheLimit_isDelivered_andOneByteMoreIsNot() async throws {
        try await withSocketPath("l.sock") { path, loop in
            let limit = 100_000
            let sizes = Recorder<Int>()
            let errors = Recorder<FrameError>()
            let sawError = Expectation<Void>("error on limit + 1")
            _ = try await onLoop(loop) {
                let listener = try UnixListener.bind(
                    path: path, on: loop, options: ConnectionOptions(maxFrameSize: limit))
                listener.start { connection in
                    connection.onFrame = { sizes.append($0.count) }
                    connection.onFrameError = { [unowned connection] in
                        errors.append($0)
                        connection.close()
                        sawError.fulfill(())
                    }
                    connection.startReading()
                }
                return listener
            }
            let client = try RawClient(connectingTo: path)
            try client.send(frame([UInt8](repeating: 1, count: 1)) + frame([UInt8](repeating: 2, count: limit)))
            try client.send(frame([UInt8](repeating: 3, count: limit + 1)))
            try await sawError.value()
            #expect(sizes.values == [1, limit])
            #expect(errors.values == [.oversized(length: UInt32(limit + 1), limit: limit)])
        }
    }

    @Test func badFrameWithoutAHandler_closesTheConnection() async throws {
        try await withSocketPath("n.sock") { path, loop in
            let closed = Expectation<EventLoopError?>("closed")
            _ = try await startServer(at: path, on: loop) { connection in
                connection.onClose = { closed.fulfill($0) }
                connection.startReading()
            }
            let client = try RawClient(connectingTo: path)
            try client.send([0, 0, 0, 0])
            #expect(try await closed.value() == nil)
            #expect(try client.receiveUntilClosed().isEmpty)
        }
    }
}
