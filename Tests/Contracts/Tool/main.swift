import ArgumentParser
import Foundation
import VerticalsContractTesting

/// `vt-contracts`: regenerates the contract lock and golden fixtures after a deliberate
/// contract change (`make contracts-update`), and freezes a version for the
/// backward/forward checks. The tests never write: they only compare.
@main
struct ContractsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vt-contracts",
        abstract: "Keep Tests/Contracts (lock file and golden wire fixtures) in step with IOInterface.",
        subcommands: [Update.self, Check.self, Freeze.self], defaultSubcommand: Check.self)

    struct Options: ParsableArguments {
        @Option(help: "The checkout's root (the folder holding Package.swift).")
        var root: String = FileManager.default.currentDirectoryPath

        var files: ContractFiles { ContractFiles(root: URL(fileURLWithPath: root)) }
    }

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print how today's contracts differ from the lock.")
        @OptionGroup var options: Options

        func run() throws {
            let findings = Compatibility.compare(old: try options.files.readLock(), new: .current())
            findings.forEach { print($0) }
            if findings.isEmpty { print("contracts match the lock") }
            if findings.contains(where: \.isBreaking) { throw ExitCode(1) }
        }
    }

    struct Update: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Rewrite the lock and today's fixtures; refuses a breaking change without --allow-breaking.")
        @OptionGroup var options: Options
        @Flag(help: "Accept breaking findings (every deployed peer must be upgraded together).")
        var allowBreaking = false

        func run() throws {
            let report = try ContractUpdate.run(options.files, allowBreaking: allowBreaking)
            report.findings.forEach { print($0) }
            if report.refused {
                FileHandle.standardError.write(
                    Data("refused: the change breaks deployed peers (above). Make it additive, or pass --allow-breaking\n".utf8))
                throw ExitCode(1)
            }
            report.written.forEach { print("wrote \($0)") }
            if report.written.isEmpty { print("lock and fixtures already up to date") }
        }
    }

    struct Freeze: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Keep today's fixtures and descriptions as VERSION, for the backward/forward checks.")
        @OptionGroup var options: Options
        @Argument(help: "The version's folder name, e.g. v2.") var version: String

        func run() throws {
            try ContractUpdate.freeze(options.files, version: version).forEach { print("wrote \($0)") }
        }
    }
}
