import ArgumentParser
import Foundation
import VerticalsClient
import VerticalsContract
import VerticalsServiceKit

/// A product's contract tool (`vt-contracts` here): `check`, `update` and `freeze` over the
/// lock and golden fixtures under `Tests/Contracts/` (``ContractFiles``), for the contracts the
/// product passes in. A product's whole tool is its `main.swift`:
///
/// ```swift
/// import MyProductInterface
/// import VerticalsContractTesting
///
/// ContractsTool.main(contracts: Contracts.all)
/// ```
///
/// The framework's control and built-in contracts are added by `ContractLock.contracts(_:)`.
public enum ContractsTool {
    /// Parses the command line (or `arguments`), runs the subcommand for `contracts`, and exits.
    public static func main(contracts: [any ServiceContract.Type], arguments: [String]? = nil) -> Never {
        do {
            var command = try ContractsCommand.parseAsRoot(arguments)
            if let subcommand = command as? any ContractsSubcommand {
                try subcommand.run(contracts: contracts)
            } else {
                try command.run()
            }
            ContractsCommand.exit()
        } catch {
            ContractsCommand.exit(withError: error)
        }
    }
}

/// A subcommand that needs the product's contracts.
protocol ContractsSubcommand: ParsableCommand {
    /// Runs over `contracts` (the product's `Contracts.all`).
    func run(contracts: [any ServiceContract.Type]) throws
}

/// The tool's root command: its name is the program's own (`vt-contracts`, `<product>-contracts`).
struct ContractsCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: CommandLine.arguments.first.map { URL(fileURLWithPath: $0).lastPathComponent }
                ?? "vt-contracts",
            abstract: "Keep Tests/Contracts (lock file and golden wire fixtures) in step with the contracts.",
            subcommands: [Update.self, Check.self, Freeze.self], defaultSubcommand: Check.self)
    }

    struct Options: ParsableArguments {
        @Option(help: "The product's root (the folder holding Package.swift).")
        var root: String = FileManager.default.currentDirectoryPath

        var files: ContractFiles { ContractFiles(root: URL(fileURLWithPath: root)) }
    }

    struct Check: ContractsSubcommand {
        static let configuration = CommandConfiguration(abstract: "Print how today's contracts differ from the lock.")
        @OptionGroup var options: Options

        func run(contracts: [any ServiceContract.Type]) throws {
            let findings = Compatibility.compare(old: try options.files.readLock(), new: .current(contracts))
            findings.forEach { print($0) }
            if findings.isEmpty { print("contracts match the lock") }
            if findings.contains(where: \.isBreaking) { throw ExitCode(1) }
        }
    }

    struct Update: ContractsSubcommand {
        static let configuration = CommandConfiguration(
            abstract: "Rewrite the lock and today's fixtures; refuses a breaking change without --allow-breaking.")
        @OptionGroup var options: Options
        @Flag(help: "Accept breaking findings (every deployed peer must be upgraded together).")
        var allowBreaking = false

        func run(contracts: [any ServiceContract.Type]) throws {
            let report = try ContractUpdate.run(options.files, contracts: contracts, allowBreaking: allowBreaking)
            report.findings.forEach { print($0) }
            if report.refused {
                FileHandle.standardError.write(
                    Data(
                        "refused: the change breaks deployed peers (above). Make it additive, or pass --allow-breaking\n"
                            .utf8))
                throw ExitCode(1)
            }
            report.written.forEach { print("wrote \($0)") }
            if report.written.isEmpty { print("lock and fixtures already up to date") }
        }
    }

    struct Freeze: ContractsSubcommand {
        static let configuration = CommandConfiguration(
            abstract: "Keep today's fixtures and descriptions as VERSION, for the backward/forward checks.")
        @OptionGroup var options: Options
        @Argument(help: "The version's folder name, e.g. v2.") var version: String

        func run(contracts: [any ServiceContract.Type]) throws {
            try ContractUpdate.freeze(options.files, contracts: contracts, version: version).forEach {
                print("wrote \($0)")
            }
        }
    }
}
