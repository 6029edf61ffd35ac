// swift-tools-version:6.1
// Verticals: a product as a suite of small, independent Swift daemons.
// Every target names its path; the top-level layout is fixed by ../shared/DESIGN.md.
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "Verticals",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "ServiceKit", targets: ["ServiceKit"]),
        .library(name: "IOInterface", targets: ["IOInterface"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
    ],
    targets: [
        // MARK: Shared — code every daemon may link
        .systemLibrary(
            name: "CLibUV",
            path: "Shared/CLibUV",
            pkgConfig: "libuv",
            providers: [.apt(["libuv1-dev"])]
        ),
        .target(name: "Wire", path: "Shared/Wire", swiftSettings: strict),
        .target(name: "EventLoop", dependencies: ["CLibUV", "Wire"], path: "Shared/EventLoop", swiftSettings: strict),
        .target(name: "IOInterface", dependencies: ["Wire"], path: "Shared/IOInterface", swiftSettings: strict),
        .target(
            name: "ServiceKit",
            dependencies: ["EventLoop", "Wire", "IOInterface", .product(name: "Logging", package: "swift-log")],
            path: "Shared/ServiceKit",
            swiftSettings: strict
        ),

        // MARK: Tests
        .target(name: "TestSupport", dependencies: ["IOInterface"], path: "Tests/Support/TestContract", swiftSettings: strict),
        .executableTarget(
            name: "vt-testd",
            dependencies: ["ServiceKit", "IOInterface", "TestSupport"],
            path: "Tests/Support/TestDaemon",
            swiftSettings: strict
        ),
        .testTarget(name: "WireTests", dependencies: ["Wire", "IOInterface"], path: "Tests/WireTests"),
        .testTarget(
            name: "EventLoopTests", dependencies: ["EventLoop", "Wire"], path: "Tests/EventLoopTests",
            exclude: ["memcheck.sh"]
        ),
        .testTarget(name: "IOInterfaceTests", dependencies: ["IOInterface", "Wire"], path: "Tests/IOInterfaceTests"),
        .testTarget(
            name: "ServiceKitTests",
            dependencies: ["ServiceKit", "IOInterface", "Wire", "EventLoop", "TestSupport", "vt-testd"],
            path: "Tests/ServiceKitTests"
        ),
    ],
    swiftLanguageModes: [.v6]
)
