import IOInterface
import VerticalsClient
import VerticalsContract
import VerticalsServiceKit
import VerticalsStorage

/// Everything notifications' use cases depend on, built once: in `main.swift` by
/// ``live(runtime:)``, in tests from test ``WorldParts``. Use cases reach nothing else.
///
/// The clock, ids (random UUIDs), store, caller (identity: tokens and recipients) and logger are
/// its ``parts``; the rest is notifications' own.
package struct World: VerticalWorld {
    /// The operations it calls, one by one: identity (sessions, recipients).
    /// Its caller refuses any other (``DeclaredCaller``), its daemon warns when deploy/suite.toml's
    /// `depends_on` differs, and the callee refuses what `depends_on` does not name.
    package static let calls: Callees = Callees(Identity.authenticate, Identity.getUser)
    /// The clock, ids, store, caller and logger.
    package var parts: WorldParts
    /// Notifications in the store, stored through shared commits (see ``GroupCommit``).
    package let notifications: NotificationRepository
    /// The recipients identity already confirmed.
    package let knownRecipients = KnownRecipients()

    /// Creates a World from its parts.
    package init(parts: WorldParts) {
        self.parts = parts
        self.notifications = NotificationRepository(database: parts.database)
    }

    /// The daemon's World: the common parts (``WorldParts/live(runtime:migrator:newID:calls:)``: full
    /// durability, as a sender drops its outbox entry once `send` answers, so an acknowledged
    /// notification must be on disk).
    package static func live(runtime: ServiceRuntime) throws -> World {
        World(parts: try .live(runtime: runtime, migrator: Migrations.all, newID: RandomID.uuidString, calls: calls))
    }
}
