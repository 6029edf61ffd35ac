import Glibc
import Testing
import VerticalsEventLoop
import VerticalsWire

@Suite("Connection: an echo server under many concurrent clients")
struct EchoServerTests {
    static let clients = 200
    static let framesPerClient = 5

    /// What client `c` sends as frame `i`: `payloads[c][i]`, from a few bytes to ~20 KiB, so
    /// frames span several reads and share reads with their neighbours.
    static let payloads: [[[UInt8]]] = (0..<clients).map { client in
        (0..<framesPerClient).map { index in
            let head = Array("client \(client) frame \(index) ".utf8)
            let padding = (client * 7919 + index * 104_729) % 20_000
            return head + [UInt8](repeating: UInt8(truncatingIfNeeded: client &+ index), count: padding)
        }
    }

    @Test func echoServer_answersEveryFrameOfManyConcurrentClients_evenWhenFramesAreSplitAcrossWrites()
        async throws
    {
        try await withTemporaryDirectory { directory in
            try await withEventLoop(name: "echo-server") { serverLoop in
                try await withEventLoop(name: "echo-clients") { clientLoop in
                    let path = directory + "/echo.sock"
                    let listener = try await startEchoServer(at: path, on: serverLoop)
                    let clients = Self.clients
                    let framesPerClient = Self.framesPerClient
                    let payloads = Self.payloads
                    let finished = Countdown(clients, "every client got every echo")
                    let failures = Recorder<String>()

                    try await clientLoop.submit {
                        for client in 0..<clients {
                            Connection.connect(path: path, on: clientLoop) { result in
                                guard case .success(let connection) = result else {
                                    failures.append("client \(client): \(result)")
                                    return
                                }
                                var expected = 0
                                connection.onFrame = { [unowned connection] payload in
                                    if payload != payloads[client][expected] {
                                        failures.append("client \(client) frame \(expected): wrong payload")
                                    }
                                    expected += 1
                                    if expected == framesPerClient {
                                        connection.close()
                                        finished.tick()
                                    }
                                }
                                connection.startReading()
                                // Every frame goes out in three writes, cut at different places.
                                for index in 0..<framesPerClient {
                                    let bytes = frame(payloads[client][index])
                                    let cut1 = min(bytes.count, 1 + (client + index) % 6)
                                    let cut2 = cut1 + (bytes.count - cut1) / 2
                                    connection.write(Array(bytes[..<cut1]))
                                    connection.write(Array(bytes[cut1..<cut2]))
                                    connection.write(Array(bytes[cut2...]))
                                }
                            }
                        }
                    }
                    try await finished.reached.value(timeout: .seconds(60))
                    #expect(failures.values.isEmpty, "\(failures.values.prefix(5))")
                    try await serverLoop.submit { listener.value.close() }
                }
            }
        }
    }

    /// Frames longer than a read and than the socket's buffer, between short ones, all written in
    /// one turn: the long ones skip the cork and wait in libuv's queue from their own bytes, the
    /// short ones are corked around them; on both ends the long ones are read straight into
    /// arrays of their own (`FrameDecoder.gatheringSpace()`).
    @Test func longFramesBetweenShortOnes_writtenInOneTurn_comeBackWholeAndInOrder() async throws {
        let payloads: [[UInt8]] = [
            Array("first".utf8),
            (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) },
            Array("between".utf8),
            (0..<(300 << 10)).map { UInt8(truncatingIfNeeded: $0 &* 7) },
            (0..<(FrameDecoder.gatherThreshold + 1)).map { UInt8(truncatingIfNeeded: $0) },
            Array("last".utf8),
        ]
        try await withSocketPath("long.sock") { path, loop in
            _ = try await startEchoServer(at: path, on: loop)
            let received = try await echoedFrames(at: path, on: loop, count: payloads.count) { connection in
                for payload in payloads { connection.write(frame(payload)) }
            }
            let same = received == payloads // (no megabyte diff on failure)
            #expect(received.map(\.count) == payloads.map(\.count))
            #expect(same)
        }
    }

    @Test func writeCompletion_runsAfterTheWriteAndNeverInline() async throws {
        try await withSocketPath("w.sock") { path, loop in
            _ = try await startEchoServer(at: path, on: loop)
            let order = Recorder<String>()
            let done = Expectation<Void>("completion")
            try await loop.submit {
                Connection.connect(path: path, on: loop) { result in
                    guard case .success(let connection) = result else { return }
                    connection.write(frame("hello")) { error in
                        order.append("completion \(error.map(String.init(describing:)) ?? "nil")")
                        connection.close()
                        done.fulfill(())
                    }
                    order.append("after write")
                }
            }
            try await done.value()
            #expect(order.values == ["after write", "completion nil"])
        }
    }

    @Test func closeFromInsideOnFrame_stopsDeliveringTheRestOfThatRead() async throws {
        try await withSocketPath("c.sock") { path, loop in
            let delivered = Recorder<[UInt8]>()
            let closed = Expectation<EventLoopError?>("server side closed")
            _ = try await startServer(at: path, on: loop) { connection in
                connection.onFrame = { [unowned connection] payload in
                    delivered.append(payload)
                    connection.close()
                }
                connection.onClose = { closed.fulfill($0) }
                connection.startReading()
            }
            let client = try RawClient(connectingTo: path)
            try client.send(frame("one") + frame("two") + frame("three")) // one write, one read
            #expect(try await closed.value() == nil)
            #expect(delivered.values == [Array("one".utf8)])
        }
    }

    @Test func peerClosing_runsOnCloseOnceWithNil_andLaterWritesFailWithClosed() async throws {
        try await withSocketPath("p.sock") { path, loop in
            let closes = Recorder<EventLoopError?>()
            let closed = Expectation<LoopBound<Connection>>("peer closed")
            _ = try await startServer(at: path, on: loop) { connection in
                connection.onClose = { [unowned connection] error in
                    closes.append(error)
                    closed.fulfill(LoopBound(connection))
                }
                connection.startReading()
            }
            do { _ = try RawClient(connectingTo: path) } // connects, then closes at once
            let connection = try await closed.value()
            let writeResult = Expectation<EventLoopError?>("write on a closed connection")
            try await loop.submit {
                connection.value.close() // idempotent: no second onClose
                connection.value.write(frame("late")) { writeResult.fulfill($0) }
            }
            #expect(try await writeResult.value() == .closed)
            // A second onClose would come from that close's callback, at the end of its turn.
            try await loopHasTurned(loop)
            #expect(closes.values.count == 1)
            #expect(closes.values.first! == nil)
        }
    }

    @Test func peerThatHalfCloses_stillGetsEveryQueuedByteOfItsAnswer() async throws {
        try await withSocketPath("half.sock") { path, loop in
            _ = try await startEchoServer(at: path, on: loop)
            let client = try RawClient(connectingTo: path)
            let request = frame([UInt8](repeating: 0x42, count: 1 << 20))
            try client.send(request)
            shutdown(client.fd, Int32(SHUT_WR)) // "that was all", but keep reading
            let answer = try await onItsOwnThread { try client.receiveUntilClosed() }
            let identical = answer == request // (a diff of 1 MiB arrays would take minutes)
            #expect(answer.count == request.count)
            #expect(identical)
        }
    }
}
