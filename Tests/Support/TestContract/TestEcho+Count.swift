import VerticalsContract
import VerticalsWire

extension TestEcho {
    /// Streams `count` events, each `bytes` of padding, then ends with a response, or with the
    /// error `failWith` if given. Pull-driven: the next event is made only when asked for, so a
    /// test can see backpressure hold the producer (``produced``).
    public var count: StreamOperation<CountInput, CountEvent> {
        StreamOperation(
            service, "count", summary: "Stream numbered events, then end or fail.", errors: ErrorCode.knownCases)
    }

    /// How many events every `count` stream of this daemon has made so far.
    public var produced: Operation<Empty, Produced> {
        Operation(service, "produced", summary: "How many stream events this daemon has made.")
    }
}
