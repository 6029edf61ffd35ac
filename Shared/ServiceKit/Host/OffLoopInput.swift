import Synchronization

/// A request's Input decoded on the blocking-work threads (its body is over
/// ``Router/offLoopInputBytes``), and freed there too once its handler is done with it.
///
/// Freeing what a frame-sized body decodes into costs a loop as much as decoding it did: a
/// list of 80,000 names is 80,000 strings to release. So the loop only borrows the Input while the
/// handler runs, and the last reference is dropped on a blocking-work thread (on the loop only
/// when their queue is full, the bound the frame limit already sets).
final class OffLoopInput<Input: Sendable>: Sendable {
    private let slot: Mutex<Input?>

    init(_ input: Input) {
        slot = Mutex(input)
    }

    /// The Input, while it is held.
    var input: Input {
        slot.withLock { $0! }
    }

    /// Drops the held Input on a blocking-work thread. Call once the loop holds no copy of it.
    func free() {
        let accepted = BlockingThreads.shared.run { self.slot.withLock { $0 = nil } }
        if !accepted { slot.withLock { $0 = nil } }
    }
}
