/// Whether the host's timeout sweep rests (see `ServiceHost+Timeouts.swift`), shared by the host
/// and its connections: a connection that receives a frame while it rests notes the time itself,
/// as the sweep would have, so the sweep need not wake for it. Its own object, held strongly, so
/// the check on every frame is one load, not a retain of the host. Loop-confined.
final class SweepRest {
    /// True while the sweep is armed only for the earliest idle deadline.
    var isResting = false
}
