import Testing
import VerticalsEventLoop
import VerticalsWire

/// `EventLoopError` in the framework's one error shape (`CodedError`): its kind is its code, the
/// path, operation, step and errno are details, libuv's errno is `errnoCode`, and it prints as before.
struct EventLoopErrorShapeTests {
    @Test(arguments: [
        (EventLoopError.pathTooLong("/run/a.sock", limit: 107), EventLoopError.Code.pathTooLong),
        (.addressInUse("/run/a.sock"), .addressInUse), (.connectionRefused, .connectionRefused),
        (.notFound, .notFound), (.closed, .closed), (.system(operation: "bind", code: -13), .system),
        (.tls("no certificate"), .tls), (.certificate("refused"), .tls), (.spawn(step: "exec", code: -2), .spawn),
    ])
    func itsCode_isItsKind(error: EventLoopError, code: EventLoopError.Code) {
        #expect(error.code == code && error.kind == code)
        #expect(error.description == error.message)
    }

    @Test func aSystemError_givesItsOperationAndErrno_asDetails() {
        let error = EventLoopError.system(operation: "bind", code: -13)

        #expect(error.detail("operation") == "bind" && error.detail("errno") == "-13" && error.errnoCode == -13)
        #expect(error.description == "bind failed: EACCES (permission denied)")
    }

    @Test func aPathError_givesItsPath_andATooLongOneItsLimit() {
        let long = EventLoopError.pathTooLong("/run/a.sock", limit: 107)

        #expect(long.detail("path") == "/run/a.sock" && long.detail("limit") == "107")
        #expect(EventLoopError.addressInUse("/run/a.sock").detail("path") == "/run/a.sock")
        #expect(EventLoopError.spawn(step: "chdir", code: -2).detail("step") == "chdir")
        #expect(EventLoopError.closed.details.isEmpty)
    }
}
