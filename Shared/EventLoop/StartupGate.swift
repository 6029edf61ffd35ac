import Synchronization

/// The connections a listener accepted and has not yet admitted (their TLS handshake under way),
/// counted per address and in all, across every loop they are served on, and dropped at accept
/// past the bounds, before any handshake buffer is spent on them: OpenSSH's `MaxStartups` and
/// `PerSourceMaxStartups`.
///
/// ```swift
/// let gate = StartupGate(StartupGate.Limits(start: 32, rate: 30, full: 128, perAddress: 16))
/// listener.useStartupGate(gate)   // before useTLS's handshakes begin
/// ```
///
/// Past ``Limits/perAddress`` waiting from one address, a new one from there is dropped; past
/// ``Limits/start`` waiting in all, a new one is dropped with a probability of ``Limits/rate``
/// percent, rising linearly to 100 % at ``Limits/full``. A stranger who connects and sends
/// nothing then holds at most `perAddress` descriptors, and many strangers at most `full`, each
/// for the handshake timeout at most. Shared by every loop (a lock, not loop-confined state): a
/// connection accepted on one loop may finish its handshake on another.
public final class StartupGate: Sendable {
    /// The bounds, as OpenSSH writes them: `start:rate:full`, and a cap per address.
    public struct Limits: Sendable, Equatable, CustomStringConvertible {
        /// Connections waiting in all past which new ones may be dropped.
        public var start: Int
        /// The percentage dropped at `start`, rising linearly to 100 at `full`.
        public var rate: Int
        /// Connections waiting in all at which every new one is dropped.
        public var full: Int
        /// Connections waiting from one address at which every new one from there is dropped.
        public var perAddress: Int

        /// The bounds; `full` is raised to `start` and `rate` kept within 0...100 when they are not.
        public init(start: Int, rate: Int, full: Int, perAddress: Int) {
            self.start = max(0, start)
            self.rate = min(100, max(0, rate))
            self.full = max(self.start, full)
            self.perAddress = max(1, perAddress)
        }

        /// `start:rate:full`, OpenSSH's form.
        public var description: String { "\(start):\(rate):\(full)" }
    }

    /// What the gate counts now.
    public struct Counts: Sendable, Equatable {
        /// Connections accepted and not yet admitted or closed.
        public var waiting = 0
        /// Connections dropped at accept since the gate was made.
        public var dropped = 0
    }

    /// The bounds this gate holds.
    public let limits: Limits
    /// The counts, and the places held per address: an address leaves when its count reaches
    /// zero, so the table holds at most ``Limits/full`` entries.
    private let state = Mutex<(counts: Counts, byAddress: [String: Int])>((Counts(), [:]))
    private let onDrop: (@Sendable () -> Void)?

    /// A gate holding `limits`; `onDrop` is called (on the accepting loop) for each peer dropped.
    public init(_ limits: Limits, onDrop: (@Sendable () -> Void)? = nil) {
        self.limits = limits
        self.onDrop = onDrop
    }

    /// What the gate counts now.
    public var counts: Counts {
        state.withLock { $0.counts }
    }

    /// A ticket for one more connection from `address` (nil: one with no address, counted in all
    /// only), or nil when it is to be dropped. The ticket gives its place back once, when
    /// released or dropped.
    func enter(address: String?) -> Ticket? {
        let roll = Int.random(in: 0..<100)
        let admitted = state.withLock { state -> Bool in
            let waiting = state.counts.waiting
            let fromAddress = address.map { state.byAddress[$0, default: 0] } ?? 0
            guard fromAddress < limits.perAddress, Self.passes(waiting: waiting, roll: roll, limits) else {
                state.counts.dropped += 1
                return false
            }
            state.counts.waiting += 1
            if let address { state.byAddress[address] = fromAddress + 1 }
            return true
        }
        guard admitted else {
            onDrop?()
            return nil
        }
        return Ticket(gate: self, address: address)
    }

    /// Whether a new connection passes with `waiting` already waiting, for a roll in 0..<100.
    static func passes(waiting: Int, roll: Int, _ limits: Limits) -> Bool {
        if waiting >= limits.full { return false }
        if waiting < limits.start { return true }
        let span = limits.full - limits.start
        let percent = limits.rate + (100 - limits.rate) * (waiting - limits.start) / max(1, span)
        return roll >= percent
    }

    private func leave(address: String?) {
        state.withLock { state in
            state.counts.waiting -= 1
            guard let address else { return }
            let remaining = state.byAddress[address, default: 1] - 1
            state.byAddress[address] = remaining > 0 ? remaining : nil
        }
    }

    /// One connection's place at the gate, from accept until it is admitted or closed: given
    /// back by ``release()`` or, at the latest, when the last reference goes, on whichever
    /// thread that is.
    final class Ticket: Sendable {
        private let gate: StartupGate
        private let address: String?
        private let released = Atomic<Bool>(false)

        fileprivate init(gate: StartupGate, address: String?) {
            self.gate = gate
            self.address = address
        }

        /// Gives the place back (once; later calls do nothing).
        func release() {
            guard !released.exchange(true, ordering: .acquiringAndReleasing) else { return }
            gate.leave(address: address)
        }

        deinit {
            release()
        }
    }
}
