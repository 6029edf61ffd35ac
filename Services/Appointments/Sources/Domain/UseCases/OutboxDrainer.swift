import IOInterface
import Logging
import ServiceKit

/// Delivers the notifications appointments owes, from its outbox, exactly once each.
///
/// A booking asks for its message at once (``deliverNow(appointmentID:)``); whatever
/// cannot be sent (notifications down or slow) stays in the outbox and is retried with
/// exponential backoff by one background task, which exists only while something is
/// undelivered: an idle daemon schedules nothing. Notifications stores each
/// deduplication key once, so a retry after a lost answer cannot deliver twice.
public actor OutboxDrainer {
    private let store: BookingStore
    private let caller: any ServiceCalling
    private let now: @Sendable () -> Timestamp
    private let settings: World.Settings
    private let logger: Logger
    private var retrying = false

    init(
        store: BookingStore, caller: any ServiceCalling, now: @escaping @Sendable () -> Timestamp,
        settings: World.Settings, logger: Logger
    ) {
        self.store = store
        self.caller = caller
        self.now = now
        self.settings = settings
        self.logger = logger
    }

    /// Sends every due message once (within the notify timeout); returns whether the messages
    /// of `appointmentID` were delivered. Starts the retry task if anything is left.
    public func deliverNow(appointmentID: String) async -> Bool {
        let undelivered = await deliverDue(timeout: settings.notifyTimeout)
        if !undelivered.isEmpty { startRetrying() }
        return !undelivered.contains(appointmentID)
    }

    /// Starts retrying whatever a previous run left in the outbox.
    public func resume() {
        startRetrying()
    }

    /// Sends every due message once; returns the appointment ids still undelivered.
    @discardableResult
    func deliverDue(timeout: Duration?) async -> Set<String> {
        let due: [OutboxMessage]
        do {
            due = try await store.dueMessages(now: now())
        } catch {
            logger.error("cannot read the outbox: \(error)")
            return []
        }
        var undelivered = Set<String>()
        for message in due {
            do {
                _ = try await caller.call(
                    Notifications.send,
                    .init(userID: message.userID, title: message.title, body: message.body,
                          deduplicationKey: message.deduplicationKey),
                    timeout: timeout)
                try await store.markDelivered(message, at: now())
            } catch {
                undelivered.insert(message.appointmentID)
                let delay = retryDelay(afterAttempts: message.attempts)
                logger.notice("notification for \(message.appointmentID) not delivered (\(error)); retry in \(delay)")
                try? await store.markFailed(message, retryAt: now().adding(delay))
            }
        }
        return undelivered
    }

    private func retryDelay(afterAttempts attempts: Int) -> Duration {
        var delay = settings.firstRetryDelay
        for _ in 0..<min(attempts, 20) where delay < settings.maxRetryDelay { delay *= 2 }
        return min(delay, settings.maxRetryDelay)
    }

    private func startRetrying() {
        guard !retrying else { return }
        retrying = true
        Task { await self.retryUntilEmpty() }
    }

    private func retryUntilEmpty() async {
        defer { retrying = false }
        while true {
            let next: Timestamp?
            do { next = try await store.nextDue() } catch {
                logger.error("cannot read the outbox: \(error)")
                return
            }
            guard let next else { return }
            let wait = Duration.microseconds(max(0, next.microsecondsSinceEpoch - now().microsecondsSinceEpoch))
            // Wake at least every second while mail waits, so a message queued meanwhile is not overslept.
            try? await Task.sleep(for: min(wait, .seconds(1)))
            await deliverDue(timeout: nil)
        }
    }
}
