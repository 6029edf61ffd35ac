import VerticalsScaffold
import VerticalsTesting

/// A product `init` would make, written without a build: `acme` with the vertical `greeter`, on
/// this checkout by path, in `directory`; returns its root.
func writeAcmeProduct(in directory: TemporaryDirectory) throws -> String {
    let root = directory.file("acme")
    try ProductScaffold(
        root: root, name: "acme", vertical: "greeter", framework: ProductScaffoldTests.framework,
        frameworkTargets: ProductScaffoldTests.noTargets
    ).apply()
    return root
}
