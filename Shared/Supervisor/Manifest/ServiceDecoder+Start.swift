// The keys of when a service runs: `start` and `idle_exit`.
extension ServiceDecoder {
    /// Reads `start` and `idle_exit` into `spec`, and checks them against the keys they need.
    mutating func decodeStart(_ table: [String: ManifestValue], into spec: inout ServiceSpec) {
        if let value = table["start"], let start: StartMode = choice(value, at: "start") {
            spec.start = start
        }
        if let value = table["idle_exit"] {
            spec.idleExit = duration(value, at: "idle_exit", hint: "; leave the key out to keep it running")
        }
        // Only a socket the supervisor holds can start a service at a caller's connect.
        if spec.start == .onDemand && !spec.socket && (isOwn("start") || isOwn("socket")) {
            report(
                "start",
                "\"on-demand\" starts the service at the first connection to its socket: it needs socket = true",
                always: true)
        }
        if spec.idleExit != nil && !spec.socket && (isOwn("idle_exit") || isOwn("socket")) {
            report(
                "idle_exit",
                "the next caller starts the service again through its socket: it needs socket = true "
                    + "(without one, nothing would start it again)",
                always: true)
        }
        if spec.idleExit != nil && spec.restart == .always && (isOwn("idle_exit") || isOwn("restart")) {
            report(
                "idle_exit",
                "the daemon exits 0 when idle and the next caller starts it again; restart = \"always\" "
                    + "would start it again at once: use restart = \"on-failure\" (the default)",
                always: true)
        }
    }
}
