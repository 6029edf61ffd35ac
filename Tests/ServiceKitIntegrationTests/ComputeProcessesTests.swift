import Glibc
import Testing
import VerticalsServiceKit
import VerticalsTesting
import VerticalsWire

/// Compute processes as a daemon uses them, with vt-testd as the worker (its `TestCompute`): answers
/// come back, a worker's failure arrives typed, and a worker that dies is replaced.
@Suite(.blocking, .timeLimit(.minutes(2)))
struct ComputeProcessesTests {
    let processes = ComputeProcesses(
        program: "\(DaemonProcess.productsDirectory)/vt-testd", name: "vt-testd", nice: 5)

    @Test func requests_areAnswered_alsoManyAtOnce() async throws {
        #expect(try await processes.run([1, 2, 3]) == [3, 2, 1])
        let answers = try await withThrowingTaskGroup(of: (Int, [UInt8]).self) { group in
            for index in 0..<16 {
                group.addTask { (index, try await processes.run(Array("job \(index)".utf8))) }
            }
            return try await group.reduce(into: [Int: [UInt8]]()) { $0[$1.0] = $1.1 }
        }
        for index in 0..<16 {
            #expect(answers[index] == Array("job \(index)".utf8).reversed())
        }
    }

    @Test func aHandlersFailure_arrivesAsInternal_withItsReason() async {
        do {
            _ = try await processes.run(Array("fail:the moon is full".utf8))
            Issue.record("a failing job answered")
        } catch let error as ServiceError {
            #expect(error.code == .internal && error.message == "the moon is full", "\(error)")
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test func aWorkerThatDiesOnEveryTry_isUnavailable_andTheNextRequestIsAnswered() async throws {
        do {
            _ = try await processes.run(Array("exit".utf8))
            Issue.record("a job whose worker died answered")
        } catch let error as ServiceError {
            #expect(error.code == .unavailable && error.message.contains("ended before it answered"), "\(error)")
        }
        #expect(try await processes.run([4, 5]) == [5, 4])
    }

    @Test func messagesOverTheLimit_areRefusedEitherWay() async throws {
        do {
            _ = try await processes.run([UInt8](repeating: 1, count: ComputeProcesses.messageLimit + 1))
            Issue.record("a request over the limit was sent")
        } catch let error as ServiceError {
            #expect(error.code == .internal && error.message.contains("over"), "\(error)")
        }
        do {
            _ = try await processes.run(Array("long".utf8))
            Issue.record("an answer over the limit came back")
        } catch let error as ServiceError {
            #expect(error.code == .internal && error.message.contains("over"), "\(error)")
        }
        #expect(try await processes.run([6]) == [6])
    }

    @Test func theWorkerProgram_refusesToServeWithoutItsSocket() throws {
        let directory = TemporaryDirectory()
        let run = try runCommand("vt-testd", [ComputeProcesses.flag, "5"], in: directory)
        #expect(run.status == 64 && run.standardError.contains("descriptor 3 is not a socket"), "\(run)")
        let bad = try runCommand("vt-testd", [ComputeProcesses.flag, "20"], in: directory)
        #expect(bad.status == 64 && bad.standardError.contains("usage"), "\(bad)")
    }
}
