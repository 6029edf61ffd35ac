import Testing
import VerticalsWire

/// Expects what `CodedError` (VerticalsWire) promises of a cause: the error `make` builds with a cause keeps
/// it, equals the one it builds without (a cause is never compared), and differs from each of
/// `others` (the same error but for its code, message or details, which are compared).
///
/// ```swift
/// expectCauseIsKeptButNotCompared(
///     { StoreError(.unreadable, "not a whole store", cause: $0) },
///     differsFrom: StoreError(.notAStore, "not a whole store"))
/// ```
public func expectCauseIsKeptButNotCompared<Failure: CodedError>(
    _ make: (_ cause: (any Error)?) -> Failure, differsFrom others: Failure...,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let withCause = make(KeptCause())
    let without = make(nil)

    #expect(withCause == without, "a cause is not compared", sourceLocation: sourceLocation)
    #expect(withCause.cause is KeptCause, "the cause is kept", sourceLocation: sourceLocation)
    #expect(without.cause == nil, sourceLocation: sourceLocation)
    for other in others {
        #expect(withCause != other, "\(other) differs", sourceLocation: sourceLocation)
    }
}

/// The cause ``expectCauseIsKeptButNotCompared(_:differsFrom:sourceLocation:)`` gives.
private struct KeptCause: Error {}
