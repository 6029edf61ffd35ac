import Synchronization
import Testing
@testable import VerticalsClient
import VerticalsWire

@testable import VerticalsServiceKit

/// ``PendingCalls``, a channel's waiting calls: one in its slot, more in its dictionary, each
/// found, removed and completed exactly once, whichever place it sits in.
struct PendingCallsTests {
    @Test func calls_givenThreeWaitingAtOnce_areEachFoundRemovedOnceAndCompleted() async throws {
        let table = Table()
        let answered = await withTaskGroup(of: String.self) { group in
            for id in UInt64(1)...3 {
                group.addTask {
                    // Each call's continuation is a real one: the task waits until the table completes it.
                    let result = await withUnsafeContinuation { continuation in
                        let call = PendingCall(
                            id: id, service: "bench", operation: "bench.echo", deadline: Deadline(.now + .seconds(30)),
                            continuation: continuation)
                        table.calls.withLock { $0.insert((call, [UInt8(id)])) }
                    }
                    guard case .failure(let error) = result else { return "answered with a message" }
                    return error.message
                }
            }
            await Self.wait { table.calls.withLock { $0.entries.count } == 3 }
            table.calls.withLock { calls in
                #expect(calls.contains(2))
                #expect(calls[3]?.bytes == [3])
                #expect(!calls.contains(4))
                // The first filed sits in the slot, the others in the dictionary: remove from both.
                let second = calls.removeValue(forKey: 2)
                #expect(second?.bytes == [2])
                #expect(calls.removeValue(forKey: 2) == nil)
                second?.call.complete(.failure(ServiceError(.cancelled, "2")))
                let first = calls.removeValue(forKey: 1)
                #expect(first?.bytes == [1])
                #expect(!calls.contains(1))
                first?.call.complete(.failure(ServiceError(.cancelled, "1")))
                // The one left sits in the dictionary: entries and removeAll find it there.
                #expect(calls.entries.map(\.call.id) == [3])
                let rest = calls.removeAll()
                #expect(rest.map(\.call.id) == [3])
                #expect(calls.isEmpty)
                for entry in rest { entry.call.complete(.failure(ServiceError(.cancelled, "\(entry.call.id)"))) }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(answered.sorted() == ["1", "2", "3"])
    }

    @Test func calls_givenNone_findAndRemoveNothing() {
        var calls = PendingCalls()
        #expect(calls.isEmpty)
        #expect(calls[7] == nil)
        #expect(calls.removeValue(forKey: 7) == nil)
        #expect(calls.removeAll().isEmpty)
    }

    /// The table the waiting tasks file their calls in.
    private final class Table: Sendable {
        let calls = Mutex(PendingCalls())
    }

    /// Yields until `fact` holds (the tasks have filed their calls), failing after 30 s.
    private static func wait(for fact: () -> Bool) async {
        let deadline = ContinuousClock.now + .seconds(30)
        while !fact() {
            guard ContinuousClock.now < deadline else {
                Issue.record("the calls were never all filed")
                return
            }
            await Task.yield()
        }
    }
}
