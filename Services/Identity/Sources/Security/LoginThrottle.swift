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
/// cannot all pass, and gives it back when the login works; the caller's pays only for a failure
/// (``begin(_:at:)``). An unknown address has a bucket as a known one does, so the limit tells
/// nothing about which accounts exist.
///
/// Memory is bounded: at most ``Limits/tracked`` buckets. A full bucket is the same as none and
/// is dropped first; when every bucket is in use, the fullest goes (the one whose owner failed
/// least lately), so an attacker spraying addresses from many callers can neither grow the table
/// nor keep their own buckets by flooding it, beyond losing the oldest ones.
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
            if let value = try Settings.read(Settings.loginWindowSeconds, environment) { limits.window = .seconds(value) }
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

    /// A bucket: the attempts left at `at` (microseconds since the epoch).
    private struct Bucket {
        var left: Double
        var at: Int64
    }

    /// The limits it applies.
    package let limits: Limits
    private let buckets = Mutex<[Key: Bucket]>([:])

    /// A throttle applying `limits`.
    package init(limits: Limits) {
        self.limits = limits
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
    /// now, so that a burst of concurrent guesses at one account cannot all pass. The caller's is
    /// taken only when the attempt fails (``failed(_:at:)``): people logging in at once through one
    /// caller (a suite whose verticals share one uid) are not refused for being many.
    package func begin(_ attempt: Attempt, at now: Timestamp) throws(IdentityFailure) {
        let instant = now.microsecondsSinceEpoch
        let waitMicroseconds: Int64? = buckets.withLock { buckets in
            var wait: Int64 = 0
            for key in [attempt.account, attempt.caller].compactMap({ $0 }) {
                let left = refilled(buckets[key], at: instant)
                if left < 1 { wait = max(wait, Int64(((1 - left) / perMicrosecond).rounded(.up))) }
            }
            guard wait == 0 else { return wait }
            if let account = attempt.account { take(account, from: &buckets, at: instant) }
            return nil
        }
        if let waitMicroseconds {
            throw .tooManyAttempts(retryAfterSeconds: max(1, Int((waitMicroseconds + 999_999) / 1_000_000)))
        }
    }

    /// `attempt` failed (a wrong password, a taken address): its caller pays for it too. A burst
    /// that passed ``begin(_:at:)`` together pays in full, so the caller waits the longer after it
    /// (at most two windows).
    package func failed(_ attempt: Attempt, at now: Timestamp) {
        guard let caller = attempt.caller else { return }
        buckets.withLock { buckets in take(caller, from: &buckets, at: now.microsecondsSinceEpoch) }
    }

    /// `attempt` worked, or ended for a reason that says nothing of the password (the store
    /// failed): the account's attempt is given back.
    package func ended(_ attempt: Attempt, at now: Timestamp) {
        guard let account = attempt.account else { return }
        let instant = now.microsecondsSinceEpoch
        buckets.withLock { buckets in
            guard let bucket = buckets[account] else { return }
            let left = min(Double(limits.failures), refilled(bucket, at: instant) + 1)
            buckets[account] = left >= Double(limits.failures) ? nil : Bucket(left: left, at: instant)
        }
    }

    /// Takes one attempt of `key`'s bucket, down to at most one window's worth below empty.
    private func take(_ key: Key, from buckets: inout [Key: Bucket], at instant: Int64) {
        if buckets[key] == nil { makeRoom(in: &buckets, at: instant) }
        let left = max(-Double(limits.failures), refilled(buckets[key], at: instant) - 1)
        buckets[key] = Bucket(left: left, at: instant)
    }

    /// How many buckets are kept now (at most ``Limits/tracked``).
    package var trackedCount: Int { buckets.withLock { $0.count } }

    /// Attempts a bucket regains per microsecond.
    private var perMicrosecond: Double {
        Double(limits.failures) / Double(max(1, limits.window.wholeMicroseconds))
    }

    /// What `bucket` holds at `instant`: full when there is none.
    private func refilled(_ bucket: Bucket?, at instant: Int64) -> Double {
        guard let bucket else { return Double(limits.failures) }
        let regained = Double(max(0, instant - bucket.at)) * perMicrosecond
        return min(Double(limits.failures), bucket.left + regained)
    }

    /// Makes room for one more bucket when ``Limits/tracked`` are kept: drops the full ones,
    /// else the fullest.
    private func makeRoom(in buckets: inout [Key: Bucket], at instant: Int64) {
        guard buckets.count >= limits.tracked else { return }
        let full = Double(limits.failures)
        buckets = buckets.filter { refilled($0.value, at: instant) < full }
        guard buckets.count >= limits.tracked,
            let fullest = buckets.max(by: { refilled($0.value, at: instant) < refilled($1.value, at: instant) })
        else { return }
        buckets[fullest.key] = nil
    }
}

extension Duration {
    /// The duration in whole microseconds.
    fileprivate var wholeMicroseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000 + attoseconds / 1_000_000_000_000
    }
}
