import Glibc
import Testing
import VerticalsEventLoop

@Suite("FDPoll")
struct FDPollTests {
    /// A datagram socket pair: [0] is read through the poll, [1] is written by the test.
    private func datagramPair() throws -> (Int32, Int32) {
        var fds: [Int32] = [-1, -1]
        let kind = Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        guard socketpair(AF_UNIX, kind, 0, &fds) == 0 else { throw TimedOut(what: "socketpair", after: .zero) }
        return (fds[0], fds[1])
    }

    @Test func readableSocket_callsBackOnTheLoop_untilClosed_thenClosesTheFD() async throws {
        try await withEventLoop { loop in
            let (reader, writer) = try datagramPair()
            defer { Glibc.close(writer) }
            let received = Recorder<String>()
            let two = Countdown(2, "two datagrams")
            let poll = try await onLoop(loop) {
                try FDPoll(fd: reader, on: loop) {
                    var buffer = [UInt8](repeating: 0, count: 64)
                    while true {
                        let count = recv(reader, &buffer, buffer.count, 0)
                        guard count > 0 else { break } // EAGAIN: drained
                        if loop.inEventLoop { received.append(String(decoding: buffer[..<count], as: UTF8.self)) }
                        two.tick()
                    }
                }
            }
            _ = send(writer, "READY=1", 7, 0)
            _ = send(writer, "WATCHDOG=1", 10, 0)
            try await two.reached.value()
            #expect(received.values == ["READY=1", "WATCHDOG=1"])

            try await loop.submit {
                poll.value.close()
                poll.value.close() // idempotent
            }
            // The reader's number may be reused at once by another test's open, so the fact waited
            // for is the socket's: once its last descriptor is closed, the writer's peer is gone.
            try await eventually("the reader's socket is closed after the close callback") {
                send(writer, "x", 1, Int32(MSG_DONTWAIT)) == -1 && (errno == ECONNREFUSED || errno == ENOTCONN)
            }
        }
    }

    @Test func closedPoll_releasesItsCallback() async throws {
        try await withEventLoop { loop in
            let (reader, writer) = try datagramPair()
            defer { Glibc.close(writer) }
            try await expectReleasesItsCallback(on: loop) { token in
                try FDPoll(fd: reader, on: loop) { _ = token }.close()
            }
        }
    }

    @Test func regularFile_cannotBePolled_andStaysTheCallers() async throws {
        try await withEventLoop { loop in
            try await withTemporaryDirectory { directory in
                let fd = open("\(directory)/plain", O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
                defer { Glibc.close(fd) }
                let failed = try await loop.submit { () -> Bool in
                    do {
                        _ = try FDPoll(fd: fd, on: loop) {}
                        return false
                    } catch {
                        return true
                    }
                }
                #expect(failed)
                // A close the failed init deferred would run by the end of the loop's turn.
                try await loopHasTurned(loop)
                #expect(fcntl(fd, F_GETFD) != -1, "a failed init must leave the fd open")
            }
        }
    }
}
