import Glibc

extension ChildProcess {
    /// What to run and how: the `uv_spawn` options in Swift terms.
    ///
    /// ```swift
    /// var options = ChildProcess.Options(executable: "/usr/local/bin/vt-identity")
    /// options.environment["LISTEN_FDS"] = "1"
    /// options.inheritedFDs = [listeningSocket]   // becomes the child's fd 3
    /// options.stdout = .capture
    /// ```
    public struct Options: Sendable {
        /// Where a child's stdout or stderr goes.
        public enum Output: Sendable, Equatable {
            /// `/dev/null`.
            case ignore
            /// The parent's own stdout or stderr.
            case inherit
            /// A pipe whose chunks arrive through `onOutput`.
            case capture
            /// A descriptor the parent holds (e.g. the write end of a pipe it keeps across the
            /// child's restarts, as s6 holds a service's log pipe); the parent keeps owning it.
            case descriptor(Int32)
        }

        /// The program: a path, or a name looked up in the child environment's `PATH`.
        public var executable: String
        /// The arguments after `argv[0]` (which is `executable`).
        public var arguments: [String]
        /// The child's whole environment (it inherits nothing else).
        public var environment: [String: String]
        /// The child's working directory; nil keeps the parent's.
        public var workingDirectory: String?
        /// Open fds passed as the child's fds 3, 4, … (`UV_INHERIT_FD`), e.g. a listening socket
        /// for `LISTEN_FDS`. The child's stdin is always `/dev/null`.
        public var inheritedFDs: [Int32]
        /// Where the child's stdout goes.
        public var stdout: Output
        /// Where the child's stderr goes.
        public var stderr: Output
        /// Runs the child in its own session and process group (`setsid`, `UV_PROCESS_DETACHED`).
        public var detached: Bool
        /// How the child is started: `uv_spawn` (the default) or ``Launch/vfork(parentDeathSignal:)``.
        /// Not an init parameter, so the init's signature (API) stays as it was.
        public var launch: Launch = .uvSpawn

        /// Options to run `executable`; by default with this process's environment and output.
        public init(
            executable: String,
            arguments: [String] = [],
            environment: [String: String] = ChildProcess.currentEnvironment,
            workingDirectory: String? = nil,
            inheritedFDs: [Int32] = [],
            stdout: Output = .inherit,
            stderr: Output = .inherit,
            detached: Bool = false
        ) {
            self.executable = executable
            self.arguments = arguments
            self.environment = environment
            self.workingDirectory = workingDirectory
            self.inheritedFDs = inheritedFDs
            self.stdout = stdout
            self.stderr = stderr
            self.detached = detached
        }
    }

    /// How a child is started.
    public enum Launch: Sendable, Equatable {
        /// `uv_spawn`: a `fork` of this process (its page tables copied), then `execvp`.
        case uvSpawn
        /// `vt_spawn` (the CSpawn target): a `clone(CLONE_VM | CLONE_VFORK)` child that shares
        /// this process's memory until it execs, so nothing is copied; for a supervisor whose
        /// restarts should cost little more than the program's own start.
        ///
        /// It does in the child what vt-exec's `--setsid --pdeathsig SIG` would: `setsid` when
        /// ``Options/detached``; `PR_SET_PDEATHSIG` with `parentDeathSignal`, exiting at once if
        /// this process is already gone (Linux sends it when the *thread* that spawned the child
        /// ends: spawn from a thread that lives as long as the process); `LISTEN_PID` (when the
        /// environment has `LISTEN_FDS`) and `WATCHDOG_PID` (with `WATCHDOG_USEC`) set to the
        /// child's pid; every signal disposition default and none blocked; every descriptor but
        /// 0, 1, 2 and ``Options/inheritedFDs`` closed. A failing step throws
        /// ``EventLoopError/spawn(step:code:)`` naming it (`exec` for a missing program), and
        /// leaves no child behind.
        case vfork(parentDeathSignal: Int32? = nil)
    }

    /// `environment` as `envp` lines, `NAME=value`, in name order (both ways of starting a child).
    static func environmentLines(_ environment: [String: String]) -> [String] {
        environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
    }

    /// This process's environment, as `environ` holds it now.
    public static var currentEnvironment: [String: String] {
        var result: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let line = String(cString: pointer)
            if let equals = line.firstIndex(of: "=") {
                result[String(line[..<equals])] = String(line[line.index(after: equals)...])
            }
            entry += 1
        }
        return result
    }

    /// Starts `path` with `arguments` and exactly `environment` through `posix_spawn`, its
    /// descriptors set by `actions`, for a child no loop reaps (a test's, a tool's): its starter
    /// waits for it. Returns the pid, and 0 or the error number `posix_spawn` returned.
    package static func posixSpawn(
        _ path: String, _ arguments: [String], environment: [String: String], actions: inout posix_spawn_file_actions_t
    ) -> (pid: pid_t, status: Int32) {
        let argv = CStringArray([path] + arguments)
        let envp = CStringArray(environmentLines(environment))
        var pid: pid_t = 0
        let status = argv.withPointer { argv in
            envp.withPointer { envp in posix_spawn(&pid, path, &actions, nil, argv, envp) }
        }
        return (pid, status)
    }
}

/// A NULL-terminated array of C strings that lives as long as this value (for argv and envp).
package final class CStringArray {
    private var pointers: [UnsafeMutablePointer<CChar>?]

    package init(_ strings: [String]) {
        pointers = strings.map { strdup($0) } + [nil]
    }

    deinit {
        for pointer in pointers { free(pointer) }
    }

    /// The string at `index`, owned by this array (for a value the child writes in place).
    func entry(at index: Int) -> UnsafeMutablePointer<CChar>? {
        pointers[index]
    }

    /// The `char **` for C; valid while `body` runs.
    package func withPointer<Result>(_ body: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Result) -> Result {
        pointers.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
    }
}
