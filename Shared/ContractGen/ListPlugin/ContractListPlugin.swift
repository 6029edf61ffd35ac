import PackagePlugin

/// Declares `Contracts.all` in the target it is applied to: every contract of the target's
/// `*.vcontract` files, in name order, written by `vt-contractgen --list` on every build. A
/// contracts module that applies it (after VerticalsContractPlugin) keeps no list by hand, so
/// `svc-supervisor new` adds a vertical's contract without editing Swift.
///
/// ```swift
/// .target(name: "ShopInterface", dependencies: [...],
///         plugins: [.plugin(name: "VerticalsContractPlugin", package: "verticals"),
///                   .plugin(name: "VerticalsContractListPlugin", package: "verticals")])
/// ```
@main
struct VerticalsContractListPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let module = target.sourceModule else { return [] }
        let contracts = module.sourceFiles(withSuffix: "vcontract").map(\.url)
        guard !contracts.isEmpty else { return [] }
        let output = context.pluginWorkDirectoryURL.appending(path: "Contracts.list.swift")
        return [
            .buildCommand(
                displayName: "Listing \(module.name)'s \(contracts.count) contract(s)",
                executable: try context.tool(named: "vt-contractgen").url,
                arguments: ["--list", output.path(percentEncoded: false)]
                    + contracts.map { $0.path(percentEncoded: false) },
                inputFiles: contracts,
                outputFiles: [output])
        ]
    }
}
