import VerticalsWire

extension ServerConnection {
    /// The one request whose handler is running inline, in the read callback, before its first
    /// suspension. Taken back either by the handler finishing (`take(id)`) or, when it suspended,
    /// by the read callback filing it in `inFlight` (`take()`).
    struct Running {
        // Two fields, not an optional `(id, entry)` tuple: copying that tuple had the Swift runtime
        // build its metadata from its mangled name on a daemon's first request.
        private var currentID: UInt64 = 0
        private var current: InFlight?

        /// Nothing running inline.
        init() {}

        /// Request `id` starts inline with `entry`.
        init(id: UInt64, entry: InFlight) {
            currentID = id
            current = entry
        }

        /// The id of the request running inline, if any.
        var id: UInt64? { current == nil ? nil : currentID }

        var isEmpty: Bool { current == nil }

        /// The entry of request `id` if it is the one running inline; clears it.
        mutating func take(_ id: UInt64) -> InFlight? {
            guard currentID == id else { return nil }
            return current.take()
        }

        /// The entry of the request running inline (its id is ``id``), if any; clears it.
        mutating func take() -> InFlight? {
            current.take()
        }
    }
}

extension ServerConnection {
    /// A request that passed every check, whose handler may suspend: what ``serveInline(_:)``
    /// needs. (One that answers at once is served as it is prepared, with none of this.)
    ///
    /// A class: it is handed into the handler's task and on, and a struct of this size cost a
    /// retain of each of its references at every copy.
    final class Prepared: Sendable {
        let id: UInt64
        let message: Message
        let route: Router.Route
        let context: RequestContext
        let entry: InFlight

        init(id: UInt64, message: Message, route: @escaping Router.Route, context: RequestContext, entry: InFlight) {
            self.id = id
            self.message = message
            self.route = route
            self.context = context
            self.entry = entry
        }
    }
}
