import VerticalsManifest

/// The image's `Containerfile`, multi-stage: the daemons built with a Swift image (the Swift
/// runtime linked in statically), then copied onto Debian bookworm-slim with the C libraries
/// they load (libuv, libsodium, SQLite, zlib) and an unprivileged user. Both bases are build
/// arguments defaulting to those public images, so that `make image` builds from local ones.
///
/// Built from the package's root: `podman build -f deploy/kubernetes/Containerfile -t IMAGE .`
/// (or `docker build`). The programs it copies are the manifest's executables and
/// `svc-supervisor` (for `kubectl exec … svc-supervisor call`); ``programs(_:)`` lists them.
enum Containerfile {
    /// The file's name in the export folder.
    static let name = "Containerfile"
    /// The Swift image the daemons are built in: the toolchain the package is tested with.
    static let buildImage = "docker.io/library/swift:6.3-bookworm"
    /// The runtime image: the Debian release the suite is tested on.
    static let runtimeImage = "docker.io/library/debian:bookworm-slim"
    /// The build argument naming the build stage's base (``buildImage`` by default).
    static let buildArgument = "BUILD_IMAGE"
    /// The build argument naming the runtime stage's base (``runtimeImage`` by default).
    static let runtimeArgument = "RUNTIME_IMAGE"
    /// Debian packages of the runtime stage: the shared libraries the daemons link.
    /// (`ldd` of each daemon, less the Swift runtime, which is linked in; KubernetesImageLibrariesTests).
    static let runtimePackages = [
        "libuv1", "libsodium23", "libsqlite3-0", "libssl3", "zlib1g", "libstdc++6", "libgcc-s1",
    ]
    /// Where Litestream comes from when a vertical has a `replica`: the image of its release,
    /// whose static binary is copied to the layout's bin folder. The same release
    /// `scripts/install-deps.sh` installs for the tests.
    static let litestreamImage = "docker.io/litestream/litestream:0.5.17"
    /// The build argument naming Litestream's image (``litestreamImage`` by default).
    static let litestreamArgument = "LITESTREAM_IMAGE"
    /// Where Litestream's image holds its program.
    static let litestreamPath = "/usr/local/bin/litestream"
    /// What the runtime stage adds for Litestream: the CAs an S3 endpoint's certificate is checked against.
    static let litestreamPackages = ["ca-certificates"]

    /// Debian packages of the build stage: the same libraries' headers.
    static let buildPackages = [
        "libuv1-dev", "libsodium-dev", "libsqlite3-dev", "libssl-dev", "zlib1g-dev", "pkg-config",
    ]

    /// The program names the image holds under the layout's bin folder, sorted.
    static func programs(_ manifest: Manifest) -> [String] {
        Array(Set(manifest.services.map { baseName($0.executable) } + ["svc-supervisor", "svc-supervisor-engine"]))
            .sorted()
    }

    /// The file's text; refuses a program name or layout folder that a directive would read
    /// otherwise than as written (``ContainerfileSyntax``).
    static func text(_ manifest: Manifest, layout: KubernetesLayout) throws(ExportError) -> String {
        let programs = programs(manifest)
        let user = layout.userID
        let replicated = manifest.services.contains { $0.replica != nil }
        var lines = KubernetesExport.generatedHeader.map { "# \($0)" }
        lines += [
            "#",
            "# The suite's image: every daemon of the manifest, svc-supervisor and svc-supervisor-engine, in \(layout.binDirectory).",
            "# Build it from the package's root folder (the build context), e.g.:",
            "#   podman build -f deploy/kubernetes/Containerfile -t \(layout.image) .",
            "# then push it where the cluster pulls from and export with --image REF.",
            "# The two bases are build arguments: `--build-arg BUILD_IMAGE=REF --build-arg RUNTIME_IMAGE=REF` builds",
            "# from others (`make image` builds from local ones, made with debootstrap).",
            "",
            "ARG \(buildArgument)=\(buildImage)",
            "ARG \(runtimeArgument)=\(runtimeImage)",
        ]
        if replicated { lines.append("ARG \(litestreamArgument)=\(litestreamImage)") }
        lines += [
            "",
            "FROM ${\(buildArgument)} AS build",
            "RUN apt-get update \\",
            " && apt-get install -y --no-install-recommends \(buildPackages.joined(separator: " ")) \\",
            " && rm -rf /var/lib/apt/lists/*",
            "WORKDIR /src",
            "COPY . .",
            "# One product at a time (swift build takes one --product); each build reuses the last one's work.",
            "# The Swift runtime is linked in statically, so the runtime stage needs no Swift toolchain.",
            "RUN install -d /out \\",
            " && for program in \(ContainerfileSyntax.shellWords(programs)); do \\",
            "      swift build -c release --static-swift-stdlib --product \"$program\" \\",
            "      && install -m 0755 \"$(swift build -c release --static-swift-stdlib --show-bin-path)/$program\" /out/ \\",
            "      || exit 1; \\",
            "    done",
            "",
        ]
        if replicated {
            lines += [
                "# Litestream, for the replicated verticals' restore and sidecar: its release's image, a static binary.",
                "FROM ${\(litestreamArgument)} AS litestream",
                "",
            ]
        }
        lines += [
            "FROM ${\(runtimeArgument)}",
            "RUN apt-get update \\",
            " && apt-get install -y --no-install-recommends "
                + "\((runtimePackages + (replicated ? litestreamPackages : [])).joined(separator: " ")) \\",
            " && rm -rf /var/lib/apt/lists/* \\",
            " && groupadd --system --gid \(user) verticals \\",
            " && useradd --system --uid \(user) --gid \(user) --no-create-home --home-dir /nonexistent "
                + "--shell /usr/sbin/nologin verticals",
        ]
        for program in programs {
            let service = manifest.services.first { baseName($0.executable) == program }?.name ?? program
            try lines.append(
                "COPY --from=build \(ContainerfileSyntax.directiveWord("/out/" + program, service: service)) "
                    + "\(ContainerfileSyntax.directiveWord(layout.binDirectory + "/" + program, service: service))")
        }
        if let replicated = manifest.services.first(where: { $0.replica != nil }) {
            try lines.append(
                "COPY --from=litestream \(litestreamPath) "
                    + ContainerfileSyntax.directiveWord(layout.binDirectory + "/litestream", service: replicated.name))
        }
        lines += [
            "# Numeric, so that the kubelet can check runAsNonRoot without reading /etc/passwd.",
            "USER \(user):\(user)",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// The last path component of `path`.
    static func baseName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}
