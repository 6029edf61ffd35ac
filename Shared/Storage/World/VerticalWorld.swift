import GRDB
import Logging
import VerticalsClient
import VerticalsServiceKit
import VerticalsWire

/// A vertical's dependency container: the ``WorldParts`` every vertical has, plus its own.
///
/// Conforming is one stored property; the shared parts then read as the World's own
/// (`world.now()`, `world.caller`, `world.database`), so use cases never reach into `parts`.
///
/// ```swift
/// public struct World: VerticalWorld {
///     public static let calls = Callees(Identity.self, Clinics.self)
///     public var parts: WorldParts
///     public var settings: Settings
///
///     public static func live(runtime: ServiceRuntime) throws -> World {
///         World(parts: try .live(runtime: runtime, migrator: Migrations.all, newID: RandomID.uuidString, calls: calls),
///               settings: .from(environment: runtime.environment))
///     }
/// }
/// ```
public protocol VerticalWorld: Sendable {
    /// The verticals this one calls: its routes as the code declares them (`Callees`). Its
    /// caller refuses any other, and its daemon does not start when the manifest's `depends_on`
    /// lacks one of them.
    static var calls: Callees { get }
    /// The clock, ids, store, caller and logger.
    var parts: WorldParts { get set }
}

extension VerticalWorld {
    /// The current time.
    public var now: @Sendable () -> Timestamp {
        get { parts.now }
        set { parts.now = newValue }
    }

    /// A new unique id in the vertical's format.
    public var newID: @Sendable () -> String {
        get { parts.newID }
        set { parts.newID = newValue }
    }

    /// The vertical's own store.
    public var database: any DatabaseWriter {
        get { parts.database }
        set { parts.database = newValue }
    }

    /// Other verticals.
    public var caller: any ServiceCalling {
        get { parts.caller }
        set { parts.caller = newValue }
    }

    /// The daemon's logger.
    public var logger: Logger {
        get { parts.logger }
        set { parts.logger = newValue }
    }
}
