// swift-tools-version:6.1
// `make bench`: the suite's benchmarks, in their own package so that `make test` never builds
// them (and their histogram dependency). Depends on the root package by path, release only.
import PackageDescription

/// The root package's `products`, as a target's dependencies.
func verticals(_ products: String...) -> [Target.Dependency] {
    products.map { .product(name: $0, package: "Verticals") }
}

/// Every target's Swift settings.
let swiftSettings: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny")]

let package = Package(
    name: "VerticalsBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Verticals", path: ".."),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        // The second RPC latency baseline: the same raw echo on Swift's most tuned networking stack.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // The peer a Swift team would pick for typed calls between local services: gRPC Swift 2,
        // HTTP/2 over a Unix domain socket (only `vt-grpc-echo` links it).
        .package(url: "https://github.com/grpc/grpc-swift-2", exact: "2.4.3"),
        .package(url: "https://github.com/grpc/grpc-swift-nio-transport", exact: "2.9.2"),
    ],
    targets: [
        // What a throughput client's counting window costs in CPU at both ends, for vt-bench's
        // clients and vt-grpc-echo's alike.
        .target(name: "BenchWindow", path: "Sources/BenchWindow", swiftSettings: swiftSettings),
        // The memory section's floor: a Swift program that only sleeps, linked like the release programs.
        .executableTarget(name: "vt-sleep", path: "Sources/vt-sleep"),
        // The RPC section's gRPC peer: a unary echo server and its clients, started by vt-bench.
        .executableTarget(
            name: "vt-grpc-echo",
            dependencies: [
                "BenchWindow",
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCNIOTransportHTTP2Posix", package: "grpc-swift-nio-transport"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            path: "Sources/vt-grpc-echo",
            swiftSettings: swiftSettings
        ),
        // The CLI row's baseline: `svc-supervisor call clinics nearest` with the contract compiled in.
        .executableTarget(
            name: "vt-bench-call",
            dependencies: verticals("IOInterface", "VerticalsEventLoop", "VerticalsClient", "VerticalsWire"),
            path: "Sources/vt-bench-call",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "vt-bench",
            dependencies: verticals(
                "VerticalsWire", "VerticalsEventLoop", "IOInterface", "VerticalsContract", "VerticalsClient",
                "VerticalsServiceKit",
                "VerticalsStorage", "VerticalsSupervisor", "VerticalsSupervisorClient", "AppointmentsService"
            ) + [
                "BenchWindow",
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            path: "Sources/vt-bench",
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
