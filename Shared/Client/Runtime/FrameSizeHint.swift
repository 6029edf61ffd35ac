import Synchronization

/// How many bytes to reserve for the next frame built at one place (a route's answers, a
/// client's requests): the largest one built there so far, capped.
///
/// `Message.frame` grows its buffer by doubling from the capacity it is given: a 1 KiB answer
/// from the default 128 bytes cost four reallocations and copies, on every request.
@usableFromInline
package final class FrameSizeHint: Sendable {
    /// The most a hint reserves, whatever it has seen.
    package static let cap = 64 * 1024
    private let largest = Atomic<Int>(128)

    @usableFromInline
    package init() {}

    /// The capacity to build the next frame with.
    @usableFromInline
    package var capacity: Int { largest.load(ordering: .relaxed) }

    /// Notes a frame of `size` bytes just built.
    @usableFromInline
    package func record(_ size: Int) {
        if size > largest.load(ordering: .relaxed) {
            largest.store(min(size, Self.cap), ordering: .relaxed)
        }
    }

    /// `frame` built with this hint's capacity, noted for the next one.
    package func build(_ frame: (_ capacity: Int) -> [UInt8]) -> [UInt8] {
        let bytes = frame(capacity)
        record(bytes.count)
        return bytes
    }
}
