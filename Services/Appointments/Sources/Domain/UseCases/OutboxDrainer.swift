import IOInterface
import Logging
import Synchronization
import VerticalsClient
import VerticalsContract
import VerticalsServiceKit
import VerticalsWire

/// Delivers the notifications appointments owes, from its outbox, exactly once each.
///
/// A booking hands its message over once it is durable in the outbox (``deliverLater(_:)``) and
/// answers without waiting: one background sender takes every message handed over meanwhile,
/// sends them concurrently and records their deliveries in one transaction, so under load a
/// burst of bookings costs one delivery commit, not one each. A cancellation still sends its own
/// at once (``deliver(_:)``). Whatever cannot be sent (notifications down or slow) stays in the
/// outbox and is retried with exponential backoff by one background task, which exists only
/// while something is undelivered: an idle daemon schedules nothing. The task is the daemon's
/// ``BackgroundWork``: on the loop, sleeping on its timers, and ended when the daemon drains
/// (what is still undelivered stays in the outbox for the next start). Deliveries are recorded through the
/// store's shared commits, so concurrent bookings record theirs in one transaction.
/// Notifications stores each deduplication key once, so a retry after a lost answer, or a
/// retry racing a booking's own send, cannot deliver twice.
package final class OutboxDrainer: Sendable {
    private let store: BookingStore
    private let caller: any ServiceCalling
    private let now: @Sendable () -> Timestamp
    private let settings: World.Settings
    private let logger: Logger
    private let background: BackgroundWork
    private let retries = Mutex(RetryState())
    private let handedOver = Mutex(SenderState())
    /// The most messages the sender sends at once (concurrently) and records in one commit.
    static let largestBatch = 128

    /// The messages handed over by ``deliverLater(_:)`` and not yet taken by the sender, whether
    /// the sender runs, and who waits for it to finish (``flushed()``).
    private struct SenderState {
        var queue: [OutboxMessage] = []
        var running = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    /// Whether the retry task runs, and how often it was asked for (so a request made while it
    /// decides to stop is not lost).
    private struct RetryState {
        var running = false
        var requests = 0
    }

    init(
        store: BookingStore, caller: any ServiceCalling, now: @escaping @Sendable () -> Timestamp,
        settings: World.Settings, logger: Logger, background: BackgroundWork
    ) {
        self.background = background
        self.store = store
        self.caller = caller
        self.now = now
        self.settings = settings
        self.logger = logger
    }

    /// Sends `message` (within the notify timeout) and records the outcome; whether it was
    /// delivered. An undelivered message starts the retry task.
    package func deliver(_ message: OutboxMessage) async -> Bool {
        await send([message], timeout: settings.notifyTimeout).isEmpty
    }

    /// Sends `message`, already durable in the outbox, after the caller has answered: on the
    /// daemon's background sender, batched with whatever else was handed over meanwhile. Its
    /// delivery is recorded like ``deliver(_:)``'s; a failure starts the retry task. Once the
    /// daemon drains, nothing starts: the outbox keeps the message for the next start.
    package func deliverLater(_ message: OutboxMessage) {
        let starts = handedOver.withLock { state in
            state.queue.append(message)
            guard !state.running else { return false }
            state.running = true
            return true
        }
        guard starts else { return }
        if !background.start({ await self.sendHandedOver() }) {
            finishSending() // draining: the outbox keeps them for the next start
        }
    }

    /// Returns once every message handed to ``deliverLater(_:)`` so far was sent or recorded as
    /// failed (the retry task may still run): what a test waits for instead of a sleep.
    package func flushed() async {
        await withCheckedContinuation { continuation in
            let done = handedOver.withLock { state in
                guard state.running else { return true }
                state.waiters.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }

    /// The background sender: sends what was handed over, in batches, until nothing is left.
    private func sendHandedOver() async {
        // Once the daemon drains (the task is cancelled) the rest stays in the outbox for the next start.
        while !Task.isCancelled {
            let batch = handedOver.withLock { state in
                let batch = Array(state.queue.prefix(Self.largestBatch))
                state.queue.removeFirst(batch.count)
                return batch
            }
            guard !batch.isEmpty else { break }
            _ = await send(batch, timeout: settings.notifyTimeout)
        }
        // A message handed over after the empty look is not lost: `finishSending` looks again
        // under the lock `deliverLater` appends under, and runs the sender once more.
        finishSending()
    }

    /// Stops the sender unless a message arrived since its last look, then wakes the waiters.
    private func finishSending() {
        let (restart, waiters) = handedOver.withLock { state -> (Bool, [CheckedContinuation<Void, Never>]) in
            if !state.queue.isEmpty, !background.isStopped { return (true, []) }
            state.queue.removeAll()
            state.running = false
            defer { state.waiters.removeAll() }
            return (false, state.waiters)
        }
        for waiter in waiters { waiter.resume() }
        if restart, !background.start({ await self.sendHandedOver() }) { finishSending() }
    }

    /// Starts retrying whatever a previous run left in the outbox.
    package func resume() {
        startRetrying()
    }

    /// Sends every due message once; returns the appointment ids still undelivered.
    @discardableResult
    func deliverDue(timeout: Duration?) async -> Set<String> {
        do {
            return await send(try await store.dueMessages(now: now()), timeout: timeout)
        } catch {
            logger.error("cannot read the outbox: \(error)")
            return []
        }
    }

    /// Sends `messages` concurrently, then records the deliveries in one transaction and the
    /// failures in another; returns the appointment ids of the messages not delivered.
    private func send(_ messages: [OutboxMessage], timeout: Duration?) async -> Set<String> {
        var delivered: [OutboxMessage] = []
        var failed: [(message: OutboxMessage, error: ServiceError)] = []
        if messages.count == 1 {
            if let error = await send(messages[0], timeout: timeout) {
                failed.append((messages[0], error))
            } else {
                delivered = messages
            }
        } else {
            await withTaskGroup(of: (OutboxMessage, ServiceError?).self) { group in
                for message in messages {
                    group.addTask { (message, await self.send(message, timeout: timeout)) }
                }
                for await (message, error) in group {
                    if let error { failed.append((message, error)) } else { delivered.append(message) }
                }
            }
        }
        var undelivered = Set(failed.map(\.message.appointmentID))
        do {
            try await store.markDelivered(delivered, at: now())
        } catch {
            // Notifications has them; only the record is missing: the retry sends again, and
            // notifications answers with what it stored the first time.
            logger.error("cannot record \(delivered.count) deliveries: \(error)")
            undelivered.formUnion(delivered.map(\.appointmentID))
            startRetrying()
        }
        guard !failed.isEmpty else { return undelivered }
        let retries = failed.map { failure in
            let delay = retryDelay(afterAttempts: failure.message.attempts)
            logger.notice(
                "notification for \(failure.message.appointmentID) not delivered (\(failure.error)); retry in \(delay)")
            return (message: failure.message, retryAt: now().adding(delay))
        }
        do {
            try await store.markFailed(retries)
        } catch {
            logger.error("cannot record \(retries.count) failed deliveries: \(error)")
        }
        startRetrying()
        return undelivered
    }

    /// Sends one message; its error, or `nil` once notifications has it.
    private func send(_ message: OutboxMessage, timeout: Duration?) async -> ServiceError? {
        do {
            _ = try await caller.call(
                Notifications.send,
                .init(
                    userID: message.userID, title: message.title, body: message.body,
                    deduplicationKey: message.deduplicationKey),
                timeout: timeout)
            return nil
        } catch {
            return error
        }
    }

    private func retryDelay(afterAttempts attempts: Int) -> Duration {
        var delay = settings.firstRetryDelay
        for _ in 0..<min(attempts, 20) where delay < settings.maxRetryDelay { delay *= 2 }
        return min(delay, settings.maxRetryDelay)
    }

    private func startRetrying() {
        let starts = retries.withLock { state in
            state.requests += 1
            guard !state.running else { return false }
            state.running = true
            return true
        }
        guard starts else { return }
        if !background.start({ await self.retryUntilEmpty() }) {
            retries.withLock { $0.running = false } // draining: the outbox keeps it for the next start
        }
    }

    private func retryUntilEmpty() async {
        while true {
            let requests = retries.withLock { $0.requests }
            let next: Timestamp?
            do { next = try await store.nextDue() } catch {
                logger.error("cannot read the outbox: \(error)")
                retries.withLock { $0.running = false }
                return
            }
            guard let next else {
                // Stop only if nobody asked for a retry since this look found the outbox empty.
                let stops = retries.withLock { state in
                    state.running = state.requests != requests
                    return !state.running
                }
                if stops { return } else { continue }
            }
            let wait = Duration.microseconds(max(0, next.microsecondsSinceEpoch - now().microsecondsSinceEpoch))
            // Wake at least every second while mail waits, so a message queued meanwhile is not overslept.
            do {
                try await background.sleep(for: min(wait, .seconds(1)))
            } catch {
                // The daemon drains: stop here; the outbox keeps what is undelivered.
                retries.withLock { $0.running = false }
                return
            }
            await deliverDue(timeout: nil)
        }
    }
}
