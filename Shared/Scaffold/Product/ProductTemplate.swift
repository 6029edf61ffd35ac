/// The files of a new product that are not a vertical's: its Package.swift, contracts module,
/// contract tool and tests, manifest, Makefile, CI script, README and `.gitignore`.
enum ProductTemplate {
    /// `Package.swift`: framework products only (and GRDB, which each vertical's Data layer names
    /// itself); `+ vertical("Name")` lines that `svc-supervisor new` extends.
    static func package(_ p: ProductName, framework: FrameworkSource, vertical v: VerticalName) -> String {
        #"""
        // swift-tools-version:6.1
        // \#(p.typeName): a product as a suite of small Swift daemons on the Verticals framework.
        // Made by `svc-supervisor init`; laid out like the framework's repository: Shared/ (contracts),
        // Services/ (one folder per vertical), Tests/, deploy/. `svc-supervisor new NAME` adds a vertical.
        import PackageDescription

        /// The Verticals framework, and the identity SwiftPM knows its package by (the last part of its path or URL).
        let framework: Package.Dependency = \#(framework.declaration)
        let verticals = "\#(framework.identity)"

        /// A library or executable product of the framework.
        func verticalsProduct(_ name: String) -> Target.Dependency { .product(name: name, package: verticals) }

        /// GRDB, named by each vertical's Data layer, which writes its SQL itself.
        let grdb: Target.Dependency = .product(name: "GRDB", package: "GRDB.swift")
        let contractPlugin: Target.PluginUsage = .plugin(name: "VerticalsContractPlugin", package: verticals)
        let strict: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny")]

        let targets: [Target] = [
            // The contracts of every vertical (DTOs and protocols only): the only code verticals share.
            .target(
                name: "\#(p.interfaceModule)", dependencies: [verticalsProduct("VerticalsWire"), verticalsProduct("VerticalsContract")],
                path: "Shared/\#(p.interfaceModule)", swiftSettings: strict, plugins: [contractPlugin]
            ),
            // The contract guard: lock and golden fixtures (`make contracts-check`, `make contracts-update`).
            .executableTarget(
                name: "\#(p.contractsTool)", dependencies: ["\#(p.interfaceModule)", verticalsProduct("VerticalsContractTesting")],
                path: "Tests/Contracts/Tool", swiftSettings: strict
            ),
            .testTarget(
                name: "\#(p.typeName)ContractTests",
                dependencies: [
                    "\#(p.interfaceModule)", verticalsProduct("VerticalsContract"), verticalsProduct("VerticalsContractTesting"),
                    verticalsProduct("VerticalsClient"),
                ],
                path: "Tests/Contracts/Tests"
            ),
            // MARK: Services — one library (Domain, Data, Endpoint, World), one daemon, one test target each
        ]
            + vertical("\#(v.typeName)")

        // Linux only, as the framework is (its Package.swift says why): no Apple platform is declared.
        let package = Package(
            name: "\#(p.typeName)",
            dependencies: [
                framework,
                .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
            ],
            targets: targets,
            swiftLanguageModes: [.v6]
        )

        /// The three targets of vertical `name`: `<Name>Service` (`Services/<Name>/Sources`), the daemon
        /// `svc-<name>` (`Services/<Name>/main`) and `<Name>ServiceTests` (`Tests/Services/<Name>Tests`).
        /// A vertical depends on the contracts module and the framework, never on another vertical.
        func vertical(_ name: String) -> [Target] {
            let library = "\(name)Service"
            let common: [Target.Dependency] = [
                "\#(p.interfaceModule)", verticalsProduct("VerticalsServiceKit"), verticalsProduct("VerticalsClient"),
                verticalsProduct("VerticalsContract"), verticalsProduct("VerticalsWire"), verticalsProduct("VerticalsStorage"),
            ]
            return [
                .target(name: library, dependencies: common + [grdb], path: "Services/\(name)/Sources", swiftSettings: strict),
                .executableTarget(
                    name: "svc-\(name.lowercased())", dependencies: [.target(name: library)] + common,
                    path: "Services/\(name)/main", swiftSettings: strict
                ),
                .testTarget(
                    name: "\(library)Tests",
                    dependencies: [.target(name: library), verticalsProduct("VerticalsTesting"), grdb] + common,
                    path: "Tests/Services/\(name)Tests"
                ),
            ]
        }

        """#
    }

    /// `Shared/<Product>Interface/Contracts.swift`: the product's contract list.
    static func contracts(_ p: ProductName, vertical v: VerticalName) -> String {
        #"""
        import VerticalsContract

        /// Every vertical's contract of \#(p.typeName), for the tools that walk them all (its contract
        /// tool and tests). `svc-supervisor new` appends each new vertical's contract here.
        public enum Contracts {
            /// The verticals' contracts, in the manifest's order.
            public static let all: [any ServiceContract.Type] = [\#(v.typeName).self]
        }

        """#
    }

    /// `Tests/Contracts/Tool/main.swift`: the product's contract tool.
    static func contractsTool(_ p: ProductName) -> String {
        #"""
        // \#(p.contractsTool): \#(p.typeName)'s contract guard (`make contracts-check`, `make contracts-update`).
        import \#(p.interfaceModule)
        import VerticalsContractTesting

        ContractsTool.main(contracts: Contracts.all)

        """#
    }

    /// `Tests/Contracts/Tests/ContractGuardTests.swift`: the lock and the golden fixtures, checked by `make test`.
    static func contractTests(_ p: ProductName) -> String {
        #"""
        import Foundation
        import \#(p.interfaceModule)
        import Testing
        import VerticalsClient
        import VerticalsContract
        import VerticalsContractTesting

        /// Today's contracts against the committed lock and golden fixtures (`Tests/Contracts`):
        /// a deployed peer never meets a breaking change, and the wire bytes stay what they were.
        @Suite struct ContractGuardTests {
            static let files = ContractFiles.ofThisCheckout()

            @Test func contracts_breakNothingTheLockHolds() throws {
                let findings = Compatibility.compare(old: try Self.files.readLock(), new: .current(Contracts.all))
                let breaking = findings.filter(\.isBreaking)
                #expect(breaking.isEmpty, "\(breaking); make it additive, or make contracts-update")
            }

            @Test func goldenFixtures_areTodaysBytes() throws {
                for contract in ContractLock.contracts(Contracts.all) {
                    for operation in contract.operations {
                        let committed = try? String(contentsOf: Self.files.fixture(operation), encoding: .utf8)
                        let today = try GoldenFixture.generate(for: operation).fileText()
                        #expect(
                            committed == today,
                            "\(operation.service).\(operation.name): the fixture differs from today's bytes (make contracts-update)")
                    }
                }
            }
        }

        """#
    }

    /// `deploy/suite.toml` before its first vertical's table.
    static func manifest(_ p: ProductName) -> String {
        #"""
        # \#(p.typeName): its verticals under svc-supervisor (`make run`; `svc-supervisor check` validates this file).
        # Each [services.NAME] table is one daemon: its socket is <run dir>/sockets/NAME.sock, its log
        # <run dir>/logs/NAME.log, its state <run dir>/state/NAME. The framework's deploy/suite.toml
        # documents every key (restart, backoff, budget, strategy, liveness, limits, env).

        [defaults]
        restart = "on-failure"

        """#
    }

    /// `Makefile`: run, test, the contract guard, install, the systemd and Kubernetes exports, the container image.
    static func makefile(_ p: ProductName, framework: FrameworkSource) -> String {
        let checkout: String
        // Folders the image's build mounts read-only at the same path: a framework named by its path.
        let imageVolumes: String
        switch framework {
        case .path(let path):
            checkout = path
            imageVolumes = "$(VERTICALS)"
        case .url:
            checkout = "$(CURDIR)/.build/checkouts/\(framework.identity)"
            imageVolumes = ""
        }
        return #"""
        # \#(p.typeName) — the commands a newcomer needs (the toolchain: the Verticals docs/getting-started.md).
        #   make run                start every vertical under svc-supervisor (deploy/suite.toml; Ctrl-C stops it)
        #   make test               build and run every test, then the contract guard
        #   make contracts-check    how today's contracts differ from Tests/Contracts/contracts.lock.json
        #   make contracts-update   after a deliberate contract change: rewrite the lock and golden fixtures
        #   make install [PREFIX=/usr/local] [DESTDIR=]   release programs, systemd units, sysusers/tmpfiles files, the manifest
        #   make systemd            systemd units for deploy/suite.toml, in .build/systemd
        #   make kubernetes         Kubernetes manifests and a Containerfile for deploy/suite.toml, in .build/kubernetes
        #   make image              as root: the container image, built from local bases, archived in .build/image and run
        SWIFT   ?= swift
        RUN_DIR ?= $(CURDIR)/.run
        PREFIX  ?= /usr/local
        DESTDIR ?=
        # The build `make install` installs from (debug is quicker to try the recipe with).
        CONFIGURATION ?= release
        BIN      = $$($(SWIFT) build --show-bin-path)
        # The framework's checkout: its scripts/install-deps.sh installs the C libraries (libuv, libsodium, SQLite, zlib).
        VERTICALS ?= \#(checkout)

        .PHONY: all deps build run test contracts-check contracts-update install systemd kubernetes image clean

        all: build

        deps:
        \#t@[ -f "$(VERTICALS)/scripts/install-deps.sh" ] || $(SWIFT) package resolve
        \#t@bash "$(VERTICALS)/scripts/install-deps.sh"

        # The product's daemons, and the framework's svc-supervisor (with svc-supervisor-engine, which runs
        # up, check, export, new, backup and restore for it) and vt-exec beside them (it finds programs beside itself).
        build: deps
        \#t$(SWIFT) build
        \#t$(SWIFT) build --product svc-supervisor
        \#t$(SWIFT) build --product svc-supervisor-engine
        \#t$(SWIFT) build --product vt-exec

        run: build
        \#t"$(BIN)/svc-supervisor" up --manifest deploy/suite.toml --run-dir "$(RUN_DIR)"

        test: deps
        \#t$(SWIFT) build --build-tests
        \#t$(SWIFT) test --skip-build
        \#t$(MAKE) --no-print-directory contracts-check

        contracts-check:
        \#t$(SWIFT) build --product \#(p.contractsTool)
        \#t"$(BIN)/\#(p.contractsTool)" check --root "$(CURDIR)"

        contracts-update:
        \#t$(SWIFT) build --product \#(p.contractsTool)
        \#t"$(BIN)/\#(p.contractsTool)" update --root "$(CURDIR)" $(if $(ALLOW_BREAKING),--allow-breaking)

        # Every program (the daemons svc-*, svc-supervisor and svc-supervisor-engine, vt-exec), built as
        # $(CONFIGURATION), to $(PREFIX)/bin; the units, sysusers.d and tmpfiles.d files exported for $(PREFIX) from
        # deploy/suite.toml to $(PREFIX)/lib/...; the manifest to $(PREFIX)/etc/verticals, where the
        # exported svc-supervisor.service reads it (an existing one is kept). Then, as root:
        # systemd-sysusers verticals.conf; systemd-tmpfiles --create verticals.conf; systemctl daemon-reload;
        # systemctl enable --now verticals.target (the Verticals docs/systemd.md).
        install: deps
        \#t$(SWIFT) build -c $(CONFIGURATION)
        \#t$(SWIFT) build -c $(CONFIGURATION) --product svc-supervisor
        \#t$(SWIFT) build -c $(CONFIGURATION) --product svc-supervisor-engine
        \#t$(SWIFT) build -c $(CONFIGURATION) --product vt-exec
        \#tset -e; bin="$$($(SWIFT) build -c $(CONFIGURATION) --show-bin-path)"; units="$$bin/systemd-export"; rm -rf "$$units"; \
        \#t"$$bin/svc-supervisor" export systemd --prefix "$(PREFIX)" --manifest deploy/suite.toml --out "$$units" >/dev/null; \
        \#tinstall -d "$(DESTDIR)$(PREFIX)/bin" "$(DESTDIR)$(PREFIX)/lib/systemd/system" \
        \#t\#t"$(DESTDIR)$(PREFIX)/lib/sysusers.d" "$(DESTDIR)$(PREFIX)/lib/tmpfiles.d" "$(DESTDIR)$(PREFIX)/etc/verticals"; \
        \#tfor program in "$$bin"/svc-* "$$bin/vt-exec"; do \
        \#t\#tif [ -f "$$program" ] && [ -x "$$program" ]; then install -m 0755 "$$program" "$(DESTDIR)$(PREFIX)/bin/"; fi; \
        \#tdone; \
        \#tfor unit in "$$units"/*.socket "$$units"/*.service "$$units"/*.target; do \
        \#t\#tif [ -f "$$unit" ]; then install -m 0644 "$$unit" "$(DESTDIR)$(PREFIX)/lib/systemd/system/"; fi; \
        \#tdone; \
        \#tinstall -m 0644 "$$units/sysusers.d/verticals.conf" "$(DESTDIR)$(PREFIX)/lib/sysusers.d/verticals.conf"; \
        \#tinstall -m 0644 "$$units/tmpfiles.d/verticals.conf" "$(DESTDIR)$(PREFIX)/lib/tmpfiles.d/verticals.conf"; \
        \#tmanifest="$(DESTDIR)$(PREFIX)/etc/verticals/suite.toml"; \
        \#tif [ -e "$$manifest" ]; then echo "kept $$manifest (yours); the new one is deploy/suite.toml"; \
        \#telse install -m 0644 deploy/suite.toml "$$manifest"; fi
        \#t@echo "installed under $(DESTDIR)$(PREFIX); next, as root: systemd-sysusers verticals.conf; systemd-tmpfiles --create verticals.conf; systemctl daemon-reload; systemctl enable --now verticals.target"

        systemd: build
        \#t"$(BIN)/svc-supervisor" export systemd --manifest deploy/suite.toml --out .build/systemd

        kubernetes: build
        \#trm -rf .build/kubernetes
        \#t"$(BIN)/svc-supervisor" export kubernetes --manifest deploy/suite.toml --image "$(IMAGE)" --out .build/kubernetes

        # The image of deploy/suite.toml, as the framework's `make image` builds its own (its
        # scripts/image.sh; the Verticals docs/kubernetes.md): the export's Containerfile built with buildah
        # from local Debian bases, a release build; the archive in .build/image/ for `kind load
        # image-archive` or `k3s ctr images import`; then each vertical's --check and --probe run from it.
        IMAGE ?= localhost/\#(p.name):0.1.0
        IMAGE_VOLUMES ?= \#(imageVolumes)
        image: deps
        \#t$(SWIFT) build --product svc-supervisor
        \#t$(SWIFT) build --product svc-supervisor-engine
        \#trm -rf .build/image/kubernetes
        \#t"$(BIN)/svc-supervisor" export kubernetes --manifest deploy/suite.toml --image "$(IMAGE)" --out .build/image/kubernetes
        \#tVT_IMAGE_VOLUMES="$(IMAGE_VOLUMES)" bash "$(VERTICALS)/scripts/image.sh" .build/image/kubernetes . "$(IMAGE)" deploy/suite.toml

        clean:
        \#trm -rf .build "$(RUN_DIR)"

        """#
    }

    /// `.ci/run`: what CI runs on a fresh clone.
    static func ci(_ p: ProductName) -> String {
        #"""
        #!/usr/bin/env bash
        # CI for \#(p.typeName): a fresh clone on a machine with the Swift toolchain (and libuv, libsodium,
        # zlib, SQLite headers: the Verticals docs/getting-started.md). Runs the README's test command.
        set -euo pipefail
        cd "$(dirname "$0")/.."
        export PATH="/opt/swift/usr/bin:$PATH"
        make test

        """#
    }

    /// `README.md`.
    static func readme(_ p: ProductName, vertical v: VerticalName) -> String {
        #"""
        # \#(p.typeName)

        A product as a suite of small Swift daemons ("verticals") on the Verticals framework, made by
        `svc-supervisor init`. Each vertical owns its data and answers its contract over a Unix socket;
        `svc-supervisor` starts, readies and restarts them.

        ```sh
        make run                                               # builds, then starts the suite (Ctrl-C stops it)
        svc-supervisor call \#(v.name) hello '{"name": "Ada"}'        # in another shell
        make test                                              # unit tests and the contract guard
        svc-supervisor new billing                             # a second vertical, made as \#(v.name) was
        ```

        ## Layout

        | where | what |
        |---|---|
        | `Shared/\#(p.interfaceModule)/` | every vertical's contract (`Verticals/<Name>/`: operations in Swift, messages in `.vcontract`) and `Contracts.all` |
        | `Services/<Name>/` | one vertical: `Sources/` (Domain, Data, Endpoint, World) and `main/` (its daemon `svc-<name>`) |
        | `Tests/Services/<Name>Tests/` | its unit tests |
        | `Tests/Contracts/` | the contract lock, golden wire fixtures, the tool `\#(p.contractsTool)` and the guard's tests |
        | `deploy/suite.toml` | the suite's manifest for svc-supervisor |

        ## Changing a contract

        Additive changes (a new operation, an optional field) pass; a breaking one (a removed field, a
        reused tag) is refused. After a deliberate change: `make contracts-update` rewrites
        `Tests/Contracts/contracts.lock.json` and the golden fixtures; commit them with the change.

        ## Building and testing

        You need the Swift toolchain and the C libraries the framework uses (libuv, libsodium, zlib,
        SQLite headers: the Verticals docs/getting-started.md); `make deps` installs what is missing.

        ```sh
        make build            # the daemons, and svc-supervisor, svc-supervisor-engine and vt-exec beside them
        make test             # every unit test, then the contract guard (what .ci/run runs)
        ```

        ## Installing

        `make install` builds every program for release and installs it, with the systemd units, the
        `sysusers.d` and `tmpfiles.d` files exported from `deploy/suite.toml`, and the manifest
        (`etc/verticals/suite.toml`; an existing one is kept):

        ```sh
        sudo make install                                  # under /usr/local
        make install PREFIX=/usr DESTDIR=$PWD/.build/pkg   # staged, for a package
        ```

        Then, as root, create the users and the socket folder and start the suite:

        ```sh
        systemd-sysusers verticals.conf
        systemd-tmpfiles --create verticals.conf
        systemctl daemon-reload
        systemctl enable --now verticals.target
        ```

        ## Deploying

        `make systemd` writes systemd units for `deploy/suite.toml` to `.build/systemd`
        (`svc-supervisor export systemd --help` for the prefix and the user); `make install` installs
        them.

        `make kubernetes` writes Kubernetes manifests and a Containerfile for `deploy/suite.toml` to
        `.build/kubernetes` (`svc-supervisor export kubernetes --help`).

        `make image` (as root) builds the container image of every vertical, archives it in
        `.build/image/` and runs each vertical's `--check` and `--probe` from it; the Verticals
        docs/kubernetes.md loads it into a cluster.

        """#
    }

    /// `.containerignore`: what the image's build context (`make image`) leaves out.
    static let containerignore = """
        # What the image's build (make image; build context: this folder) never needs: build folders,
        # run folders, git.
        .build
        .build-*
        .run
        .git

        """

    /// `.gitignore`.
    static let gitignore = """
        .build*/
        Package.resolved
        .run/
        /.swiftpm/

        """
}
