import Synchronization

/// A request's Input decoded on the blocking-work threads (its body is over
/// ``Router/offLoopInputBytes``), and freed there too once its handler is done with it: before
/// the answer goes out for a unary operation; once the stream has ended for a streaming one,
/// whose events and closing answer the handler sends itself.
///
/// Freeing what a frame-sized body decodes into costs a loop as much as decoding it did: a
/// list of 80,000 names is 80,000 strings to release. So the loop only borrows the Input while the
/// handler runs, and the last reference is dropped on a blocking-work thread (on the loop only
/// when their queue is full, the bound the frame limit already sets). The answer waits for that
/// drop, so a caller that reads the daemon's heap once answered sees it as it will stay.
/// A streaming handler holds the Input until its stream ends, as it would any value it
/// still reads.
final class OffLoopInput<Input: Sendable>: Sendable {
    private let slot: Mutex<Input?>

    init(_ input: Input) {
        slot = Mutex(input)
    }

    /// The Input, while it is held.
    var input: Input {
        slot.withLock { $0! }
    }

    /// Drops the held Input on a blocking-work thread, and returns once it is dropped: what the
    /// Input held is back with the allocator before the request is answered. Call once the loop
    /// holds no copy of it.
    func free() async {
        do {
            try await Offload.run { self.slot.withLock { $0 = nil } }
        } catch {
            slot.withLock { $0 = nil }
        }
    }
}
