import Synchronization
import VerticalsWire

/// Limits password guesses: each account, and each caller (``VerticalsServiceKit/RequestContext/caller``:
/// a uid, a certificate's vertical, a TCP address), may fail ``Limits/failures`` times per
/// ``Limits/window``; past that, a login is refused with ``IdentityFailure/tooManyAttempts(retryAfterSeconds:)``
/// before its password is even hashed.
///
/// A token bucket per key: it holds ``Limits/failures`` attempts and refills at that many per
/// window. An attempt needs one left in the account's and the caller's bucket; it takes the
/// account's *before* the password is checked, so a burst of concurrent guesses at one account
/// cannot all pass, and gives it back when the login works. The caller's pays only for a failure,
/// so that people logging in at once through one caller (a suite whose verticals share one uid)
/// are not refused for being many; but its attempts in flight count against what it has left:
/// when its failures and its attempts in flight reach the limit, the next attempt *waits*
/// (``begin(_:at:)``) until one in flight ends, and is refused only once failures alone reach
/// it. A burst of concurrent guesses from one caller is so held to the limit too, and honest
/// logins through one caller are delayed, never refused. An unknown address has a bucket as a
/// known one does, so the limit tells nothing about which accounts exist.
///
/// Memory is bounded: at most ``Limits/tracked`` buckets. A full bucket is the same as none and
/// is dropped first; when every bucket is in use, the fullest goes (the one whose owner failed
/// least lately), so an attacker spraying addresses from many callers can neither grow the table
/// nor keep their own buckets by flooding it, beyond losing the oldest ones. Attempts in flight
/// and waiting ones are as many as the requests the host serves at once.
package final class LoginThrottle: Sendable {
    /// How many failures, per how long, over how many keys.
    package struct Limits: Sendable, Equatable {
        /// Failed logins an account, and a caller, may have per ``window``.
        package var failures: Int = 5
        /// The window the failures are counted over (the buckets refill over it).
        package var window: Duration = .seconds(60)
        /// The most accounts and callers remembered at once.
        package var tracked: Int = 10_000

        /// The defaults: 5 failures a minute, 10,000 keys.
        package init() {}

        /// Limits with these values.
        package init(failures: Int, window: Duration, tracked: Int = 10_000) {
            self.failures = failures
            self.window = window
            self.tracked = tracked
        }

        /// The defaults, overridden by `IDENTITY_LOGIN_FAILURES`, `IDENTITY_LOGIN_WINDOW_SECONDS` and
        /// `IDENTITY_LOGIN_TRACKED`; throws naming the variable whose value is not usable.
        package static func from(environment: [String: String]) throws(SettingsError) -> Limits {
            var limits = Limits()
            if let value = try Settings.read(Settings.loginFailures, environment) { limits.failures = value }
            if let value = try Settings.read(Settings.loginWindowSeconds, environment) {
                limits.window = .seconds(value)
            }
            if let value = try Settings.read(Settings.loginTracked, environment) { limits.tracked = value }
            return limits
        }
    }

    /// Whose attempts a bucket counts.
    package enum Key: Hashable, Sendable {
        /// An account, by its normalized address (every malformed address shares one bucket).
        case account(String)
        /// A caller, by ``VerticalsServiceKit/RequestContext/caller``.
        case caller(String)
    }

    /// The limits it applies.
    package let limits: Limits
    private let state: Mutex<State>

    /// A throttle applying `limits`.
    package init(limits: Limits) {
        self.limits = limits
        state = Mutex(State(limits: limits))
    }

    /// One attempt under way: whose allowances it draws on.
    package struct Attempt: Sendable, Equatable {
        /// The account guessed at, if any (registering guesses at none).
        package var account: Key?
        /// The caller, when the connection names one.
        package var caller: Key?
    }

    /// The attempt at `email` (as sent: its normalized address when it is one, else the one bucket
    /// of malformed ones; nil for none) by `caller`.
    package static func attempt(email: String?, caller: String?) -> Attempt {
        Attempt(
            account: email.map { EmailAddress($0).map { Key.account($0.value) } ?? .account("") },
            caller: caller.map { Key.caller($0) })
    }

    /// Begins `attempt` at `now`: throws ``IdentityFailure/tooManyAttempts(retryAfterSeconds:)``,
    /// taking nothing, when its account or its caller has no attempt left; else takes the account's
    /// now, so that a burst of concurrent guesses at one account cannot all pass, and counts it in
    /// flight for its caller until ``ended(_:at:)`` or ``failed(_:at:)``, one of which must follow.
    ///
    /// When the caller's failures and attempts in flight together reach the limit, it waits, off
    /// the loop and without polling, for one of those attempts to end, and decides again then (at
    /// the time that attempt ended at). A cancelled task (the request's deadline passed, or its
    /// caller went away) stops waiting and throws `CancellationError`, taking nothing.
    package func begin(_ attempt: Attempt, at now: Timestamp) async throws {
        let id = state.withLock { $0.newWaiterID() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let decided: Result<Void, any Error>? = state.withLock { state in
                    guard !Task.isCancelled else { return .failure(CancellationError()) }
                    return state.begin(Waiter(id: id, attempt: attempt, continuation: continuation), at: now)
                }
                if let decided { continuation.resume(with: decided) }
            }
        } onCancel: {
            state.withLock { $0.removeWaiter(id) }?.continuation.resume(throwing: CancellationError())
        }
    }

    /// `attempt` failed (a wrong password, a taken address): its caller pays for it too. The
    /// attempts of its caller that wait are decided again.
    package func failed(_ attempt: Attempt, at now: Timestamp) {
        let decided = state.withLock { state in
            if let caller = attempt.caller { state.take(caller, at: now.microsecondsSinceEpoch) }
            return state.end(attempt, at: now)
        }
        Self.resume(decided)
    }

    /// `attempt` worked, or ended for a reason that says nothing of the password (the store
    /// failed): the account's attempt is given back, and the attempts of its caller that wait
    /// are decided again.
    package func ended(_ attempt: Attempt, at now: Timestamp) {
        let decided = state.withLock { state in
            if let account = attempt.account { state.giveBack(account, at: now.microsecondsSinceEpoch) }
            return state.end(attempt, at: now)
        }
        Self.resume(decided)
    }

    /// How many buckets are kept now (at most ``Limits/tracked``).
    package var trackedCount: Int { state.withLock { $0.buckets.count } }

    /// How many attempts wait for one of their caller's to end.
    package var waitingCount: Int { state.withLock { $0.waiting.values.reduce(0) { $0 + $1.count } } }

    /// Resumes each waiter decided, outside the lock.
    private static func resume(_ decided: [(Waiter, Result<Void, any Error>)]) {
        for (waiter, result) in decided { waiter.continuation.resume(with: result) }
    }
}
