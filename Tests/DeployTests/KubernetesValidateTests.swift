import Glibc
import Testing
import VerticalsScaffold
import VerticalsDeploy
import VerticalsDeployTesting
import VerticalsSupervisor
import VerticalsSupervisorClient
import VerticalsTesting

/// Every exported object passes `kubernetes-validate --strict` (PyPI; its schemas ship inside
/// the package, so offline) for ``KubernetesExport/kubernetesVersion``, for the tests' suite,
/// a varied manifest and a product made by `init` (+ `new`); and the written YAML reads back,
/// with PyYAML, as exactly the tree the graph tests inspect. `scripts/install-deps.sh --test` installs
/// the validator into the checkout's virtual environment (`.build/venv`, which `make test` puts first
/// on `PATH`); this suite fails (never skips) without it.
@Suite(.blocking, .serialized, .timeLimit(.minutes(3)))
struct KubernetesValidateTests {
    @Test func theTestsSuite_passesStrictValidation() throws {
        let directory = TemporaryDirectory()
        let manifest = try KubernetesFixture.suiteManifest()
        let out = directory.file("out")
        _ = try GeneratedFolder(path: out).replace(with: KubernetesExport.files(for: manifest)) { _ in false }
        try KubernetesValidator.expectAllPass(
            out, objects: KubernetesFixture.all(try KubernetesExport.objects(for: manifest)).count,
            root: DeployFixture.repositoryRoot, in: directory)
    }

    @Test func variedManifest_passesStrictValidation_andReadsBackAsTheTree() throws {
        let directory = TemporaryDirectory()
        let manifest = try KubernetesFixture.manifest(KubernetesFixture.variedManifest)
        let layout = KubernetesLayout(namespace: "shop", image: "registry.example:5000/shop/verticals@sha256:0123")
        let out = directory.file("out")
        _ = try GeneratedFolder(path: out).replace(with: KubernetesExport.files(for: manifest, layout: layout)) { _ in
            false
        }
        let objects = try KubernetesExport.objects(for: manifest, layout: layout)
        try KubernetesValidator.expectAllPass(
            out, objects: KubernetesFixture.all(objects).count, root: DeployFixture.repositoryRoot, in: directory)
        for (file, fileObjects) in objects {
            try Self.expectReadsBack("\(out)/\(file)", as: fileObjects.map(\.node), in: directory)
        }
    }

    @Test func aProductMadeByInit_exportsValidObjects() throws {
        let directory = TemporaryDirectory()
        let root = directory.file("acme")
        try ProductScaffold(
            root: root, name: "acme", vertical: "greeter",
            framework: FrameworkSource.path(DeployFixture.repositoryRoot),
            frameworkTargets: FrameworkTargets(checkout: DeployFixture.repositoryRoot, names: [])
        ).apply()
        try Scaffold(name: "billing", calls: ["greeter"], root: root).apply()
        let result = try runCommand(
            "svc-supervisor",
            [
                "export", "kubernetes", "--manifest", "\(root)/deploy/suite.toml", "--namespace", "acme", "--out",
                "\(root)/deploy/kubernetes",
            ],
            in: directory)
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        // Namespace, 2 policies, then 5 objects per vertical.
        try KubernetesValidator.expectAllPass(
            "\(root)/deploy/kubernetes", objects: 3 + 2 * 5, root: DeployFixture.repositoryRoot, in: directory)
        #expect(
            readFile("\(root)/deploy/kubernetes/Containerfile")?.contains(
                "COPY --from=build /out/svc-billing /usr/local/bin/svc-billing") == true)
    }

    @Test func theValidator_isNotVacuous_anUnknownFieldFails() throws {
        let directory = TemporaryDirectory()
        let text = "apiVersion: v1\nkind: Service\nmetadata:\n  name: x\nspec:\n  portz: []\n"
        #expect(writeText(text, to: directory.file("bad.yaml")))
        let report = try KubernetesValidator.run(
            [directory.file("bad.yaml")], root: DeployFixture.repositoryRoot, in: directory)
        #expect(report.status != 0 && report.output.contains("portz"))
    }

    @Test func emitter_readsBackWithPyYAML_forStringsThatNeedQuoting() throws {
        let words = [
            "yes", "No", "ON", "off", "y", "n", "null", "~", "true", "", "1", "1e3", "0x1f", "0o17", ".inf", ".NaN",
            "12:30",
            "2026-11-23", "a: b", "#x", "x #y", "- x", "x\ny", "*star", "&anchor", "!tag", "%p", "{x}", "[x]", "a,b",
            "@at",
            "`b", "'q'", "\"dq\"", " lead", "trail ", "=", "<<", "tcp:0.0.0.0:7000", "?", "|", ">", "tab\tin",
            "back\\slash",
            "\u{7}bell", "é ü 名前", "\u{2028}", "plain-name", "/usr/local/bin/x",
        ]
        let node: YAMLNode = .map(
            words.enumerated().map { ("k\($0.offset)", .string($0.element)) }
                + [("nested", .list([.map([("a", .list(words.map { .string($0) })), ("b", 1), ("c", false)])]))])
        let directory = TemporaryDirectory()
        let path = directory.file("words.yaml")
        #expect(writeText(YAMLEmitter.documents([node]), to: path))
        try Self.expectReadsBack(path, as: [node], in: directory)
    }

    /// PyYAML reads every document of `path` as exactly `nodes` (compared as JSON values).
    static func expectReadsBack(_ path: String, as nodes: [YAMLNode], in directory: TemporaryDirectory) throws {
        let expected = directory.file("expected-\(UInt32.random(in: 0...UInt32.max)).json")
        #expect(writeText("[" + nodes.map(KubernetesFixture.json).joined(separator: ",") + "]", to: expected))
        let script = """
            import json, sys, yaml
            with open(sys.argv[1], encoding="utf-8") as f:
                read = [d for d in yaml.safe_load_all(f)]
            with open(sys.argv[2], encoding="utf-8") as f:
                want = json.load(f)
            if read != want:
                for i, (r, w) in enumerate(zip(read, want)):
                    if r != w:
                        print("document", i, "differs:", json.dumps(r, ensure_ascii=False)[:2000], "vs", json.dumps(w, ensure_ascii=False)[:2000])
                print("read", len(read), "documents, want", len(want))
                sys.exit(1)
            print("same")
            """
        let python = try #require(ToolLookup.which("python3"), "python3 is needed to read the YAML back")
        let result = try runCommand(
            python, ["-c", script, path, expected], environment: ToolLookup.toolEnvironment, in: directory,
            timeout: .seconds(60))
        #expect(
            result.status == 0 && result.standardOutput == "same\n",
            "\(path): \(result.standardOutput)\(result.standardError)")
    }
}
