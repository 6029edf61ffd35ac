import Glibc
import Synchronization
@testable import VerticalsClient
import VerticalsTestSupport
import Testing
import VerticalsContract
import VerticalsEventLoop
@testable import VerticalsServiceKit
import VerticalsTesting
import VerticalsWire

/// A callee is a peer too: what it answers a caller's `daemon.contractCheck` costs the caller a
/// bounded amount, whatever it sends. Each test plays a compromised callee as an attacker did.
struct HostileCalleeCostTests {
    let echo = TestEcho(service: "echo")

    /// A callee replaced by a program of the attacker's at `path`: it accepts one connection,
    /// answers the frame that opens it (the caller's contract check) with an error whose message
    /// is `messageBytes` bytes of 0xFF (not UTF-8), then reads and drops the rest until the
    /// caller hangs up.
    static func hostileCallee(at path: String, messageBytes: Int) throws -> Task<Void, Never> {
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        let bound = withUnixSocketAddress(path) { bind(listener, $0, $1) }
        guard bound == 0, listen(listener, 1) == 0 else { throw RawSocketError("cannot listen at \(path)") }
        var body: [UInt8] = [0x0a, 8] + Array("internal".utf8) + [0x12]
        var length = UInt64(messageBytes)
        while length >= 0x80 {
            body.append(UInt8(length & 0x7f) | 0x80)
            length >>= 7
        }
        body.append(UInt8(length))
        body += [UInt8](repeating: 0xFF, count: messageBytes)
        let frame = Message.frame(Envelope(kind: .error, correlationID: PeerChannel.contractCheckID), rawBody: body)
        return Task.detached {
            defer { close(listener) }
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else { return }
            defer { close(fd) }
            var header = [UInt8](repeating: 0, count: 4)
            guard recv(fd, &header, 4, Int32(MSG_WAITALL)) == 4 else { return }
            let size = header.reduce(0) { $0 << 8 | Int($1) }
            var request = [UInt8](repeating: 0, count: size)
            guard recv(fd, &request, size, Int32(MSG_WAITALL)) == size else { return }
            var sent = 0
            while sent < frame.count {
                let count = frame[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { return }
                sent += count
            }
            var sink = [UInt8](repeating: 0, count: 65_536)
            while recv(fd, &sink, sink.count, 0) > 0 {}
        }
    }

    @Test func aCalleeAnsweringTheCheckWithFourMebibytesOfInvalidUTF8_keepsOneBoundedFinding() async throws {
        let directory = TemporaryDirectory()
        let sockets = SocketDirectory(directory.path)
        // Just under the client's frame limit, as the attacker sent it.
        let callee = try Self.hostileCallee(
            at: sockets.socketPath(for: "echo"), messageBytes: ConnectionOptions().maxFrameSize - 64)
        let loop = try EventLoop(name: "hostile-callee-test")
        let contracts = CalleeContracts(caller: "front", callees: Callees(echo.echo, echo.fail))
        let client = ServiceClient(loop: loop, sockets: sockets, contracts: contracts)
        let operation = echo.echo
        let call = Task { try await client.call(operation, .init(text: "hi"), timeout: .seconds(60)) }
        // The fact waited for is the finding kept, however long a loaded machine takes to read
        // the check's 4 MiB answer; the callee never answers the call itself, which closing the
        // client then fails.
        #expect(await eventuallyAsync(timeout: .seconds(60)) { contracts.found["echo"] != nil })
        client.close()
        _ = await #expect(throws: ServiceError.self) { try await call.value }
        await callee.value
        loop.shutdown()

        let found = try #require(contracts.found["echo"])
        #expect(found.state == .unchecked)
        #expect(found.findings.count == 1)
        #expect(found.findings.allSatisfy { $0.text.utf8.count <= PeerText.findingMaxBytes })
        #expect(found.findings.first?.wasCut == true)
        // What daemon.health answers from it stays under its stated size, far under a frame.
        let health = Daemon.Health(service: "front", pid: 1, offloadMicroseconds: 0, callees: contracts.health)
        #expect(health.encodedBody().count <= CalleeContracts.healthMaxBytes)
    }

    @Test func aDescriptionDeclaringOnePointFourMillionErrorCodes_isNotWalked_butKeptAsOneFinding() throws {
        let contracts = CalleeContracts(caller: "front", callees: Callees(echo.echo, echo.fail))
        let expected = try #require(contracts.expected(for: "echo"))
        var served = expected.description
        served.operations[0].errors = [ErrorCode](repeating: .internal, count: 1_400_000)
        let answer = Daemon.ContractCheck.differing(served)
        let found = contracts.found(answer, service: "echo", expected: expected)
        #expect(found.state == .unchecked)
        #expect(found.findings.count == 1)
        #expect(found.findings.first?.text.contains("1400000 error codes") == true, "\(found.findings)")
        #expect(found.refused.isEmpty)
    }

    @Test func aDescriptionOfMoreFieldsThanItsBound_isNotWalked() throws {
        let contracts = CalleeContracts(caller: "front", callees: Callees(echo.echo, echo.fail))
        let expected = try #require(contracts.expected(for: "echo"))
        var served = expected.description
        let index = try #require(served.messages.firstIndex { !$0.fields.isEmpty })
        let field = served.messages[index].fields[0]
        let copies = DescriptionBounds.maxFields / DescriptionBounds.maxFieldsPerMessage + 1
        served.messages += (0..<copies).map { copy in
            Daemon.MessageInfo(
                name: "echo.Copy\(copy)", doc: "",
                fields: [Daemon.FieldInfo](repeating: field, count: DescriptionBounds.maxFieldsPerMessage))
        }
        let answer = Daemon.ContractCheck.differing(served)
        let found = contracts.found(answer, service: "echo", expected: expected)
        #expect(found.state == .unchecked)
        #expect(found.findings.count == 1)
    }

    @Test func aDescriptionWithManyDifferences_keepsAtMostItsBoundOfFindings() throws {
        let contracts = CalleeContracts(caller: "front", callees: Callees(echo.echo, echo.fail))
        let expected = try #require(contracts.expected(for: "echo"))
        var served = expected.description
        // Every message's fields renamed: a difference per field, each a long name.
        for index in served.messages.indices {
            for field in served.messages[index].fields.indices {
                served.messages[index].fields[field].name = "f" + String(repeating: "x", count: 120) + "\(field)"
            }
        }
        let answer = Daemon.ContractCheck.differing(served)
        let found = contracts.found(answer, service: "echo", expected: expected)
        #expect(found.findings.count <= CalleeContracts.maxFindings)
        #expect(found.findings.allSatisfy { $0.text.utf8.count <= PeerText.findingMaxBytes })
        #expect(Set(found.refused.keys).isSubset(of: expected.operations))
    }
}

/// Judging a callee's description that differs runs off the caller's loop; the same fingerprint
/// stays a lookup where it is asked.
struct CalleeJudgedOffTheLoopTests {
    let echo = TestEcho(service: "echo")

    @Test func aDescriptionThatDiffers_isJudgedOffTheLoop_andTheSameFingerprintIsNot() throws {
        let jobs = Mutex<[@Sendable () -> Void]>([])
        let contracts = CalleeContracts(
            caller: "front", callees: Callees(echo.echo, echo.fail),
            offLoop: .init { job in
                jobs.withLock { $0.append(job) }
                return true
            })
        let expected = try #require(contracts.expected(for: "echo"))
        let same = Daemon.ContractCheck(service: "echo", fingerprint: expected.fingerprint, version: "0.2.0")
        let answered = contracts.judge(same, service: "echo", expected: expected) { _ in }
        #expect(answered?.state == .compatible)
        #expect(jobs.withLock { $0.isEmpty }, "the same fingerprint is a lookup, judged where it is asked")

        let differs = Daemon.ContractCheck.differing(expected.description)
        let later = Mutex<CalleeContracts.Found?>(nil)
        let now = contracts.judge(differs, service: "echo", expected: expected) { found in
            later.withLock { $0 = found }
        }
        #expect(now == nil, "a description that differs is not judged where it is asked")
        let job = try #require(jobs.withLock { $0.first })
        job()
        #expect(later.withLock { $0 }?.state == .compatible)
    }

    @Test func busyThreads_leaveThePairUnchecked_notJudgedOnTheLoop() throws {
        let contracts = CalleeContracts(
            caller: "front", callees: Callees(echo.echo, echo.fail), offLoop: .init { _ in false })
        let expected = try #require(contracts.expected(for: "echo"))
        let differs = Daemon.ContractCheck.differing(expected.description)
        let found = contracts.judge(differs, service: "echo", expected: expected) { _ in }
        #expect(found?.state == .unchecked)
    }
}
