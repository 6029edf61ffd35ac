import Glibc
import VerticalsContract
import VerticalsEventLoop
import VerticalsSupervisorClient

/// How a test starts a child process: the environment every child gets, and `posix_spawn`
/// with the argument and environment arrays it takes (``runCommand(_:_:environment:in:standardInput:timeout:sourceLocation:)``
/// and ``DaemonProcess``).
enum TestChild {
    /// `environment` as a test's child sees it: the run's `VT_TEST_TAG` (so a run's leftovers are
    /// found and killed), a `PATH`, and no suite pointer or service users unless the test set them.
    static func environment(_ environment: [String: String]) -> [String: String] {
        var env = environment
        env["VT_TEST_TAG"] = TestRunTag.value
        env["PATH"] = env["PATH"] ?? "/usr/bin:/bin"
        // A supervisor passes its services only what this names: the tags that find them again,
        // and the log level a test asks of the whole suite.
        env[SupervisorSettings.passEnvironment.name] =
            env[SupervisorSettings.passEnvironment.name] ?? "VT_TEST_TAG VT_DAEMON_TAG VERTICALS_LOG_LEVEL"
        // No suite pointer unless a test asks for one in its own folder: parallel supervisors run as
        // root must never read or replace the pointer of a real `up` in /run/verticals.
        env[SupervisorSettings.pointerDir.name] = env[SupervisorSettings.pointerDir.name] ?? ""
        // A supervisor run as root keeps its services as root in tests (their temporary folders
        // are 0700) unless a test asks for a user per vertical.
        env[SupervisorSettings.serviceUsers.name] = env[SupervisorSettings.serviceUsers.name] ?? "off"
        return env
    }

    /// Starts `path` with `arguments` and exactly `environment`, its descriptors set by `actions`.
    static func spawn(
        _ path: String, _ arguments: [String], environment: [String: String], actions: inout posix_spawn_file_actions_t
    ) throws(DaemonProcess.SpawnError) -> pid_t {
        let started = ChildProcess.posixSpawn(path, arguments, environment: environment, actions: &actions)
        guard started.status == 0 else { throw DaemonProcess.SpawnError(path: path, errno: started.status) }
        return started.pid
    }
}
