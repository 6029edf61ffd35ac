import ArgumentParser
import VerticalsScaffold
import VerticalsServiceKit
import VerticalsSupervisorCommands

/// How `init` and `new` write what they plan: for real or as a dry run, then the product's
/// contract tool's build for the golden fixtures and the lock, unless skipped.
struct ScaffoldWriting: ParsableArguments {
    @Flag(name: .long, help: "List what would be written, and write nothing.")
    var dryRun = false

    @Flag(
        name: .long,
        help:
            "Do not build the contract tool to write the golden fixtures and the lock (make contracts-update does it later)."
    )
    var skipFixtures = false

    @Option(name: .long, help: "Parallel jobs for the contract tool's build (default: SwiftPM's, one per core).")
    var buildJobs: Int?

    /// Runs `apply` unless this is a dry run, prints `report(written)`, then writes `what`'s golden
    /// fixtures and lock with `tool` in `root` (``NewCommand/updateContracts(root:tool:what:jobs:)``)
    /// unless a dry run or ``skipFixtures``.
    func write(
        _ apply: () throws -> Void, report: (_ written: Bool) -> String, root: String, tool: String, what: String
    ) throws {
        if !dryRun { try apply() }
        Terminal.print(lines: report(!dryRun).split(separator: "\n", omittingEmptySubsequences: false).map { "\($0)" })
        if !dryRun && !skipFixtures {
            try NewCommand.updateContracts(root: root, tool: tool, what: what, jobs: buildJobs)
        }
    }

    /// Runs `body`; a ``ScaffoldError`` it throws goes to standard error, and the command exits 64.
    static func refusing(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as ScaffoldError {
            Terminal.error("error: \(error)")
            throw ExitCode(64)
        }
    }
}
