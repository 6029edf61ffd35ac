import VerticalsWire

/// The throttle's state, behind its lock: buckets, attempts in flight and waiting ones. Each
/// event (an attempt begins, ends, is cancelled) is one mutating function that returns whom to
/// resume, so the lock is never held while a task runs.
extension LoginThrottle {
    /// An attempt that waits for one of its caller's in flight to end.
    struct Waiter {
        let id: UInt64
        let attempt: Attempt
        let continuation: CheckedContinuation<Void, any Error>
    }

    /// What the throttle knows, behind its lock.
    struct State {
        /// A bucket: the attempts left at `at` (microseconds since the epoch).
        struct Bucket {
            var left: Double
            var at: Int64
        }

        let limits: Limits
        var buckets: [Key: Bucket] = [:]
        /// Attempts begun and not yet ended, per caller.
        var inFlight: [Key: Int] = [:]
        /// Attempts waiting for one of their caller's to end, per caller, first come first.
        var waiting: [Key: [Waiter]] = [:]
        private var lastWaiterID: UInt64 = 0

        init(limits: Limits) {
            self.limits = limits
        }

        mutating func newWaiterID() -> UInt64 {
            lastWaiterID += 1
            return lastWaiterID
        }

        /// Decides `waiter` at `now`: nil when it waits (it is kept), else its result (taken when admitted).
        mutating func begin(_ waiter: Waiter, at now: Timestamp) -> Result<Void, any Error>? {
            let instant = now.microsecondsSinceEpoch
            // Only a caller's attempts wait; behind others of its caller, an attempt waits its turn.
            guard let caller = waiter.attempt.caller else { return decide(waiter.attempt, at: instant) }
            if waiting[caller] == nil, let decided = decide(waiter.attempt, at: instant) { return decided }
            waiting[caller, default: []].append(waiter)
            return nil
        }

        /// Ends `attempt` in flight, and decides its caller's waiters again, first come first,
        /// until one still has to wait: those decided, with their results.
        mutating func end(_ attempt: Attempt, at now: Timestamp) -> [(Waiter, Result<Void, any Error>)] {
            guard let caller = attempt.caller else { return [] }
            let left = (inFlight[caller] ?? 1) - 1
            inFlight[caller] = left > 0 ? left : nil
            var decided: [(Waiter, Result<Void, any Error>)] = []
            while let next = waiting[caller]?.first, let result = decide(next.attempt, at: now.microsecondsSinceEpoch) {
                waiting[caller]?.removeFirst()
                decided.append((next, result))
            }
            if waiting[caller]?.isEmpty == true { waiting[caller] = nil }
            return decided
        }

        /// The waiter `id`, removed, if it still waits.
        mutating func removeWaiter(_ id: UInt64) -> Waiter? {
            for (caller, var queue) in waiting {
                guard let index = queue.firstIndex(where: { $0.id == id }) else { continue }
                let waiter = queue.remove(at: index)
                waiting[caller] = queue.isEmpty ? nil : queue
                return waiter
            }
            return nil
        }

        /// Refused when the account, or the caller's failures alone, left no attempt; nil (wait)
        /// when the caller's attempts in flight take what its failures left; else admitted: the
        /// account's attempt taken, the caller's counted in flight.
        private mutating func decide(_ attempt: Attempt, at instant: Int64) -> Result<Void, any Error>? {
            var wait: Int64 = 0
            for key in [attempt.account, attempt.caller].compactMap({ $0 }) {
                let left = refilled(buckets[key], at: instant)
                if left < 1 { wait = max(wait, Int64(((1 - left) / perMicrosecond).rounded(.up))) }
            }
            guard wait == 0 else {
                let seconds = max(1, Int((wait + 999_999) / 1_000_000))
                return .failure(IdentityFailure.tooManyAttempts(retryAfterSeconds: seconds))
            }
            if let caller = attempt.caller {
                let running = inFlight[caller] ?? 0
                guard refilled(buckets[caller], at: instant) - Double(running) >= 1 else { return nil }
                inFlight[caller] = running + 1
            }
            if let account = attempt.account { take(account, at: instant) }
            return .success(())
        }

        /// Gives `account` back the attempt its login took.
        mutating func giveBack(_ account: Key, at instant: Int64) {
            guard let bucket = buckets[account] else { return }
            let left = min(Double(limits.failures), refilled(bucket, at: instant) + 1)
            buckets[account] = left >= Double(limits.failures) ? nil : Bucket(left: left, at: instant)
        }

        /// Takes one attempt of `key`'s bucket, down to at most one window's worth below empty.
        mutating func take(_ key: Key, at instant: Int64) {
            if buckets[key] == nil { makeRoom(at: instant) }
            let left = max(-Double(limits.failures), refilled(buckets[key], at: instant) - 1)
            buckets[key] = Bucket(left: left, at: instant)
        }

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
        private mutating func makeRoom(at instant: Int64) {
            guard buckets.count >= limits.tracked else { return }
            let full = Double(limits.failures)
            buckets = buckets.filter { refilled($0.value, at: instant) < full }
            guard buckets.count >= limits.tracked,
                let fullest = buckets.max(by: { refilled($0.value, at: instant) < refilled($1.value, at: instant) })
            else { return }
            buckets[fullest.key] = nil
        }
    }
}

extension Duration {
    /// The duration in whole microseconds.
    fileprivate var wholeMicroseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000 + attoseconds / 1_000_000_000_000
    }
}
