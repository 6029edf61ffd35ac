import FoundationEssentials
import Testing

@testable import VerticalsScaffold
import VerticalsSharedTesting

/// The files of `Shared/Scaffold/Templates`, as the scaffold carries them.
@Suite struct TemplateTests {
    static let folder = "\(ManifestFixture.repositoryRoot)/Shared/Scaffold/Templates"

    /// The template files on disk, by name (their path under the folder without `.template`).
    static func filesOnDisk() -> [String: String] {
        let paths = FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String } ?? []
        var files: [String: String] = [:]
        for path in paths where path.hasSuffix(".template") {
            let text = FileManager.default.contents(atPath: "\(folder)/\(path)").map {
                String(decoding: $0, as: UTF8.self)
            }
            files[String(path.dropLast(".template".count))] = text
        }
        return files
    }

    @Test func everyTemplateFile_isEmbeddedByteForByte_andNamedOnce() {
        let onDisk = Self.filesOnDisk()
        #expect(onDisk.count > 20, "the templates were not found under \(Self.folder)")
        #expect(EmbeddedTemplates.texts == onDisk)
        #expect(Set(Template.all.map(\.name)) == Set(onDisk.keys))
        #expect(Set(Template.all).count == Template.all.count)
        // What the literal must carry exactly: the last line break, tabs (the Makefile), backslashes.
        #expect(Template.makefile.text.contains("\n\t$(SWIFT) build\n"))
        #expect(Template.useCase.text.contains(#"\(Self.maxNameLength)"#))
        #expect(Template.all.allSatisfy { $0.text.hasSuffix("\n") })
    }

    @Test func everyTemplate_rendersWithNoKeyLeft() throws {
        let product = try ProductName("Acme")
        let vertical = try VerticalName("billing")
        let values = Template.values(
            of: product, framework: .url("https://example.com/v.git", version: "1.0.0"), vertical: vertical
        )
        .merging(Template.values(of: vertical, calls: [try VerticalName("ledger")], interface: "AcmeInterface")) { $1 }
        for template in Template.all {
            let text = template.render(values)
            #expect(!text.contains("{{") && !text.contains("}}"), "\(template.name) keeps a key:\n\(text)")
        }
        #expect(Template.world.render(values).hasPrefix("import AcmeInterface\nimport VerticalsClient\n"))
        #expect(Template.world.render(values).contains("package static let calls: Callees = Callees(Ledger.self)"))
    }

    @Test func render_isOnePass_andKeepsAKeyWithNoValue() {
        let template = Template("Vertical/main.swift")
        let text = template.render(["name": "{{Name}}", "Name": "Billing"])
        #expect(text.hasPrefix("// svc-{{Name}}: Billing's daemon.\n{{mainImports}}\n"))
    }
}
