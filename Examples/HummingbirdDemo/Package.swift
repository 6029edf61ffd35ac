// swift-tools-version:6.2
// A vertical that also serves `GET /healthz` over HTTP with Hummingbird, both in one
// swift-service-lifecycle ServiceGroup: one SIGTERM, one graceful shutdown. Its own package, so
// that the framework's build and `make test` never build SwiftNIO; `make hummingbird-demo` builds
// and runs it. Its folder is not named Hummingbird: SwiftPM names a root package by its folder,
// and that identity would clash with the dependency's.
import PackageDescription

let package = Package(
    name: "HummingbirdDemo",
    dependencies: [
        .package(name: "Verticals", path: "../.."),
        // No default traits: neither swift-configuration nor full Foundation is needed to answer /healthz.
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1", traits: []),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        .executableTarget(
            name: "svc-greeter",
            dependencies: [
                .product(name: "VerticalsServiceLifecycle", package: "Verticals"),
                .product(name: "VerticalsServiceKit", package: "Verticals"),
                .product(name: "VerticalsContract", package: "Verticals"),
                .product(name: "VerticalsWire", package: "Verticals"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Sources/svc-greeter",
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        )
    ],
    swiftLanguageModes: [.v6]
)
