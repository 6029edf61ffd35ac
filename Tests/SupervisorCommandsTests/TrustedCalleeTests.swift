import Testing
import VerticalsClient
import VerticalsEventLoop
import VerticalsServiceKit
import VerticalsSupervisorCommands

/// Whom the CLI sends a secret to on a Unix socket: root, its own user, `verticals-NAME`, or the
/// very process a supervisor it trusts runs as that vertical (a manifest's `user =` gives the
/// vertical a user of another name), and nobody else.
struct TrustedCalleeTests {
    /// A uid that is none of root, the CLI's and `verticals-ledger`.
    static let otherUID: UInt32 = 4242
    /// The CLI's uid.
    static let euid: UInt32 = 1000

    static func listener(pid: Int32, uid: UInt32 = otherUID) -> CalleeCheck.Listener {
        .unixSocket(PeerCredentials(pid: pid, uid: uid, gid: uid))
    }

    @Test func theProcessTheSupervisorRunsAsTheVertical_mayHoldItsSocket_whateverItsUser() {
        let refusal = TrustedCallee.refusal(
            service: "ledger", listener: Self.listener(pid: 700), euid: Self.euid, supervised: ["ledger": 700])

        #expect(refusal == nil)
    }

    @Test func anotherProcess_isRefused_andTheRefusalNamesTheSupervisorsOne() {
        let refusal = TrustedCallee.refusal(
            service: "ledger", listener: Self.listener(pid: 701), euid: Self.euid, supervised: ["ledger": 700])

        #expect(refusal?.contains("held by uid \(Self.otherUID)") == true, "\(String(describing: refusal))")
        #expect(refusal?.contains("the supervisor's ledger (pid 700)") == true, "\(String(describing: refusal))")
    }

    /// Another vertical's process (catalog planting ledger.sock) is not ledger's.
    @Test func anotherVerticalsProcess_doesNotVouchForThisOne() {
        let refusal = TrustedCallee.refusal(
            service: "ledger", listener: Self.listener(pid: 800), euid: Self.euid,
            supervised: ["ledger": 700, "catalog": 800])

        #expect(refusal != nil)
    }

    @Test func withoutASupervisor_onlyRootAndTheCLIsUser_mayHoldIt() {
        #expect(TrustedCallee.refusal(service: "ledger", listener: Self.listener(pid: 700), euid: Self.euid) != nil)
        #expect(
            TrustedCallee.refusal(service: "ledger", listener: Self.listener(pid: 700, uid: 0), euid: Self.euid) == nil)
        #expect(
            TrustedCallee.refusal(service: "ledger", listener: Self.listener(pid: 700, uid: Self.euid), euid: Self.euid)
                == nil)
        #expect(TrustedCallee.refusal(service: "ledger", listener: .unixSocket(nil), euid: Self.euid) != nil)
    }

    /// A pid the kernel could not name (0: outside the CLI's pid namespace) vouches for nothing.
    @Test func aListenerOutsideThePidNamespace_isNotTheSupervisorsProcess() {
        let refusal = TrustedCallee.refusal(
            service: "ledger", listener: Self.listener(pid: 0), euid: Self.euid, supervised: ["ledger": 0])

        #expect(refusal != nil)
    }
}
