import Synchronization

/// Suspends until the calling task is cancelled, which is how a ``DaemonLifecycle`` asks a
/// ``DaemonPart`` to shut down gracefully. Returns at once if the task is cancelled already.
///
/// It parks one continuation and holds no timer and no thread: an idle daemon waiting here
/// sleeps.
public func waitForShutdown() async {
    await waitForShutdown(or: ShutdownSignal())
}

/// ``waitForShutdown()``, or until `signal` fires, whichever comes first: how a part that may
/// end by itself (a host that exits when idle) waits.
func waitForShutdown(or signal: ShutdownSignal) async {
    await withTaskCancellationHandler {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            signal.wait(continuation)
        }
    } onCancel: {
        signal.fire()
    }
}

/// The one-shot behind ``waitForShutdown()``: whichever of the waiting task and its
/// cancellation (or anyone who calls ``fire()``) comes second resumes the continuation, once.
final class ShutdownSignal: Sendable {
    private enum State {
        case idle
        case waiting(CheckedContinuation<Void, Never>)
        case fired
    }

    private let state = Mutex(State.idle)

    func wait(_ continuation: CheckedContinuation<Void, Never>) {
        let fired = state.withLock { state -> Bool in
            guard case .idle = state else { return true }
            state = .waiting(continuation)
            return false
        }
        if fired { continuation.resume() }
    }

    func fire() {
        let waiting = state.withLock { state -> CheckedContinuation<Void, Never>? in
            defer { state = .fired }
            if case .waiting(let continuation) = state { return continuation }
            return nil
        }
        waiting?.resume()
    }
}
