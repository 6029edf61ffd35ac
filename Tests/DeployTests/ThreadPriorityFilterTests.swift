import Testing
import VerticalsTesting

/// The Swift runtime's libdispatch renices each worker thread it starts; under the exported
/// units that `setpriority` must succeed, or every start logs "Failed to set thread priority".
/// (How systemd-analyze itself reads the filter is checked in SystemdToolsTests.)
@Suite(.blocking, .serialized) struct ThreadPriorityFilterTests {
    @Test(arguments: DeployFixture.verticals)
    func everyVerticalUnit_allowsSetpriorityAfterDenyingResources_withinLimitNICE(vertical: String) throws {
        let files = try DeployFixture.installForTools(in: TemporaryDirectory())
        let unit = try #require(files["verticals-\(vertical).service"])
        let filters = DeployFixture.values("SystemCallFilter", in: unit)
        let deny = try #require(filters.firstIndex { $0.hasPrefix("~") && $0.contains("@resources") }, "\(filters)")
        // A later allow line puts the call back into the allow list; an earlier one would be undone.
        #expect(filters[(deny + 1)...].contains("setpriority"), "\(filters)")
        // libdispatch's highest QoS is nice -4; below 0 needs RLIMIT_NICE without CAP_SYS_NICE.
        #expect(DeployFixture.values("LimitNICE", in: unit) == ["-4"])
    }

    @Test func setpriority_isInResources_soTheDenyListAloneWouldRefuseIt() throws {
        let result = try runCommand(
            "/usr/bin/systemd-analyze", ["syscall-filter", "@resources"], in: TemporaryDirectory())
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.split(separator: "\n").contains { $0.split(separator: " ") == ["setpriority"] })
    }
}
