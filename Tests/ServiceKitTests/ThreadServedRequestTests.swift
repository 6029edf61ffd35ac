import Testing
import VerticalsClient
@testable import VerticalsServiceKit
import VerticalsTesting

/// The object an `onSync` handler's thread binds as `Serving.current`: it answers for the request
/// served on its own thread while the handler runs, and for none on another thread or after.
struct ThreadServedRequestTests {
    static let context = RequestContext(
        operation: "echo.echo", correlationID: 7, deadline: Deadline(.now + .seconds(60)),
        traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", caller: "uid 1000")

    @Test func whileServing_itIsTheRequest_onItsOwnThreadAlone_andNoneAfter() {
        let context = Self.context
        var elsewhere: (deadline: Deadline?, traceparent: String?, correlationID: UInt64?)?
        let kept = ThreadServedRequest.serving(context) { () -> (any CallOrigin)? in
            #expect(RequestContext.current?.correlationID == 7)
            #expect(RequestContext.current?.caller == "uid 1000")
            #expect(Serving.current?.deadline == context.deadline)
            #expect(Serving.current?.traceparent == context.traceparent)
            let origin = Serving.current
            elsewhere = try? NewThread.run {
                (origin?.deadline, origin?.traceparent, (origin as? any ServedContext)?.servedContext?.correlationID)
            }
            return origin
        }
        #expect(kept != nil)
        #expect(elsewhere != nil)
        #expect(elsewhere?.deadline == nil)
        #expect(elsewhere?.traceparent == nil)
        #expect(elsewhere?.correlationID == nil)
        // Kept past the handler, on its own thread: it serves nothing now.
        #expect(kept?.deadline == nil)
        #expect(RequestContext.current == nil)
    }

    @Test func aNestedRequest_isServedWhileItRuns_andTheOuterOneAfter() {
        let inner = RequestContext(operation: "echo.echo", correlationID: 8)
        ThreadServedRequest.serving(Self.context) {
            ThreadServedRequest.serving(inner) { #expect(RequestContext.current?.correlationID == 8) }
            #expect(RequestContext.current?.correlationID == 7)
        }
        #expect(RequestContext.current == nil)
    }
}
