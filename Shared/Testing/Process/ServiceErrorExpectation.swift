import Testing
import VerticalsWire

/// The `ServiceError` `body` throws; records an issue when it throws something else or nothing.
public func serviceError(_ body: () async throws -> some Any) async -> ServiceError? {
    do {
        _ = try await body()
        Issue.record("expected a ServiceError, got success")
    } catch let error as ServiceError {
        return error
    } catch {
        Issue.record("expected a ServiceError, got \(error)")
    }
    return nil
}
