import Glibc
import VerticalsClient

/// `svc-supervisor-engine`, the program beside `svc-supervisor` that holds the supervisor's
/// engine: the manifest (TOML), supervision, exports, scaffolding and stores.
///
/// `svc-supervisor` itself only talks to a running suite (``FrontCommands``), so a scripted
/// `call` loads no Foundation, ICU, TOML or SQLite; any other command line it hands over whole,
/// by `execv`, to this program, which knows every command.
package enum EngineProgram {
    /// Its file name, in the folder of `svc-supervisor`.
    package static let name = "svc-supervisor-engine"

    /// Replaces this process with the engine program, given the same arguments. When it cannot,
    /// it says why and exits 69 (EX_UNAVAILABLE).
    ///
    /// The one `exit` of the programs outside their entry files: the lean program finds it needs
    /// the engine wherever a command first needs a manifest read (``ManifestNames``), deep in a
    /// command, and there is nothing to return to: the process was to be replaced by another.
    package static func handOver() -> Never {
        let path = ProgramPaths.ownDirectory() + "/" + name
        let arguments = [path] + CommandLine.arguments.dropFirst()
        var pointers = arguments.map { strdup($0) }
        pointers.append(nil)
        execv(path, pointers)
        let reason = String(cString: strerror(errno))
        Terminal.error(
            "svc-supervisor: cannot run \(path): \(reason); it is built and installed beside svc-supervisor (swift build, make install)"
        )
        exit(69)
    }
}
