/// Whether the host's timeout sweep rests (see `ServiceHost+Timeouts.swift`), shared by the host
/// and its connections: a connection that receives a frame while it rests wakes the sweep. Its
/// own object, held strongly, so the check on every frame is one load, not a retain of the host.
/// Loop-confined.
final class SweepRest {
    /// True while the sweep is armed only for the earliest idle deadline.
    var isResting = false
    /// Called on the loop when a frame arrives while resting: resumes regular looks.
    var wake: () -> Void = {}
}
