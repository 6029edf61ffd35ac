import Testing
import VerticalsServiceKit
import VerticalsWire

/// The `ServiceError` a caller would get for what `body` throws: a domain error in its wire
/// form (`ServiceErrorConvertible`), as the Router answers it. Records an issue when `body`
/// succeeds or throws something with no wire form (the caller would see `internal`).
///
/// ```swift
/// let error = await wireError { _ = try await AddEntry(world: world).execute(.fixture(text: "")) }
/// #expect(error?.code == .invalidInput)
/// ```
public func wireError(
    sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Void
) async -> ServiceError? {
    do {
        try await body()
        Issue.record("expected a refusal, got success", sourceLocation: sourceLocation)
    } catch let error as any ServiceErrorConvertible {
        return error.serviceError
    } catch {
        Issue.record("expected an error with a wire form, got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}
