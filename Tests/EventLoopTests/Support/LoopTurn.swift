import VerticalsEventLoop

/// Returns once `loop` has finished the turn it is on and run every timer due by now: a
/// 1 ms timer started now fires only after the timers due before it (libuv runs them in the
/// order they are due) and in a later turn than any work submitted before this call, whose
/// close callbacks run at the end of that turn. However late a loaded machine schedules the
/// loop thread, this returns only after that.
///
/// For checks that something did *not* happen: wait until it would have happened, not for a
/// fixed time in which a stalled loop might not have got to it.
///
/// ```swift
/// try await Task.sleep(for: .milliseconds(60))  // past the 20 ms timer's due time
/// try await loopHasTurned(loop)                 // and the loop has run what was due by now
/// #expect(fired.value == 0)
/// ```
func loopHasTurned(_ loop: EventLoop) async throws {
    let fired = Expectation<Void>("a 1 ms timer started after the others were due")
    _ = try await onLoop(loop) {
        let timer = LoopTimer(loop: loop)
        timer.start(after: .milliseconds(1)) {
            timer.close()
            fired.fulfill(())
        }
    }
    try await fired.value()
}
