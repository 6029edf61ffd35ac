import Testing
import VerticalsEventLoop
import VerticalsServiceKit

struct ConnectionLimitsTests {
    @Test func from_emptyEnvironment_givesTheSafeDefaults() {
        let limits = ConnectionLimits.from(environment: [:])
        #expect(limits == ConnectionLimits())
        #expect(limits.maxFrameSize == 4 << 20)
        #expect(limits.maxInFlightPerConnection == 1024)
        #expect(limits.maxConnections == 1024)
        #expect(limits.handshakeTimeout == .seconds(10))
        #expect(limits.idleTimeout == .seconds(600))
    }

    @Test func from_everyVariable_overridesItsLimit() {
        let limits = ConnectionLimits.from(environment: [
            "VERTICALS_MAX_FRAME_BYTES": "1024", "VERTICALS_MAX_IN_FLIGHT": "8", "VERTICALS_MAX_CONNECTIONS": "3",
            "VERTICALS_OUTBOUND_HIGH_WATER_BYTES": "4096", "VERTICALS_MAX_OUTBOUND_BYTES": "65536",
            "VERTICALS_HANDSHAKE_TIMEOUT_SECONDS": "0.5", "VERTICALS_FRAME_TIMEOUT_SECONDS": "2",
            "VERTICALS_IDLE_TIMEOUT_SECONDS": "30",
        ])
        #expect(limits.maxFrameSize == 1024)
        #expect(limits.maxInFlightPerConnection == 8)
        #expect(limits.maxConnections == 3)
        #expect(limits.outboundHighWater == 4096)
        #expect(limits.maxOutboundBytes == 65536)
        #expect(limits.handshakeTimeout == .milliseconds(500))
        #expect(limits.frameTimeout == .seconds(2))
        #expect(limits.idleTimeout == .seconds(30))
    }

    @Test(arguments: ["0", "-5", "lots", "", "nan", "inf"])
    func from_valueThatIsNotPositive_keepsTheDefaultSoNoLimitTurnsOff(text: String) {
        let limits = ConnectionLimits.from(environment: [
            "VERTICALS_MAX_CONNECTIONS": text, "VERTICALS_IDLE_TIMEOUT_SECONDS": text,
            "VERTICALS_MAX_FRAME_BYTES": text,
        ])
        #expect(limits == ConnectionLimits())
    }

    @Test func hostConfiguration_readsTheLimitsAndTheAllowLists() {
        let configuration = HostConfiguration.from(
            environment: [
                "VERTICALS_MAX_IN_FLIGHT": "2", "VERTICALS_ALLOWED_UIDS": "1001, 1002", "VERTICALS_ALLOWED_GIDS": "0",
            ],
            name: "echo", pid: 1)
        #expect(configuration.maxInFlightPerConnection == 2)
        #expect(configuration.access.allowedUIDs == [1001, 1002])
        #expect(configuration.access.allowedGIDs == [0])
    }
}

struct PeerAccessTests {
    let access = PeerAccess(ownUID: 500, allowedUIDs: [700], allowedGIDs: [900])

    @Test(arguments: [
        (PeerCredentials(pid: 1, uid: 0, gid: 0), true),
        (PeerCredentials(pid: 1, uid: 500, gid: 500), true),
        (PeerCredentials(pid: 1, uid: 700, gid: 1), true),
        (PeerCredentials(pid: 1, uid: 800, gid: 900), true),
        (PeerCredentials(pid: 1, uid: 800, gid: 800), false),
        (PeerCredentials(pid: 1, uid: 65534, gid: 65534), false),
    ])
    func allows_ownUIDRootAndTheAllowListsOnly(peer: PeerCredentials, allowed: Bool) {
        #expect(access.allows(peer) == allowed)
    }

    @Test func allows_unknownCredentials_never() {
        #expect(!access.allows(nil))
    }

    @Test func from_namesResolveAndUnknownNamesAreReported() {
        let access = PeerAccess.from(
            environment: ["VERTICALS_ALLOWED_UIDS": "root,no-such-user-here", "VERTICALS_ALLOWED_GIDS": "root 42"],
            service: "echo", ownUID: 500)
        #expect(access.allowedUIDs == [0])
        #expect(access.allowedGIDs == [0, 42])
        #expect(access.unresolved.count == 1)
        #expect(access.unresolved.first?.contains("no-such-user-here") == true)
    }

    @Test func internalOperations_onlyOwnUIDAndInternalUIDsMayCall() {
        let access = PeerAccess.from(
            environment: ["VERTICALS_INTERNAL_OPERATIONS": "send, other.thing", "VERTICALS_INTERNAL_UIDS": "700"],
            service: "mailer", ownUID: 500)
        #expect(access.internalOperations == ["mailer.send", "other.thing"])
        let own = PeerCredentials(pid: 1, uid: 500, gid: 1)
        let orders = PeerCredentials(pid: 1, uid: 700, gid: 1)
        let stranger = PeerCredentials(pid: 1, uid: 0, gid: 0)
        #expect(access.allows(own, toCall: "mailer.send"))
        #expect(access.allows(orders, toCall: "mailer.send"))
        #expect(!access.allows(stranger, toCall: "mailer.send"), "root may connect, not call internals")
        #expect(access.allows(stranger, toCall: "mailer.inbox"))
    }
}

/// What a refused caller and the callee's log are told: which vertical called and
/// which `depends_on` it lacks.
struct PeerAccessRefusalTests {
    let access = PeerAccess.from(
        environment: ["VERTICALS_SUITE_USERS": "echo:500,stranger:700", "VERTICALS_ALLOWED_UIDS": "600"],
        service: "echo", ownUID: 500)

    @Test func aVerticalOfTheSuite_isNamed_withTheMissingDependsOn() {
        let message = access.refusal(of: PeerCredentials(pid: 1, uid: 700, gid: 700), service: "echo")
        #expect(message.contains("uid 700"))
        #expect(message.contains("vertical stranger, which does not declare echo"))
        #expect(message.contains("depends_on = [\"echo\"]"))
    }

    @Test func anotherUID_isNamedByUID() {
        let message = access.refusal(of: PeerCredentials(pid: 1, uid: 4242, gid: 4242), service: "echo")
        #expect(message.hasPrefix("uid 4242"))
        #expect(message.contains("may not call echo"))
        #expect(access.refusal(of: nil, service: "echo").contains("unknown credentials"))
    }
}

/// The audit line of a privileged action: logfmt a shipper can split.
struct AuditLineTests {
    @Test func fields_areLogfmt_withTheCallerAndTheOutcome() {
        let line = AuditLine.text(
            service: "ledger", operation: "ledger.closeBooks", peer: PeerCredentials(pid: 42, uid: 0, gid: 0),
            callerName: "root", outcome: "ok")
        #expect(
            line
                == "audit service=ledger operation=ledger.closeBooks caller=root caller_uid=0 caller_gid=0 caller_pid=42 outcome=ok"
        )
        let quoted = AuditLine.text(
            service: "a", operation: "a.b", peer: nil, callerName: "vertical catalog", outcome: "permissionDenied")
        #expect(quoted == "audit service=a operation=a.b caller=\"vertical catalog\" outcome=permissionDenied")
        #expect(AuditLine.quoted("say \"hi\"\n") == "\"say \\\"hi\\\"\\n\"")
    }

    @Test func auditedOperations_builtinsAndTheEnvironment() {
        let access = PeerAccess.from(
            environment: ["VERTICALS_AUDIT_OPERATIONS": "closeBooks, openBooks"], service: "ledger", ownUID: 500)
        #expect(
            access.auditedOperations == [
                "daemon.backup", "daemon.setLogLevel", "ledger.closeBooks", "ledger.openBooks",
            ])
    }
}
