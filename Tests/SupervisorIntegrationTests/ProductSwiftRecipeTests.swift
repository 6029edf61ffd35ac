import Glibc
import Testing
import VerticalsSharedTesting
import VerticalsTesting

/// A product's Makefile finds Swift as the framework's does: `init` writes the very file the
/// framework's Makefile includes, so the two cannot drift, and with Swift only at /opt/swift (not on
/// `PATH`) the product's recipes run it from there (InitCommandTests builds and installs so).
@Suite(.blocking) struct ProductSwiftRecipeTests {
    static let recipe = "Shared/Scaffold/Templates/Product/swift.mk.template"

    @Test func init_writesTheFrameworksSwiftRecipe_andTheProductsMakefileRunsSwiftOffPath() throws {
        let root = ManifestFixture.repositoryRoot
        let framework = try #require(readFile("\(root)/Makefile"))
        #expect(
            framework.contains("\ninclude \(Self.recipe)\n"), "the framework's Makefile does not include \(Self.recipe)"
        )

        let directory = TemporaryDirectory()
        let product = try writeAcmeProduct(in: directory)
        #expect(readFile("\(product)/swift.mk") == readFile("\(root)/\(Self.recipe)"), "init's swift.mk differs")
        #expect(readFile("\(product)/Makefile")?.contains("\ninclude swift.mk\n") == true)

        // What `make build` would run, with Swift off PATH (dry run: nothing is built).
        guard let environment = SwiftOffPath.environment(PackageBuild.environment(in: directory)) else {
            print(
                "ProductSwiftRecipeTests: Swift is not at \(SwiftOffPath.fallbackFolder); the off-PATH run is skipped")
            return
        }
        let planned = try runCommand(
            "/usr/bin/make", ["-C", product, "-n", "-o", "deps", "build"], environment: environment, in: directory)
        #expect(planned.status == 0, "\(planned.standardError)")
        #expect(
            planned.standardOutput.contains("\(SwiftOffPath.fallbackFolder)/swift build\n"),
            "the product's make build does not run /opt/swift's swift:\n\(planned.standardOutput)")
    }
}
