import Synchronization
@testable import IdentityService

/// Wraps a World's password verification (``World/verifyPassword``) to count verifications
/// and hold some in flight: the first `holding` that end are kept, their answer known, until
/// ``release()``, so a test can run a password change while logins wait to open their session.
final class HeldVerifications: Sendable {
    private struct State {
        var holding: Int
        var verified = 0
        var running = 0
        var peak = 0
        var held: [CheckedContinuation<Void, Never>] = []
    }

    private let state: Mutex<State>

    /// Holds the first `holding` verifications once they have verified.
    init(holding: Int = 0) {
        state = Mutex(State(holding: holding))
    }

    /// Installs itself in `world`, around the verification it had.
    func install(in world: inout World) {
        let verify = world.verifyPassword
        world.verifyPassword = { password, storedHash in
            self.state.withLock { state in
                state.verified += 1
                state.running += 1
                state.peak = max(state.peak, state.running)
            }
            defer { self.state.withLock { $0.running -= 1 } }
            let matches = try await verify(password, storedHash)
            await self.holdIfAsked()
            return matches
        }
    }

    /// How many verifications began.
    var verified: Int { state.withLock { $0.verified } }
    /// How many are held now.
    var heldCount: Int { state.withLock { $0.held.count } }
    /// The most that ran at once.
    var peak: Int { state.withLock { $0.peak } }

    /// Lets every held verification go, and holds no more.
    func release() {
        let held = state.withLock { state in
            state.holding = 0
            defer { state.held = [] }
            return state.held
        }
        for continuation in held { continuation.resume() }
    }

    private func holdIfAsked() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let hold = state.withLock { state in
                guard state.holding > 0 else { return false }
                state.holding -= 1
                state.held.append(continuation)
                return true
            }
            if !hold { continuation.resume() }
        }
    }
}
