import Glibc
import Testing
import VerticalsDeploy
import VerticalsDeployTesting
import VerticalsSupervisor
import VerticalsTesting

/// The image's runtime stage installs every shared library the programs it copies load: `ldd`
/// of each built program, less the Swift runtime (the Containerfile links it in statically),
/// mapped to Debian packages with `dpkg -S`, must be among the packages the Containerfile's
/// runtime stage installs (or libc6, in every Debian image). Needs Debian's dpkg: skipped with
/// a message elsewhere.
@Suite(.blocking, .timeLimit(.minutes(2)))
struct KubernetesImageLibrariesTests {
    /// The packages the runtime stage's `apt-get install` names.
    static func runtimePackages(_ containerfile: String) -> Set<String> {
        ContainerfileRuntimeStage(containerfile).packages
    }

    @Test func everyLibraryTheProgramsLoad_isInstalledByTheRuntimeStage() throws {
        guard let dpkg = ToolLookup.which("dpkg"), let ldd = ToolLookup.which("ldd") else {
            print("skipped: needs Debian's dpkg and ldd to map libraries to packages")
            return
        }
        let files = try KubernetesExport.files(for: SuiteDeployFixture.kubernetesManifest())
        let containerfile = try #require(files["Containerfile"])
        let installed = Self.runtimePackages(containerfile)
        #expect(installed.contains("libuv1"), "parsed \(installed)")
        let programs = KubernetesPolicyGraph.imagePrograms(containerfile).map {
            $0.split(separator: "/").last.map(String.init) ?? $0
        }
        let directory = TemporaryDirectory()
        var needed: [String: Set<String>] = [:]
        for program in programs.sorted() {
            // The Swift runtime lives in the toolchain; the Containerfile links it in statically.
            let libraries = try LinkedLibraries.of(
                "\(DaemonProcess.productsDirectory)/\(program)", ldd: ldd, in: directory)
            for path in libraries where !LinkedLibraries.isSwiftRuntime(path) {
                needed[path, default: []].insert(program)
            }
        }
        #expect(needed.keys.contains { $0.contains("libuv.so") }, "ldd found libuv")
        for (library, users) in needed.sorted(by: { $0.key < $1.key }) {
            var resolved = library
            if let real = realpath(library, nil) {
                resolved = String(cString: real)
                free(real)
            }
            let owner = try runCommand(dpkg, ["-S", resolved], in: directory)
            let fallback = owner.status == 0 ? owner : try runCommand(dpkg, ["-S", library], in: directory)
            let package = fallback.standardOutput.split(separator: ":").first.map(String.init) ?? "?"
            #expect(
                installed.contains(package) || package == "libc6",
                "\(users.sorted().joined(separator: ", ")) load \(library) from \(package), which the runtime stage does not install"
            )
        }
    }
}
