import PackagePlugin

/// Generates Swift from every `*.vcontract` file of the target it is applied to, with
/// `vt-contractgen`, on every build (docs/CONTRACTS.md). One command for all the target's
/// contracts, so a field of one may name a type of another (`shop.Category`).
///
/// ```swift
/// .target(name: "IOInterface", dependencies: ["Wire"], plugins: ["VerticalsContractPlugin"])
/// ```
@main
struct VerticalsContractPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let module = target.sourceModule else { return [] }
        let contracts = module.sourceFiles(withSuffix: "vcontract").map(\.url)
        guard !contracts.isEmpty else { return [] }
        let output = context.pluginWorkDirectoryURL
        return [
            .buildCommand(
                displayName: "Generating Swift from \(module.name)'s \(contracts.count) contract file(s)",
                executable: try context.tool(named: "vt-contractgen").url,
                arguments: ["--output", output.path(percentEncoded: false)]
                    + contracts.map { $0.path(percentEncoded: false) },
                inputFiles: contracts,
                outputFiles: contracts.map { output.appending(path: $0.lastPathComponent + ".swift") })
        ]
    }
}
