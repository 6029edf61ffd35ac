// swift-tools-version:6.2
// Verticals: a product as a suite of small, independent Swift daemons.
// One package; every target names its path. The top level is fixed: Shared/ holds every library:
// the framework (the code every daemon may link, the supervision engine, its client, commands,
// scaffold and certificates, and the testing libraries) and, apart in Shared/Example/, the reference
// suite's shared code (IOInterface, its contracts; Sessions, its session check); Services/ one folder
// per daemon, none importing another (the five verticals, each its library and its program, and
// Supervisor/: the supervisor's programs only); Tests/ the unit, contract and whole-suite tests and
// their test-only helpers, never a product; deploy/ the manifest and its exports.
import PackageDescription

/// GRDB, named by every target that imports it (no module re-exports it).
let grdb: Target.Dependency = .product(name: "GRDB", package: "GRDB.swift")
/// swift-log, named by every target that imports it.
let logging: Target.Dependency = .product(name: "Logging", package: "swift-log")
/// What every vertical's tests import beside the vertical's own library.
let verticalTests: [Target.Dependency] = ["IOInterface", "VerticalsContract", "VerticalsWire", "VerticalsTesting"]

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

// Linux only: the runtime uses Glibc, libuv and zlib through pkg-config, SO_PEERCRED, prctl,
// Linux's /proc and systemd's protocols. Nothing here builds or is tested on macOS, so no Apple
// platform is declared (SwiftPM cannot say "Linux only"). Tested on Debian 12 with Swift 6.3;
// tools-version 6.2 is the oldest toolchain it asks for (swift-service-lifecycle 2.13 asks for it).
let package = Package(
    name: "Verticals",
    products: [
        // The framework (CHANGELOG.md: its public API, under semantic versioning).
        .library(name: "VerticalsWire", targets: ["VerticalsWire"]),
        .library(name: "VerticalsEventLoop", targets: ["VerticalsEventLoop"]),
        .library(name: "VerticalsSettings", targets: ["VerticalsSettings"]),
        .library(name: "VerticalsContract", targets: ["VerticalsContract"]),
        .library(name: "VerticalsClient", targets: ["VerticalsClient"]),
        .library(name: "VerticalsObservability", targets: ["VerticalsObservability"]),
        .library(name: "VerticalsServiceKit", targets: ["VerticalsServiceKit"]),
        // Spans to an OpenTelemetry collector over OTLP/HTTP, apart from the request path; the
        // runtime starts it when `OTEL_EXPORTER_OTLP_ENDPOINT` names a collector.
        .library(name: "VerticalsOTLP", targets: ["VerticalsOTLP"]),
        // A vertical as one service of a swift-service-lifecycle `ServiceGroup` (beside an HTTP server,
        // a database client), with one graceful shutdown.
        .library(name: "VerticalsServiceLifecycle", targets: ["VerticalsServiceLifecycle"]),
        .library(name: "VerticalsStorage", targets: ["VerticalsStorage"]),
        .library(name: "VerticalsSupervisor", targets: ["VerticalsSupervisor"]),
        // The suite as its manifest declares it (the model, no TOML reader), and its exports for
        // systemd and Kubernetes: what describes a suite, without the engine that runs it.
        .library(name: "VerticalsManifest", targets: ["VerticalsManifest"]),
        .library(name: "VerticalsDeploy", targets: ["VerticalsDeploy"]),
        // What a client of a running suite needs (descriptions, routes, the run folder), without the engine.
        .library(name: "VerticalsSupervisorClient", targets: ["VerticalsSupervisorClient"]),
        .library(name: "VerticalsTesting", targets: ["VerticalsTesting"]),
        // The contract guard of any product: lock, golden fixtures, compatibility, its `ContractsTool`.
        .library(name: "VerticalsContractTesting", targets: ["VerticalsContractTesting"]),
        // What `svc-supervisor new` and `init` write: a vertical in a product, or a new product.
        .library(name: "VerticalsScaffold", targets: ["VerticalsScaffold"]),
        // What `svc-supervisor certs` mints: a suite CA and mutual-TLS identities (``SuiteCertificates``).
        .library(name: "VerticalsCertificates", targets: ["VerticalsCertificates"]),
        // Contract files (`*.vcontract`) to Swift: apply it to a target that holds them (docs/CONTRACTS.md).
        .plugin(name: "VerticalsContractPlugin", targets: ["VerticalsContractPlugin"]),
        // `Contracts.all` from a contracts module's contract files, in name order: no list kept by hand.
        .plugin(name: "VerticalsContractListPlugin", targets: ["VerticalsContractListPlugin"]),
        // A product's `make run` builds these beside its own daemons (svc-supervisor finds programs beside itself).
        .executable(name: "svc-supervisor", targets: ["svc-supervisor"]),
        .executable(name: "svc-supervisor-engine", targets: ["svc-supervisor-engine"]),
        .executable(name: "vt-exec", targets: ["vt-exec"]),
        // The reference suite, for the fuzz package (Fuzz/) and the benchmark package (Benchmarks/),
        // which depend on this one by path. Not API.
        .library(name: "IOInterface", targets: ["IOInterface"]),
        .library(name: "AppointmentsService", targets: ["AppointmentsService"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // Spans: the ecosystem's tracing API. From 1.7 it holds ServiceContext itself, so it is
        // one package with no dependency; the W3C traceparent is 55 ASCII bytes, parsed by ServiceKit.
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        // The ecosystem's lifecycle, for VerticalsServiceLifecycle alone: a daemon that does not run
        // in its ServiceGroup links none of it (nor swift-async-algorithms and swift-collections).
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        // MARK: Shared — code every daemon may link
        .systemLibrary(
            name: "CLibUV",
            path: "Shared/CLibUV",
            pkgConfig: "libuv",
            providers: [.apt(["libuv1-dev"])]
        ),
        // OpenSSL 3 for TLS 1.3 on TCP endpoints, over memory BIOs on the libuv stream.
        .systemLibrary(
            name: "CSSL",
            path: "Shared/CSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"])]
        ),
        .systemLibrary(
            name: "CZlib",
            path: "Shared/CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .systemLibrary(
            name: "CSodium",
            path: "Services/Identity/CSodium",
            pkgConfig: "libsodium",
            providers: [.apt(["libsodium-dev"])]
        ),
        // vt_spawn: a vfork-style child that does vt-exec's common steps itself.
        .target(name: "CSpawn", path: "Shared/CSpawn"),
        .target(name: "VerticalsWire", path: "Shared/Wire", swiftSettings: strict),
        .target(
            name: "VerticalsEventLoop", dependencies: ["CLibUV", "CSSL", "CSpawn", "VerticalsWire"],
            path: "Shared/EventLoop",
            swiftSettings: strict
        ),
        // A program's settings as typed declarations read from its environment (`Setting`,
        // `SettingsDeclaration`): what `--check` validates and `vt-settings` prints. Its error is a
        // VerticalsWire `CodedError`.
        .target(
            name: "VerticalsSettings", dependencies: ["VerticalsWire"], path: "Shared/Settings", swiftSettings: strict
        ),
        // The contract core: what a contract is (`ServiceContract`, `Operation`, `Route`), and the
        // framework's own contracts: the `daemon.*` built-ins every daemon answers, the supervisor's
        // control contract, and the settings each declares. No vertical's contract.
        .target(
            name: "VerticalsContract", dependencies: ["VerticalsWire", "VerticalsSettings"], path: "Shared/Contract",
            swiftSettings: strict,
            plugins: ["VerticalsContractPlugin"]
        ),
        // The reference suite's contracts (DTOs and protocols only), one `*.vcontract` file per vertical;
        // VerticalsContractPlugin generates their Swift.
        .target(
            name: "IOInterface", dependencies: ["VerticalsWire", "VerticalsContract"],
            path: "Shared/Example/IOInterface",
            swiftSettings: strict, plugins: ["VerticalsContractPlugin"]
        ),
        // The contract language (docs/CONTRACTS.md): parser, checker and Swift emitter, then the generator
        // and the build-tool plugin that runs it. No package dependency, so the generator builds in seconds.
        .target(name: "VerticalsContractGen", path: "Shared/ContractGen/Library", swiftSettings: strict),
        .executableTarget(
            name: "vt-contractgen", dependencies: ["VerticalsContractGen"], path: "Shared/ContractGen/vt-contractgen"
        ),
        .plugin(
            name: "VerticalsContractPlugin", capability: .buildTool(), dependencies: ["vt-contractgen"],
            path: "Shared/ContractGen/Plugin"
        ),
        .plugin(
            name: "VerticalsContractListPlugin", capability: .buildTool(), dependencies: ["vt-contractgen"],
            path: "Shared/ContractGen/ListPlugin"
        ),
        // The OTLP/HTTP exporter: the protobuf messages, one blocking POST on a thread of its own, a
        // bounded queue. What a span is it reads through `OTLPSpan`, so it needs no runtime.
        .target(
            name: "VerticalsOTLP",
            dependencies: [
                "VerticalsContract", "VerticalsWire", .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            path: "Shared/OTLP",
            swiftSettings: strict
        ),
        // Calling other verticals: `ServiceClient`, its connections and deadlines, the socket folder and
        // TLS, and what a build says of the contracts it speaks. No metrics, tracing or host: a tool
        // that only calls (svc-supervisor) links this alone.
        .target(
            name: "VerticalsClient",
            dependencies: ["CSSL", "VerticalsEventLoop", "VerticalsWire", "VerticalsContract", logging],
            path: "Shared/Client",
            swiftSettings: strict
        ),
        // What a daemon tells its operator: the host's metrics (Prometheus), the spans it records and
        // exports (swift-distributed-tracing, OTLP) and the log wiring. It reads the served request's
        // trace through `Serving.request`, so it needs no host.
        .target(
            name: "VerticalsObservability",
            dependencies: [
                "VerticalsClient", "VerticalsEventLoop", "VerticalsWire", "VerticalsContract", "VerticalsOTLP",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            path: "Shared/Observability",
            swiftSettings: strict
        ),
        .target(
            name: "VerticalsServiceKit",
            // No database: a store is a `VerticalStore` that VerticalsStorage (or another library) provides.
            dependencies: [
                "CSpawn", "VerticalsClient", "VerticalsObservability", "VerticalsEventLoop", "VerticalsWire",
                "VerticalsContract",
                "VerticalsSettings",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            path: "Shared/ServiceKit",
            swiftSettings: strict
        ),
        // A vertical's daemon as one `Service` of swift-service-lifecycle's `ServiceGroup`: the group
        // owns the signals and the graceful shutdown; the vertical's own lifecycle drains inside it.
        .target(
            name: "VerticalsServiceLifecycle",
            dependencies: [
                "VerticalsServiceKit", "VerticalsClient", "VerticalsContract", "VerticalsSettings",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Shared/ServiceLifecycle",
            swiftSettings: strict
        ),

        // The product's one session check (identity.authenticate, roles), shared by every vertical that
        // takes a token. Product code, not framework: it knows the Identity contract.
        .target(
            name: "Sessions",
            dependencies: [
                "VerticalsWire", "VerticalsClient", "VerticalsServiceKit", "VerticalsStorage", "IOInterface",
                "VerticalsContract",
            ],
            path: "Shared/Example/Sessions", swiftSettings: strict
        ),

        .target(
            name: "VerticalsStorage",
            dependencies: [
                "VerticalsWire", "VerticalsContract", "VerticalsClient", "VerticalsServiceKit",
                "VerticalsObservability",
                grdb, .product(name: "Logging", package: "swift-log"),
                // A thread's own supplementary groups (FolderOwnerAccess).
                "CSpawn",
                // The SQLite C API, to tie the store's lock to its writer connection (StoreLock).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            path: "Shared/Storage",
            swiftSettings: strict
        ),

        // The manifest model: `Manifest`, `ServiceSpec` and their values, the start order and the
        // accounts (users, allow-lists) derived from `depends_on`. Values only: the TOML reader is the
        // engine's, so a module that describes a suite links no TOMLKit.
        .target(
            name: "VerticalsManifest", dependencies: ["VerticalsContract", "VerticalsWire"], path: "Shared/Manifest",
            swiftSettings: strict
        ),
        // The exports: systemd units, Kubernetes objects, the Containerfile and their README, from
        // the manifest model alone (no engine, TOML reader or store).
        .target(
            name: "VerticalsDeploy", dependencies: ["VerticalsManifest", "VerticalsContract", "VerticalsWire"],
            path: "Shared/Deploy", swiftSettings: strict
        ),

        // The testing library: a vertical's unit-test doubles (a clock a test moves, a strict stub caller,
        // a World's parts over an in-memory store) and the process harness (a live daemon, a raw client,
        // temporary folders, tagged children) every suite's tests use.
        .target(
            name: "VerticalsTesting",
            dependencies: [
                "VerticalsServiceKit", "VerticalsClient", "VerticalsEventLoop", "VerticalsContract", "VerticalsStorage",
                "VerticalsWire",
                "VerticalsSupervisorClient",
                grdb, .product(name: "Logging", package: "swift-log"),
            ],
            path: "Shared/Testing",
            swiftSettings: strict
        ),
        // The contract guard: the lock, golden fixtures, provider verification (Tests/Contracts/README.md).
        // Any product's contracts, passed in (its `Contracts.all`): no vertical's contract is compiled in.
        .target(
            name: "VerticalsContractTesting",
            dependencies: [
                "VerticalsContract", "VerticalsClient", "VerticalsServiceKit", "VerticalsWire",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Shared/ContractTesting", swiftSettings: strict
        ),

        // MARK: Services — one library (Domain, Data, Endpoint, World), one daemon, one test target each
    ]
        // What each vertical's code and tests import: the session check (Sessions), its settings
        // (VerticalsSettings), a use case's own spans (Tracing), a test's own store (GRDB) or clock on the loop (VerticalsEventLoop).
        + vertical(
            "Identity", library: ["Sessions", "CSodium", "VerticalsSettings", logging],
            tests: verticalTests + ["VerticalsServiceKit", "VerticalsStorage", "VerticalsEventLoop", grdb])
        + vertical(
            "Clinics", library: ["Sessions", "VerticalsSettings", logging],
            tests: verticalTests + ["VerticalsServiceKit", "VerticalsClient", "VerticalsStorage", "SessionsTesting"])
        + vertical(
            "Appointments",
            library: [
                "Sessions", "VerticalsSettings", logging,
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            tests: verticalTests + ["VerticalsServiceKit", "VerticalsStorage", "SessionsTesting", grdb, logging])
        + vertical(
            "Records", library: ["Sessions", "VerticalsSettings", logging],
            tests: verticalTests + ["VerticalsServiceKit", "VerticalsClient", "SessionsTesting"])
        + vertical(
            "Notifications", library: ["Sessions"],
            tests: verticalTests + ["VerticalsServiceKit", "VerticalsStorage", grdb])
        + [
            // MARK: The supervisor's libraries (Shared/) and programs (Services/Supervisor/): not a vertical,
            // it learns every contract from the running daemons and links no vertical's code
            // What talks to a running suite: described contracts, route tables, the run folder and its
            // pointer, metrics exposition. No manifest, no TOML, no store: the lean `svc-supervisor` links it.
            .target(
                name: "VerticalsSupervisorClient",
                dependencies: ["VerticalsClient", "VerticalsContract", "VerticalsWire"],
                path: "Shared/SupervisorClient",
                swiftSettings: strict
            ),
            // The engine: the manifest's reader (TOMLKit), supervision, users.
            .target(
                name: "VerticalsSupervisor",
                dependencies: [
                    "VerticalsSupervisorClient", "VerticalsManifest", "VerticalsDeploy",
                    "VerticalsServiceKit", "VerticalsClient", "VerticalsContract", "VerticalsEventLoop",
                    "VerticalsStorage", "VerticalsWire",
                    "CZlib",
                    // vt_spawn: a build's `--describe` run with nothing inherited (BuildDescriber).
                    "CSpawn",
                    .product(name: "TOMLKit", package: "TOMLKit"),
                    .product(name: "Logging", package: "swift-log"),
                ],
                path: "Shared/Supervisor",
                swiftSettings: strict
            ),
            // `svc-supervisor certs`: a suite CA and one certificate per service and for the operator.
            .target(
                name: "VerticalsCertificates",
                // OpenSSL's X509 API, already linked for TLS: swift-certificates and swift-crypto (BoringSSL)
                // were 800 compile steps, 3 minutes of every product's first build on 2 cores, for this command.
                dependencies: ["CSSL", "VerticalsWire"],
                path: "Shared/Certificates",
                swiftSettings: strict
            ),
            // The templates and edits of `svc-supervisor new` and `init`, apart from the engine: plain text
            // in, text out, plus the systemd units exported for the planned manifest (read by the caller's
            // manifest reader), so `init` and `new` link no engine, TOMLKit or GRDB.
            // Its templates are the files of Shared/Scaffold/Templates, embedded at build time by
            // VerticalsEmbedPlugin: an installed engine reads no bundle.
            .target(
                name: "VerticalsScaffold",
                dependencies: ["VerticalsDeploy", "VerticalsManifest", "VerticalsContract", "VerticalsWire"],
                path: "Shared/Scaffold",
                swiftSettings: strict,
                plugins: ["VerticalsEmbedPlugin"]
            ),
            // Text files as Swift string literals, on every build. No dependency, so it builds in seconds.
            .executableTarget(name: "vt-embed", path: "Shared/Embed/vt-embed", swiftSettings: strict),
            .plugin(
                name: "VerticalsEmbedPlugin", capability: .buildTool(), dependencies: ["vt-embed"],
                path: "Shared/Embed/Plugin"),
            // The commands that talk to a running suite (call, open, status, logs, …), shared by both programs.
            .target(
                name: "VerticalsSupervisorCommands",
                dependencies: [
                    "VerticalsSupervisorClient", "VerticalsClient", "VerticalsContract", "VerticalsEventLoop",
                    "VerticalsManifest", "VerticalsWire",
                    .product(name: "ArgumentParser", package: "swift-argument-parser"),
                ],
                path: "Shared/SupervisorCommands",
                swiftSettings: strict
            ),
            // `svc-supervisor`: the commands that talk to a running suite, in a program that loads fast
            // (no Foundation, ICU, TOML or SQLite); it hands every other command to svc-supervisor-engine.
            .executableTarget(
                name: "svc-supervisor",
                dependencies: [
                    "VerticalsSupervisorCommands", "VerticalsContract",
                    .product(name: "ArgumentParser", package: "swift-argument-parser"),
                ],
                path: "Services/Supervisor/svc-supervisor",
                swiftSettings: strict
            ),
            // The framework release `init` defaults to, as `make release FRAMEWORK_URL=… FRAMEWORK_VERSION=…` set it.
            .target(name: "CFrameworkDefaults", path: "Shared/CFrameworkDefaults"),
            // `svc-supervisor-engine`: every command, `up`, `check`, `export`, `new`, `init`, `backup` and
            // `restore` included. Installed beside svc-supervisor, which execs it for those.
            .executableTarget(
                name: "svc-supervisor-engine",
                dependencies: [
                    // No IOInterface: the CLI learns each vertical's contract from the daemon (daemon.describe).
                    "VerticalsSupervisorCommands", "VerticalsSupervisor", "VerticalsSupervisorClient",
                    "VerticalsScaffold",
                    "VerticalsCertificates", "VerticalsManifest", "VerticalsDeploy",
                    "VerticalsServiceKit", "VerticalsObservability", "VerticalsClient", "VerticalsContract",
                    "VerticalsStorage",
                    "VerticalsEventLoop", "VerticalsWire", "CFrameworkDefaults",
                    .product(name: "ArgumentParser", package: "swift-argument-parser"),
                ],
                path: "Services/Supervisor/svc-supervisor-engine",
                swiftSettings: strict
            ),
            // `vt-settings`: the ENVIRONMENT reference, printed from the settings declarations (scripts/reference.sh).
            .executableTarget(
                name: "vt-settings", dependencies: ["VerticalsContract", "VerticalsSettings"],
                path: "Services/Supervisor/vt-settings", swiftSettings: strict
            ),
            // The exec shim: what uv_spawn cannot do between fork and exec (setsid, PDEATHSIG, rlimits, LISTEN_PID).
            .executableTarget(name: "vt-exec", path: "Services/Supervisor/vt-exec"),
            // `make simulate`: the supervisor's core against a simulated world, seed after seed.
            .executableTarget(
                name: "vt-simulate",
                dependencies: [
                    "VerticalsSupervisor", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                ],
                path: "Services/Supervisor/vt-simulate",
                swiftSettings: strict
            ),
            // `make fuzz-live`: a live suite fuzzed from what its daemons describe (daemon.describe), with
            // edge values of every field's type; knows no vertical, only the framework's marks.
            .executableTarget(
                name: "vt-fuzz-live",
                dependencies: [
                    "VerticalsSupervisorCommands", "VerticalsSupervisorClient", "VerticalsContractTesting",
                    "VerticalsServiceKit", "VerticalsObservability",
                    "VerticalsClient", "VerticalsContract", "VerticalsEventLoop", "VerticalsWire",
                    .product(name: "ArgumentParser", package: "swift-argument-parser"),
                ],
                path: "Services/Supervisor/vt-fuzz-live",
                swiftSettings: strict
            ),

            // MARK: Tests
            .target(
                name: "VerticalsTestSupport", dependencies: ["VerticalsWire", "VerticalsContract"],
                path: "Tests/Support/TestContract",
                swiftSettings: strict, plugins: ["VerticalsContractPlugin"]
            ),
            // Identity as the other verticals' tests stub it: sessions by token, or down (product, like Sessions).
            .target(
                name: "SessionsTesting",
                dependencies: [
                    "VerticalsTesting", "VerticalsServiceKit", "IOInterface", "VerticalsContract", "VerticalsWire",
                ],
                path: "Tests/Support/SessionsTesting", swiftSettings: strict
            ),
            .testTarget(
                name: "VerticalsTestingTests",
                dependencies: [
                    "VerticalsWire", "VerticalsTesting", "VerticalsServiceKit", "VerticalsTestSupport",
                    "VerticalsContract",
                ],
                path: "Tests/Support/TestingTests"
            ),
            .executableTarget(
                name: "vt-testd",
                dependencies: [
                    "VerticalsWire", "VerticalsServiceKit", "VerticalsClient", "VerticalsStorage", "VerticalsContract",
                    "VerticalsTestSupport", grdb,
                ],
                path: "Tests/Support/vt-testd",
                swiftSettings: strict
            ),
            // malloc, calloc, realloc, free and the aligned allocations replaced by counting ones that
            // forward to glibc's: linked into vt-alloc-count alone, since whatever links it has every
            // allocation of its process counted.
            .target(name: "CAllocCount", path: "Tests/Support/CAllocCount"),
            // Allocations a request in steady state, at an echo server (`onSync` and async) and at its
            // typed client, each its own process (AllocationCountTests; `make bench`'s allocations row).
            .executableTarget(
                name: "vt-alloc-count",
                dependencies: [
                    "CAllocCount", "VerticalsServiceKit", "VerticalsClient", "VerticalsEventLoop", "VerticalsContract",
                    "VerticalsWire",
                ],
                path: "Tests/Support/vt-alloc-count",
                swiftSettings: strict
            ),
            // A test vertical (the TestEcho contract) beside a plain swift-service-lifecycle service in one
            // ServiceGroup, each saying on standard error when it stops: the group's shutdown order.
            .executableTarget(
                name: "vt-lifecycled",
                dependencies: [
                    "VerticalsServiceLifecycle", "VerticalsServiceKit", "VerticalsTestSupport",
                    .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                ],
                path: "Tests/Support/vt-lifecycled",
                swiftSettings: strict
            ),
            // The reference suite's tool: `ContractsTool.main(contracts: Contracts.all)`.
            .executableTarget(
                name: "vt-contracts", dependencies: ["VerticalsContractTesting", "IOInterface"],
                path: "Tests/Contracts/Tool",
                swiftSettings: strict
            ),
            .testTarget(
                name: "ContractTests",
                dependencies: [
                    "VerticalsContractTesting", "IOInterface", "VerticalsContract", "VerticalsServiceKit",
                    "VerticalsClient", "VerticalsWire",
                    "VerticalsEventLoop", "VerticalsTesting",
                    "svc-identity", "svc-clinics", "svc-appointments", "svc-records", "svc-notifications",
                    "svc-supervisor", "svc-supervisor-engine",
                ],
                path: "Tests/Contracts/Tests"
            ),
            .testTarget(
                name: "WireTests",
                dependencies: ["VerticalsWire", "VerticalsTestSupport", "VerticalsContract", "VerticalsTesting"],
                path: "Tests/WireTests"
            ),
            .testTarget(
                name: "EventLoopTests", dependencies: ["VerticalsEventLoop", "VerticalsWire", "CLibUV", "CSpawn"],
                path: "Tests/EventLoopTests",
                exclude: ["memcheck.sh"]
            ),
            .testTarget(
                name: "ContractGenTests",
                dependencies: ["VerticalsContractGen", "VerticalsDeployTesting", "VerticalsTesting"],
                path: "Tests/ContractGenTests"
            ),
            .testTarget(
                name: "IOInterfaceTests", dependencies: ["IOInterface", "VerticalsContract", "VerticalsWire"],
                path: "Tests/IOInterfaceTests"
            ),
            // One test target per framework module, named after it: its unit tests, no process started
            // (`swift test --filter '^StorageTests\.'` runs one module's). Integration tests (real
            // processes, root, SwiftPM builds) sit apart in `*IntegrationTests`.
            .testTarget(
                name: "ClientTests",
                dependencies: [
                    "VerticalsClient", "VerticalsContract", "VerticalsEventLoop", "VerticalsServiceKit",
                    "VerticalsSharedTesting", "VerticalsTestSupport", "VerticalsTesting", "VerticalsWire", "vt-testd",
                ],
                path: "Tests/ClientTests"
            ),
            .testTarget(
                name: "StorageTests",
                dependencies: [
                    "VerticalsStorage", "VerticalsServiceKit", "VerticalsObservability", "VerticalsClient",
                    "VerticalsContract", "VerticalsWire", "VerticalsTesting", grdb, logging,
                ],
                path: "Tests/StorageTests"
            ),
            .testTarget(
                name: "ServiceKitTests",
                dependencies: [
                    "VerticalsServiceKit", "VerticalsObservability", "VerticalsClient", "VerticalsContract",
                    "VerticalsWire", "VerticalsEventLoop", "VerticalsSharedTesting", "VerticalsTestSupport",
                    "VerticalsTesting", logging,
                ],
                path: "Tests/ServiceKitTests"
            ),
            // A daemon's runtime against real daemons (vt-testd, vt-lifecycled) and raw clients.
            .testTarget(
                name: "ServiceKitIntegrationTests",
                dependencies: [
                    "VerticalsServiceKit", "VerticalsClient", "VerticalsContract", "VerticalsEventLoop",
                    "VerticalsWire",
                    "VerticalsSharedTesting", "VerticalsTestSupport", "VerticalsTesting", "vt-testd", "vt-lifecycled",
                    "vt-alloc-count",
                ],
                path: "Tests/ServiceKitIntegrationTests"
            ),
            // The event loop's TLS against OpenSSL's own tools, apart from EventLoopTests (memcheck
            // builds that folder as a package that links only the event loop).
            .testTarget(
                name: "EventLoopIntegrationTests",
                dependencies: ["VerticalsEventLoop", "VerticalsWire", "VerticalsTesting"],
                path: "Tests/EventLoopIntegrationTests"
            ),
            // Observability alone, with no host: the served request reaches it through `Serving.request`.
            .testTarget(
                name: "ObservabilityTests",
                dependencies: [
                    "VerticalsObservability", "VerticalsClient", "VerticalsWire", logging,
                    .product(name: "Tracing", package: "swift-distributed-tracing"),
                ],
                path: "Tests/ObservabilityTests"
            ),
            // What several framework test targets share: the repository's root and its sources, suite
            // manifests and commands, a strict reader of the metrics exposition.
            .target(
                name: "VerticalsSharedTesting",
                dependencies: ["VerticalsSupervisorClient", "VerticalsTesting", "VerticalsWire"],
                path: "Tests/Support/SharedTesting", swiftSettings: strict
            ),
            // The engine's units: the manifest's reader, the service state machine, restarts, reloads.
            .testTarget(
                name: "SupervisorTests",
                dependencies: [
                    "VerticalsSupervisor", "VerticalsSupervisorClient", "VerticalsSupervisorCommands",
                    "VerticalsManifest",
                    "VerticalsDeploy", "VerticalsScaffold", "VerticalsCertificates", "VerticalsContract",
                    "VerticalsEventLoop", "VerticalsSharedTesting", "VerticalsTesting", "VerticalsWire",
                    "svc-supervisor",
                    "svc-supervisor-engine",
                ],
                path: "Tests/SupervisorTests"
            ),
            .testTarget(
                name: "ManifestTests",
                dependencies: ["VerticalsManifest", "VerticalsWire", "VerticalsSharedTesting", "VerticalsTesting"],
                path: "Tests/ManifestTests"
            ),
            .testTarget(
                name: "SupervisorClientTests",
                dependencies: [
                    "VerticalsSupervisorClient", "VerticalsSupervisor", "VerticalsSupervisorCommands",
                    "VerticalsClient",
                    "VerticalsContract", "VerticalsServiceKit", "VerticalsWire", "VerticalsSharedTesting",
                    "VerticalsTestSupport", "VerticalsTesting",
                ],
                path: "Tests/SupervisorClientTests"
            ),
            .testTarget(
                name: "SupervisorCommandsTests",
                dependencies: [
                    "VerticalsSupervisorCommands", "VerticalsSupervisorClient", "VerticalsClient", "VerticalsContract",
                    "VerticalsEventLoop", "VerticalsManifest", "VerticalsServiceKit", "VerticalsWire",
                    "VerticalsSharedTesting",
                    "VerticalsTestSupport", "VerticalsTesting",
                ],
                path: "Tests/SupervisorCommandsTests"
            ),
            .testTarget(
                name: "ScaffoldTests", dependencies: ["VerticalsScaffold", "VerticalsSharedTesting"],
                path: "Tests/ScaffoldTests"
            ),
            .testTarget(
                name: "CertificatesTests", dependencies: ["VerticalsCertificates", "VerticalsWire"],
                path: "Tests/CertificatesTests"
            ),
            // Settings are declared once: a rule over every program's sources.
            .testTarget(
                name: "SettingsTests",
                dependencies: [
                    "VerticalsSettings", "VerticalsContract", "VerticalsSupervisorClient", "VerticalsSharedTesting",
                    "VerticalsTesting", "VerticalsWire",
                ],
                path: "Tests/SettingsTests"
            ),
            // The supervisor and its programs as real processes: the engine with real children
            // (EngineProcessTests, run alone by scripts/run-tests.sh), the CLI against running
            // suites, vt-exec, root's work in a vertical's folders, and `init`'s product built
            // with SwiftPM (InitCommandTests, run last and alone).
            .testTarget(
                name: "SupervisorIntegrationTests",
                dependencies: [
                    "VerticalsSupervisor", "VerticalsSupervisorClient", "VerticalsSupervisorCommands",
                    "VerticalsScaffold",
                    "VerticalsCertificates", "VerticalsServiceKit", "VerticalsClient", "VerticalsContract",
                    "VerticalsEventLoop", "VerticalsStorage", "VerticalsWire", "VerticalsSharedTesting",
                    "VerticalsTestSupport", "VerticalsTesting", grdb, "vt-testd", "vt-exec", "svc-supervisor",
                    "svc-supervisor-engine", "VerticalsManifest", "VerticalsDeployTesting",
                ],
                path: "Tests/SupervisorIntegrationTests"
            ),
            // What the deploy tests of the framework and of the reference suite both read: the exported
            // Kubernetes objects' graph, the Containerfile's runtime stage, the validator, files on disk.
            .target(
                name: "VerticalsDeployTesting",
                dependencies: ["VerticalsDeploy", "VerticalsSupervisorClient", "VerticalsTesting"],
                path: "Tests/Support/DeployTesting", swiftSettings: strict
            ),
            // The exports (systemd, Kubernetes, the Containerfile) on a suite of vt-testd verticals of
            // the tests' own, against systemd's tools (verify, security, sysusers, tmpfiles, socket-activate).
            .testTarget(
                name: "DeployTests",
                dependencies: [
                    "VerticalsSupervisor", "VerticalsSupervisorClient", "VerticalsScaffold", "VerticalsManifest",
                    "VerticalsDeploy",
                    "VerticalsServiceKit", "VerticalsClient", "VerticalsContract", "VerticalsEventLoop",
                    "VerticalsWire",
                    "VerticalsTesting", "VerticalsTestSupport", "VerticalsDeployTesting", "vt-testd", "svc-supervisor",
                    "svc-supervisor-engine",
                ],
                path: "Tests/DeployTests", exclude: ["Fixtures"]
            ),
            // The reference suite's own deployment: the committed exports under deploy/, the routes its
            // verticals' code declares against deploy/suite.toml, its image rehearsed, its verticals
            // socket-activated.
            .testTarget(
                name: "SuiteDeployTests",
                dependencies: [
                    "VerticalsSupervisor", "VerticalsSupervisorClient", "VerticalsDeploy",
                    "VerticalsServiceKit", "VerticalsClient", "IOInterface", "VerticalsContract", "VerticalsEventLoop",
                    "VerticalsWire",
                    "VerticalsTesting", "VerticalsDeployTesting",
                    // Stores seeded into a replica, and the replica's manifest entry (ReplicaRestoreUnitTests).
                    "VerticalsStorage", grdb, "VerticalsManifest",
                    // Each vertical's World, for its declared calls (DeclaredRoutesTests).
                    "IdentityService", "ClinicsService", "AppointmentsService", "RecordsService",
                    "NotificationsService",
                    "svc-identity", "svc-clinics", "svc-appointments", "svc-records", "svc-notifications",
                    "svc-supervisor", "svc-supervisor-engine",
                ],
                path: "Tests/SuiteDeployTests"
            ),
            .testTarget(
                name: "SuiteTests",
                dependencies: [
                    "VerticalsServiceKit", "VerticalsClient", "IOInterface", "VerticalsContract", "VerticalsEventLoop",
                    "VerticalsWire",
                    "VerticalsTesting", "VerticalsStorage", grdb,
                    // The reference manifest and routes: ManifestParser and RouteTable (ReferenceManifestTests, ReferenceRoutesTests).
                    "VerticalsSupervisor", "VerticalsSupervisorClient",
                    "svc-identity", "svc-clinics", "svc-appointments", "svc-records", "svc-notifications",
                    "svc-supervisor", "svc-supervisor-engine",
                    "vt-fuzz-live",
                ],
                path: "Tests/SuiteTests"
            ),
        ],
    swiftLanguageModes: [.v6]
)

/// The three targets of vertical `name`: `<Name>Service` (its code, under
/// `Services/<Name>/Sources`), the daemon `svc-<name>` (`Services/<Name>/main`), and
/// `<Name>ServiceTests` (`Tests/Services/<Name>Tests`). A vertical depends on Shared/
/// modules only — never on another vertical (the contract tests prove it).
///
/// Each target declares what it imports, and nothing else (`DependencyUseTests`). Without
/// `library` and `tests`, the targets declare what `svc-supervisor new`'s templates import;
/// `library` adds to the library's, `tests` replaces what the tests use beside the library.
func vertical(_ name: String, library: [Target.Dependency] = [], tests: [Target.Dependency]? = nil) -> [Target] {
    let service = "\(name)Service"
    return [
        .target(
            name: service,
            dependencies: [
                "VerticalsServiceKit", "VerticalsClient", "IOInterface", "VerticalsContract", "VerticalsWire",
                "VerticalsStorage",
                // Each vertical's Data layer writes its SQL through GRDB itself (Storage no longer re-exports it).
                grdb,
            ] + library,
            path: "Services/\(name)/Sources",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "svc-\(name.lowercased())",
            dependencies: [.target(name: service), "VerticalsServiceKit", "IOInterface", "VerticalsContract"],
            path: "Services/\(name)/main",
            swiftSettings: strict
        ),
        .testTarget(
            name: "\(service)Tests",
            dependencies: [.target(name: service)]
                + (tests ?? verticalTests + ["VerticalsServiceKit", "VerticalsStorage"]),
            path: "Tests/Services/\(name)Tests"
        ),
    ]
}
