import Foundation
import Testing
import VerticalsTesting

/// The OTLP exporter stands apart from the request path: VerticalsOTLP links no runtime, only
/// VerticalsObservability's one seam file imports it, and the host, router, client and the rest of
/// tracing see `SpanExporting` alone.
struct OTLPSeamTests {
    /// The files of the module in `folder` (relative to the package root) whose code imports `module`.
    static func importers(of module: String, under folder: String) -> [String] {
        let root = DocsTests.packageRoot + "/" + folder
        let files = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []
        return files.filter { $0.hasSuffix(".swift") }.filter { file in
            (readFile(root + "/" + file) ?? "").split(separator: "\n").contains { $0.hasPrefix("import \(module)") }
        }.sorted()
    }

    @Test func onlyTheSeamFileImportsVerticalsOTLP_andItImportsNoRuntime() {
        #expect(Self.importers(of: "VerticalsOTLP", under: "Shared/Observability") == ["Tracing/OTLPExport.swift"])
        #expect(Self.importers(of: "VerticalsOTLP", under: "Shared/ServiceKit") == [])
        for module in ["VerticalsServiceKit", "VerticalsObservability", "VerticalsEventLoop", "VerticalsStorage"] {
            #expect(Self.importers(of: module, under: "Shared/OTLP") == [], "VerticalsOTLP imports \(module)")
        }
        // The scan reads what it should: the exporter's own files import what they use.
        #expect(Self.importers(of: "Tracing", under: "Shared/OTLP").contains("OTLPSpan.swift"))
    }
}
