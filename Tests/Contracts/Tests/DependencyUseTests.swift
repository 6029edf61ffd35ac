import Foundation
import Testing
import VerticalsContractTesting

/// Every target declares what it imports and nothing else (``DependencyUse``).
@Suite("Dependencies as used", .blocking)
struct DependencyUseTests {
    @Test func everySwiftTarget_declaresWhatItImports_andNothingElse() throws {
        let graph = try VerticalRuleTests.packageGraph()
        let root = files.folder.deletingLastPathComponent().deletingLastPathComponent().path
        let found = DependencyUse.mismatches(graph, root: root)
        #expect(found == [], "\n\(found.map(\.description).joined(separator: "\n"))")
        // The scan found imports at all: the runtime's own, and a vertical's.
        let sessions = try #require(graph.targets.first { $0.name == "Sessions" })
        #expect(
            DependencyUse.mismatch(sessions, imported: [], types: graph.types)?.unused.contains("VerticalsWire") == true
        )
    }

    @Test func anUndeclaredImport_andAnUnusedDependency_areNamed_butAProgramForTheBuildOrderIsNot() {
        let target = VerticalRule.Target(
            name: "ShopTests", path: "Tests/ShopTests", dependencies: ["Shop", "GRDB", "svc-shop"])
        let mismatch = DependencyUse.mismatch(
            target, imported: ["Shop", "Logging", "Foundation"], types: ["svc-shop": "executable"])
        #expect(mismatch == DependencyUse.Mismatch(target: "ShopTests", undeclared: ["Logging"], unused: ["GRDB"]))
        #expect(
            mismatch?.description
                == "ShopTests: imports Logging without declaring it; declares GRDB and imports none of it")
    }

    @Test func aProgramImportedForItsTypes_isDeclaredByItsTargetName() {
        let target = VerticalRule.Target(
            name: "ShopTests", path: "Tests/ShopTests", dependencies: ["Shop", "vt-shop-tool"])
        let types = ["vt-shop-tool": "executable"]
        #expect(DependencyUse.mismatch(target, imported: ["Shop", "vt_shop_tool"], types: types) == nil)
        #expect(
            DependencyUse.mismatch(target, imported: ["Shop", "vt_other_tool"], types: types)
                == DependencyUse.Mismatch(target: "ShopTests", undeclared: ["vt_other_tool"], unused: []))
    }

    @Test func importsAreReadFromCode_notFromTemplatesOrComments() {
        let source = ##"""
            import Foundation
            @testable import Shop
            import struct Logging.Logger
            // import Commented
            /* import Blocked
               import StillBlocked */
            let template = """
                import FromATemplate
                """
            let raw = #"""
                import FromARawTemplate
                """#
            #if canImport(Glibc)
            import Glibc
            #endif
            """##
        #expect(DependencyUse.imports(in: source) == ["Foundation", "Shop", "Logging", "Glibc"])
    }
}
