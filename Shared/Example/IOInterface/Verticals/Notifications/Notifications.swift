import VerticalsContract

/// The notifications vertical's contract: a per-user inbox and each message's delivery state.
///
/// Other verticals ``send`` (appointments tells a patient about a booking); users read
/// their own ``inbox`` and ``markRead`` with a session token from ``Identity/login``,
/// checked through ``Identity/authenticate``. Nobody else reads notifications' store.
///
/// Its operations are here; its messages and enumerations are declared in `notifications.vcontract`
/// beside this file, from which VerticalsContractPlugin generates their Swift (docs/CONTRACTS.md).
public enum Notifications: ServiceContract {
    public static let name = "notifications"
    public static let summary = "Per-user inboxes: notifications other verticals send, and whether each was read."

    /// Puts a notification in a user's inbox; a repeated `deduplicationKey` returns the first one
    /// (`conflict` if that key was used for another user). `notFound` when identity has no such
    /// user; `unavailable` when identity cannot be asked, and then nothing is stored.
    public static let send = Operation<SendInput, Notification>(
        name, "send",
        summary: "Deliver a notification to a user's inbox, exactly once per deduplication key.",
        errors: [.invalidInput, .notFound, .conflict, .unavailable])

    /// Lists the caller's notifications, newest first.
    public static let inbox = Operation<InboxInput, Inbox>(
        name, "inbox", summary: "List the caller's notifications, newest first, with the unread count.",
        errors: [.invalidInput, .unauthenticated, .unavailable], route: Route("/notifications"))

    /// Marks one of the caller's notifications as read.
    public static let markRead = Operation<MarkReadInput, Notification>(
        name, "markRead", summary: "Mark one of the caller's notifications as read (idempotent).",
        errors: [.unauthenticated, .notFound, .permissionDenied, .unavailable])

    public static let operations = [send.descriptor, inbox.descriptor, markRead.descriptor]
}
