import Testing
import VerticalsDeploy
import VerticalsDeployTesting
import VerticalsSupervisor
import VerticalsTesting

/// `deploy/systemd/` and `deploy/kubernetes/` are generated: each must be exactly what
/// `svc-supervisor export` writes from `deploy/suite.toml` now, and the Kubernetes objects pass
/// `kubernetes-validate --strict` (this suite fails, never skips, without the validator).
@Suite(.blocking, .serialized, .timeLimit(.minutes(3))) struct CommittedExportTests {
    @Test func committedSystemdUnits_areAFreshExport() throws {
        let fresh = try SystemdExport.files(for: SuiteDeployFixture.suiteManifest())
        let committed = ExportedFiles.onDisk("\(SuiteDeployFixture.repositoryRoot)/deploy/systemd")
        let missing = fresh.keys.filter { committed[$0] == nil }.sorted()
        let extra = committed.keys.filter { fresh[$0] == nil }.sorted()
        let differing = fresh.keys.filter { committed[$0] != nil && committed[$0] != fresh[$0] }.sorted()
        let advice = "run: svc-supervisor export systemd --out deploy/systemd"
        #expect(missing.isEmpty, "deploy/systemd lacks \(missing.joined(separator: ", ")); \(advice)")
        #expect(
            extra.isEmpty, "deploy/systemd has files the manifest does not produce: \(extra.joined(separator: ", "))")
        for path in differing {
            let line = ExportedFiles.firstDifference(committed[path] ?? "", fresh[path] ?? "")
            Issue.record("deploy/systemd/\(path) differs from a fresh export at line \(line); \(advice)")
        }
    }

    @Test func committedKubernetesExport_isFresh() throws {
        let fresh = try KubernetesExport.files(for: SuiteDeployFixture.kubernetesManifest())
        let committed = ExportedFiles.onDisk("\(SuiteDeployFixture.repositoryRoot)/deploy/kubernetes")
        let advice = "run: make kubernetes-export (svc-supervisor export kubernetes --out deploy/kubernetes)"
        #expect(Set(committed.keys) == Set(fresh.keys), "deploy/kubernetes differs in its files; \(advice)")
        for (path, text) in fresh where committed[path] != text {
            Issue.record("deploy/kubernetes/\(path) differs from a fresh export; \(advice)")
        }
    }

    @Test func committedKubernetesExport_passesStrictValidation() throws {
        let expected = try KubernetesExport.objects(for: SuiteDeployFixture.kubernetesManifest()).flatMap(\.objects)
            .count
        try KubernetesValidator.expectAllPass(
            "\(SuiteDeployFixture.repositoryRoot)/deploy/kubernetes", objects: expected,
            root: SuiteDeployFixture.repositoryRoot, in: TemporaryDirectory())
    }
}
