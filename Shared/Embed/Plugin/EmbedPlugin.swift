import PackagePlugin

/// Embeds every `*.template` file under the target's `Templates/` folder in the target's code,
/// as the string literals of `EmbeddedTemplates.texts`, with `vt-embed`, on every build: a
/// program made from the target carries its templates and reads no bundle at run time.
@main
struct VerticalsEmbedPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let module = target.sourceModule else { return [] }
        let templates = module.sourceFiles(withSuffix: "template").map(\.url)
        guard !templates.isEmpty else { return [] }
        let root = module.directoryURL.appending(path: "Templates")
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedTemplates.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(module.name)'s \(templates.count) template(s)",
                executable: try context.tool(named: "vt-embed").url,
                arguments: [
                    "--root", root.path(percentEncoded: false), "--type", "EmbeddedTemplates",
                    "--output", output.path(percentEncoded: false),
                ] + templates.map { $0.path(percentEncoded: false) },
                inputFiles: templates,
                outputFiles: [output])
        ]
    }
}
