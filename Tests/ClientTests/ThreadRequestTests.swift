import Testing
import VerticalsClient
import VerticalsWire

/// `Serving.withThreadRequest`: the request a handler with no task serves, seen as
/// `Serving.current` while it runs and never after.
struct ThreadRequestTests {
    final class Origin: CallOrigin {
        let name: String
        var deadline: Deadline? { nil }
        var traceparent: String? { nil }
        init(_ name: String) { self.name = name }
    }

    @Test func aThreadRequest_isCurrentWhileItsBodyRuns_andTheOuterOneAfter() {
        let outer = Origin("outer")
        let inner = Origin("inner")
        #expect(Serving.current == nil)
        Serving.withThreadRequest(outer) {
            #expect(Serving.current === outer)
            Serving.withThreadRequest(inner) { #expect(Serving.current === inner) }
            #expect(Serving.current === outer)
        }
        #expect(Serving.current == nil)
    }

    @Test func aThreadRequest_isGoneAfterItsBodyThrows() {
        struct Failure: Error {}
        #expect(throws: Failure.self) {
            try Serving.withThreadRequest(Origin("failing")) { throw Failure() }
        }
        #expect(Serving.current == nil)
    }

    @Test func aTasksOwnRequest_comesBeforeTheThreadsRequest() async {
        let bound = Origin("bound")
        let seen = Serving.withThreadRequest(Origin("thread")) {
            Serving.$request.withValue(bound) { Serving.current }
        }
        #expect(seen === bound)
    }
}
