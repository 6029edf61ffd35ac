import Testing
import VerticalsEventLoop
import VerticalsWire

/// Open and close thousands of connections in every way they can end, then shut the loops down.
/// Run under AddressSanitizer + LeakSanitizer by `memcheck.sh` to prove that no handle, write
/// buffer or Swift owner leaks and that nothing is used after its close callback.
@Suite("Lifetime: handles, writes and owners under churn")
struct LifetimeTests {
    enum Ending: UInt8, CaseIterable {
        case clientCloses, serverCloses, clientClosesMidWrite, serverClosesMidWrite, clientClosesAfterFlush
    }

    /// Weak references to every connection created, checked at the end: nothing may survive.
    final class Census {
        var connections: [Weak] = []
        struct Weak { weak var connection: Connection? }
        func record(_ connection: Connection) { connections.append(Weak(connection: connection)) }
        var alive: Int { connections.count { $0.connection != nil } }
    }

    @Test func thousandsOfConnections_openedAndClosedEveryWay_leaveNothingBehind() async throws {
        try await withTemporaryDirectory { directory in
            let serverLoop = try EventLoop(name: "churn-server")
            let clientLoop = try EventLoop(name: "churn-clients")
            let path = directory + "/churn.sock"
            let total = 5_000
            let concurrency = 150
            let serverCensus = LoopBound(Census())
            let clientCensus = LoopBound(Census())
            let serverCloses = Countdown(total, "server saw every connection close")
            let clientCloses = Countdown(total, "client saw every connection close")
            let failures = Recorder<String>()
            let bigFrame = frame([UInt8](repeating: 0x5A, count: 1 << 20))

            _ = try await onLoop(serverLoop) {
                let listener = try UnixListener.bind(path: path, on: serverLoop)
                listener.start { connection in
                    serverCensus.value.record(connection)
                    connection.onFrame = { [unowned connection] payload in
                        if payload.first == Ending.serverCloses.rawValue {
                            connection.close()
                        } else if payload.first == Ending.serverClosesMidWrite.rawValue {
                            connection.write(bigFrame) { error in
                                if let error, error != .closed {
                                    failures.append("server mid-write: \(String(describing: error))")
                                }
                            }
                            connection.close()
                        } else if payload.count < 64 {
                            connection.write(frame(payload))
                        }
                    }
                    connection.onClose = { _ in serverCloses.tick() }
                    connection.startReading()
                }
                return listener
            }

            // The client side keeps `concurrency` connections in flight until `total` were opened.
            try await clientLoop.submit {
                var opened = 0
                func openNext() {
                    guard opened < total else { return }
                    let ending = Ending.allCases[opened % Ending.allCases.count]
                    opened += 1
                    Connection.connect(path: path, on: clientLoop) { result in
                        guard case .success(let connection) = result else {
                            failures.append("connect: \(result)")
                            clientCloses.tick()
                            openNext()
                            return
                        }
                        clientCensus.value.record(connection)
                        connection.onClose = { error in
                            // A peer that closes with bytes unread may reset the connection.
                            if let error, ending == .clientCloses || ending == .clientClosesAfterFlush {
                                failures.append("\(ending): \(error)")
                            }
                            clientCloses.tick()
                            openNext()
                        }
                        connection.onFrame = { [unowned connection] _ in connection.close() }
                        connection.startReading()
                        switch ending {
                        case .clientCloses, .serverCloses, .serverClosesMidWrite:
                            connection.write(frame([ending.rawValue, 1, 2, 3]))
                        case .clientClosesMidWrite:
                            connection.write(bigFrame) { error in
                                if let error, error != .closed {
                                    failures.append("mid-write completion: \(String(describing: error))")
                                }
                            }
                            connection.close()
                        case .clientClosesAfterFlush:
                            connection.write(frame([ending.rawValue, 9]))
                            connection.closeAfterFlush()
                        }
                    }
                }
                for _ in 0..<concurrency { openNext() }
            }

            try await clientCloses.reached.value(timeout: .seconds(120))
            try await serverCloses.reached.value(timeout: .seconds(30))
            #expect(failures.values.isEmpty, "\(failures.values.count) failures, first: \(failures.values.prefix(3))")

            // Every Connection object is gone once its handle closed: no retain cycle survives.
            try await eventually("client connections released") {
                try await clientLoop.submit { clientCensus.value.alive == 0 }
            }
            try await eventually("server connections released") {
                try await serverLoop.submit { serverCensus.value.alive == 0 }
            }
            #expect(try await clientLoop.submit { clientCensus.value.connections.count } == total)

            clientLoop.shutdown()
            serverLoop.shutdown() // also closes the listener, which removes its socket file
            #expect(!fileExists(path))
        }
    }

    @Test func shutdown_withHundredsOfOpenConnectionsAndQueuedWrites_closesThemAllCleanly() async throws {
        try await withTemporaryDirectory { directory in
            let loop = try EventLoop(name: "open-at-shutdown")
            let path = directory + "/open.sock"
            let count = 300
            let accepted = Countdown(count, "all accepted")
            let opened = Countdown(count, "all connected")
            let closes = Countdown(2 * count, "every end closed")
            let completions = Recorder<EventLoopError?>()
            _ = try await onLoop(loop) {
                let listener = try UnixListener.bind(path: path, on: loop)
                listener.start { connection in
                    connection.onClose = { _ in closes.tick() }
                    accepted.tick() // never reads: client writes stay queued
                }
                let timer = LoopTimer(loop: loop)
                timer.start(after: .seconds(3600), repeating: .seconds(1)) {}
                for index in 0..<count {
                    Connection.connect(path: path, on: loop) { result in
                        guard case .success(let connection) = result else { return }
                        connection.onClose = { _ in closes.tick() }
                        if index % 2 == 0 {
                            connection.write(frame([UInt8](repeating: 1, count: 512 << 10))) { completions.append($0) }
                        }
                        opened.tick()
                    }
                }
                return listener
            }
            try await opened.reached.value()
            try await accepted.reached.value()
            loop.shutdown()
            #expect(closes.value == 2 * count)
            #expect(completions.values.count == count / 2)
        }
    }

    @Test func executeFromManyThreads_racingShutdown_neverTouchesAClosedWakeup() async throws {
        for _ in 0..<20 {
            let loop = try EventLoop(name: "race")
            let ran = Countdown(Int.max, "never")
            let producers = Task.detached {
                await withTaskGroup(of: Void.self) { group in
                    for _ in 0..<3 {
                        group.addTask {
                            for _ in 0..<2_000 { loop.execute { ran.tick() } }
                        }
                    }
                }
            }
            try await Task.sleep(for: .microseconds(200))
            loop.shutdown()
            await producers.value
            await #expect(throws: EventLoopError.closed) { try await loop.submit { 1 } }
        }
    }
}
