import Testing
import VerticalsDeploy
import VerticalsSupervisor

/// `start = "on-demand"` and `idle_exit` under systemd: socket activation, and the
/// same idle-exit variable the daemon reads under svc-supervisor.
struct SystemdOnDemandTests {
    private let manifest = """
        [services.alpha]
        executable = "svc-alpha"
        start = "on-demand"
        idle_exit = "5m"
        [services.beta]
        executable = "svc-beta"
        depends_on = ["alpha"]
        idle_exit = "1.5s"
        """

    @Test func onDemandService_isWantedByTheTargetOnlyThroughItsSocket() throws {
        let files = try SystemdExport.files(for: DeployFixture.manifest(manifest))
        let target = try #require(files["verticals.target"])
        #expect(
            DeployFixture.values("Wants", in: target) == [
                "verticals-alpha.socket", "verticals-beta.socket verticals-beta.service",
            ])
        // Its dependents want its socket, as for any vertical: a call starts it.
        let beta = try #require(files["verticals-beta.service"])
        #expect(DeployFixture.values("Wants", in: beta) == ["verticals-alpha.socket"])
        let alpha = try #require(files["verticals-alpha.service"])
        #expect(DeployFixture.values("Requires", in: alpha) == ["verticals-alpha.socket"])
        #expect(
            DeployFixture.values("Restart", in: alpha) == ["on-failure"], "its idle exit (status 0) is not restarted")
    }

    @Test func idleExit_isTheDaemonsVariable_inSeconds() throws {
        let files = try SystemdExport.files(for: DeployFixture.manifest(manifest))
        let alpha = try #require(files["verticals-alpha.service"])
        #expect(DeployFixture.values("Environment", in: alpha).contains("\"VERTICALS_IDLE_EXIT_SECONDS=300\""))
        let beta = try #require(files["verticals-beta.service"])
        #expect(DeployFixture.values("Environment", in: beta).contains("\"VERTICALS_IDLE_EXIT_SECONDS=1.5\""))
    }
}
