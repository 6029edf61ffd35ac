// swift-tools-version:6.1
// libFuzzer targets for Verticals' decoders, in a package of their own: a fuzz target (which has
// no main; libFuzzer provides it) in the root package would break a plain `swift build`.
// Built and run by `make fuzz` / scripts/fuzz.sh with -sanitize=fuzzer,address.
import Foundation
import PackageDescription

// The root package's identity is the name of its folder (a clone may be named anything).
let root = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().lastPathComponent

func fuzzTarget(_ name: String, _ folder: String, _ products: [String]) -> Target {
    .executableTarget(
        name: name,
        dependencies: products.map { .product(name: $0, package: root) } + ["FuzzSupport"],
        path: "Targets/\(folder)",
        swiftSettings: [.unsafeFlags(["-parse-as-library"])]
    )
}

let package = Package(
    name: "VerticalsFuzz",
    dependencies: [.package(path: "..")],
    targets: [
        fuzzTarget("fuzz-frame", "Frame", ["VerticalsWire"]),
        fuzzTarget("fuzz-envelope", "Envelope", ["VerticalsWire"]),
        // The libFuzzer driver, and every IOInterface message type in one fixed order, with its
        // schema as compiled and as rebuilt from `describe` (VerticalsClient converts).
        .target(
            name: "FuzzSupport",
            dependencies: [
                .product(name: "IOInterface", package: root), .product(name: "VerticalsContract", package: root),
                .product(name: "VerticalsClient", package: root),
            ],
            path: "Targets/Support"),
        fuzzTarget("fuzz-body", "Body", ["VerticalsWire", "IOInterface", "VerticalsContract"]),
        fuzzTarget("fuzz-json", "JSON", ["VerticalsWire", "IOInterface", "VerticalsContract"]),
        fuzzTarget("fuzz-manifest", "Manifest", ["VerticalsSupervisor"]),
    ],
    swiftLanguageModes: [.v6]
)
