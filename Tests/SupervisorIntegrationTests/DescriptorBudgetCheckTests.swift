import Testing
import VerticalsSupervisor
import VerticalsTesting

/// `svc-supervisor check` says when a service's `limits.open_files` cannot hold its daemon's
/// connection limits (the daemon says the same at start, which is what holds under Kubernetes).
extension ManifestCheckCommandTests {
    @Test func openFilesBelowTheConnectionLimits_isAProblem_andEnoughIsNot() throws {
        let path = directory.file("descriptors.toml")
        let text =
            """
            [services.small]
            executable = "/bin/true"
            limits = { open_files = 512 }
            [services.tuned]
            executable = "/bin/true"
            limits = { open_files = 512 }
            env = { VERTICALS_MAX_CONNECTIONS = "256" }
            [services.remote]
            executable = "/bin/true"
            endpoint = "tcp:127.0.0.1:7001"
            limits = { open_files = 1100 }
            [services.unset]
            executable = "/bin/true"
            """
        #expect(writeFile(text, to: path))
        let result = try runCommand("svc-supervisor", ["check", "--manifest", path], in: directory)
        #expect(result.status == 65)
        let small: String =
            "\(path): services.small.limits.open_files: 512 descriptors do not hold its connection limits: "
            + "VERTICALS_MAX_CONNECTIONS (1024) + 64 of its own need 1088; raise open_files or lower those limits in env"
        let remote: String =
            "\(path): services.remote.limits.open_files: 1100 descriptors do not hold its connection limits: "
            + "VERTICALS_MAX_CONNECTIONS (1024) + VERTICALS_MAX_STARTUPS' full (256) + 64 of its own need 1344; "
            + "raise open_files or lower those limits in env"
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines == [small, remote, "2 problems"], "\(result.standardOutput)")
    }
}
