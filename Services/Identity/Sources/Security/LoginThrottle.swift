import Synchronization
import VerticalsWire

/// Limits password guesses: each account, and each caller (``VerticalsServiceKit/RequestContext/caller``:
/// a uid, a certificate's vertical, a TCP address), may fail ``Limits/failures`` times per
/// ``Limits/window``; past that, a login is refused with ``IdentityFailure/tooManyAttempts(retryAfterSeconds:)``
/// before its password is even hashed.
///
/// A token bucket per key: it holds ``Limits/failures`` attempts and refills at that many per
/// window. Every attempt takes one from the account's and the caller's bucket *before* the password
/// is checked, so a burst of concurrent guesses cannot all pass the check, and a login that works
/// gives its attempt back; an unknown address has a bucket as a known one does, so the limit
/// tells nothing about which accounts exist.
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
            func number(_ variable: String, _ range: ClosedRange<Int>, _ unit: String) throws(SettingsError) -> Int? {
                guard let text = environment[variable], !text.isEmpty else { return nil }
                guard let value = Int(text), range.contains(value) else {
                    throw SettingsError(
                        variable: variable, value: text,
                        expected: "\(unit), \(range.lowerBound)...\(range.upperBound)")
                }
                return value
            }
            if let value = try number("IDENTITY_LOGIN_FAILURES", 1...10_000, "failed logins per window") {
                limits.failures = value
            }
            if let value = try number("IDENTITY_LOGIN_WINDOW_SECONDS", 1...86_400, "whole seconds") {
                limits.window = .seconds(value)
            }
            if let value = try number("IDENTITY_LOGIN_TRACKED", 100...1_000_000, "accounts and callers") {
                limits.tracked = value
            }
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

    /// The keys of a login attempt: the account at `email` (as sent: normalized when it is an
    /// address, else the one bucket of malformed ones) and the caller, when known.
    package static func keys(email: String, caller: String?) -> [Key] {
        let account = EmailAddress(email).map { Key.account($0.value) } ?? .account("")
        return [account] + (caller.map { [.caller($0)] } ?? [])
    }

    /// Takes one attempt from each of `keys` at `now`; throws
    /// ``IdentityFailure/tooManyAttempts(retryAfterSeconds:)`` (and takes nothing) when one has none left.
    package func take(_ keys: [Key], at now: Timestamp) throws(IdentityFailure) {
        let instant = now.microsecondsSinceEpoch
        let waitMicroseconds: Int64? = buckets.withLock { buckets in
            var wait: Int64 = 0
            for key in keys {
                let left = refilled(buckets[key], at: instant)
                if left < 1 { wait = max(wait, Int64(((1 - left) / perMicrosecond).rounded(.up))) }
            }
            guard wait == 0 else { return wait }
            for key in keys {
                if buckets[key] == nil { makeRoom(in: &buckets, at: instant) }
                buckets[key] = Bucket(left: refilled(buckets[key], at: instant) - 1, at: instant)
            }
            return nil
        }
        if let waitMicroseconds {
            throw .tooManyAttempts(retryAfterSeconds: max(1, Int((waitMicroseconds + 999_999) / 1_000_000)))
        }
    }

    /// Gives back the attempt taken for `keys` (a login that worked, or a request refused for
    /// reasons that say nothing of the password, costs nothing).
    package func giveBack(_ keys: [Key], at now: Timestamp) {
        let instant = now.microsecondsSinceEpoch
        buckets.withLock { buckets in
            for key in keys {
                guard let bucket = buckets[key] else { continue }
                let left = min(Double(limits.failures), refilled(bucket, at: instant) + 1)
                buckets[key] = left >= Double(limits.failures) ? nil : Bucket(left: left, at: instant)
            }
        }
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
