import FuzzSupport
import VerticalsSupervisor

/// The manifest parser (TOML, then every key of every service) over any text: it never
/// crashes, and a manifest it accepts has a start order.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzManifest(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    let (manifest, problems) = ManifestParser.parse(
        text: text, baseDirectory: "/nonexistent", binDirectory: "/nonexistent", checkExecutables: false)
    if problems.isEmpty { _ = try? manifest.startOrder() }
    return 0
}

/// The program's entry (SwiftPM calls it `fuzz_manifest_main`): libFuzzer over ``fuzzManifest``.
@_cdecl("fuzz_manifest_main")
public func fuzzManifestMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, fuzzManifest)
}
