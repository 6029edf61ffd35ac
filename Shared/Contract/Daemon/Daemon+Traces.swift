import VerticalsWire

extension Daemon {
    /// The spans a daemon holds in its ring of recent spans: one trace's (`traceID`), or the
    /// slowest recent requests (`svc-supervisor trace ID`, `trace --slowest N`). Every request
    /// served leaves a summary there, sampled or not; an empty list when tracing is off.
    public static let traces = Operation<TracesInput, Traces>(
        name, "traces",
        summary: "List the recent spans of one trace, or the slowest recent requests, from the daemon's ring.",
        errors: [.invalidInput])
}
