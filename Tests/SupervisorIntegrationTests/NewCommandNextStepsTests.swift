import Testing
import VerticalsTesting

/// What `new` says to do next, in a product: how to start a suite when none runs, and how to add
/// the vertical to one that runs (`make run` would find its run folder taken).
@Suite(.blocking) struct NewCommandNextStepsTests {
    @Test func new_inAProduct_saysHowToStartASuiteAndHowToJoinARunningOne() throws {
        let directory = TemporaryDirectory()
        let root = try writeAcmeProduct(in: directory)

        // `new` in a product reads the framework's targets with the toolchain's `swift`.
        let planned = try runCommand(
            "svc-supervisor", ["new", "billing", "--calls", "greeter", "--root", root, "--dry-run"],
            environment: PackageBuild.toolchainEnvironment, in: directory)
        try #require(planned.status == 0, "\(planned.standardOutput)\(planned.standardError)")
        let next = planned.standardOutput.split(separator: "\nnext:\n").last.map(String.init) ?? ""
        // Each line's command, without its comment, words one space apart.
        let commands = next.split(separator: "\n").map { line in
            (line.split(separator: "#", maxSplits: 1).first ?? "").split(separator: " ").joined(separator: " ")
        }
        #expect(commands.contains("make run"), "no step for when no suite runs:\n\(next)")
        #expect(
            commands.contains("make build && svc-supervisor reload"), "no step for a suite already running:\n\(next)")
        #expect(next.contains("no suite running") && next.contains("a suite running"), "\(next)")
        #expect(readFile("\(root)/Services/Billing/main/main.swift") == nil, "a dry run wrote the vertical")
    }
}
