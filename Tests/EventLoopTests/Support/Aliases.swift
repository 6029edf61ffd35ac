import VerticalsEventLoop

// Swift Testing also declares `ExitStatus`, and the module `EventLoop` cannot qualify its own
// types (its class `EventLoop` shadows the module name), so name ours from a file that does
// not import Testing.
typealias ChildExitStatus = ExitStatus
