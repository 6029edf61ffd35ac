import VerticalsClient
import VerticalsContract
import VerticalsManifest
import VerticalsServiceKit
import VerticalsWire

// Before an upgrade, the new build is judged as `svc-supervisor can-i-deploy` judges it, from the
// builds that run: each caller's running build (`/proc/PID/exe`) and each callee's answer to
// `daemon.describe`. A build that breaks an edge is refused unless the request says `force`, so
// no client skips the check by not running the command first. Every build is run as untrusted
// code (``BuildDescriber``: as its vertical's user, never as root), off the loop.
extension SupervisorEngine {
    /// The edges of `program` as the new build of `unit`, or why none could be judged (the new
    /// build cannot describe itself: the upgrade then goes on as before, which its log says).
    func deployEdges(of unit: ServiceUnit, program: String) async -> (edges: [DeployEdge], problem: String?) {
        let name = unit.spec.name
        let describer = BuildDescriber(execShim: configuration.execShim)
        let ownAccount = describeAccount(of: unit.spec)
        let newBuild: BuildDescription
        do {
            newBuild = try await Offload.run { try describer.describe(program, as: try ownAccount.get()) }
        } catch {
            return ([], "the new build cannot describe itself: \(error)")
        }
        let callers = units.values.filter { $0.spec.dependsOn.contains(name) }.sorted { $0.spec.name < $1.spec.name }
            .map {
                DeployEdges.Caller(
                    name: $0.spec.name, pid: $0.pid, program: configuration.program($0.spec.executable),
                    account: describeAccount(of: $0.spec))
            }
        // The callees' descriptions are a vertical's answers, as long as a frame: read and judged
        // off the loop, as the callers' builds are run.
        let served = await DeployEdges.servedByCallees(of: newBuild, client: healthClient, timeout: .seconds(10))
        do {
            let edges = try await Offload.run {
                callers.compactMap { DeployEdges.edge(from: $0, to: name, newBuild: newBuild, describer: describer) }
                    + DeployEdges.calleeEdges(of: name, newBuild: newBuild, served: served)
            }
            return (edges, nil)
        } catch {
            return ([], "the builds could not be judged: \(error)")
        }
    }

    /// Who a build of `spec` is described as: as root, its own user (`user`, else the prefix and
    /// its name, as `can-i-deploy` finds it), which must exist and not be root, even when the
    /// services themselves run without users of their own; otherwise the supervisor's user.
    private func describeAccount(of spec: ServiceSpec) -> Result<BuildDescriber.Account?, BuildDescribeError> {
        let prefix = configuration.serviceUsers?.prefix ?? ServiceAccounts.defaultPrefix
        return Result { () throws(BuildDescribeError) in try BuildDescriber.account(for: spec, prefix: prefix) }
    }

    /// Refuses the upgrade of `unit` to `program` when the new build breaks a running caller or
    /// callee (`conflict`, reason `breaksRunningPeers`, each edge named); notes in its log what
    /// could not be judged.
    func checkDeploy(_ unit: ServiceUnit, program: String) async throws(ServiceError) {
        let name = unit.spec.name
        let (edges, problem) = await deployEdges(of: unit, program: program)
        if let problem {
            unit.log.note("upgrade: not checked against the running builds: \(problem)")
            return
        }
        switch DeployAnswer(edges) {
        case .yes:
            unit.log.note("upgrade: \(program) is compatible with every running caller and callee")
        case .unknown:
            let unknown = edges.filter(\.isUnknown).map(\.description).joined(separator: "; ")
            unit.log.note("upgrade: \(program) breaks no running caller or callee; not checked: \(unknown)")
        case .no:
            let broken = edges.filter(\.isBreaking)
            throw ServiceError(
                .conflict,
                "\(name) was not upgraded: \(program) breaks \(broken.count) running edge(s) "
                    + "(svc-supervisor can-i-deploy \(name) --executable \(program) says which; force overrides):\n"
                    + broken.map(\.description).joined(separator: "\n"),
                details: [ErrorDetail("reason", "breaksRunningPeers")]
                    + broken.map { ErrorDetail("edge", "\($0.caller) → \($0.callee)") })
        }
    }
}
