import Glibc
import VerticalsEventLoop
import VerticalsClient

/// Who the CLI sends a secret to (a password, a session token): the vertical it means, checked on
/// the connection itself before the first byte (`CalleeCheck`).
///
/// - On a Unix socket, the listener's uid (`SO_PEERCRED`) must be root (the supervisor or systemd
///   bound the socket and handed it over), the CLI's own uid (a suite the user runs), or the
///   vertical's system user `SUITE-NAME` (a daemon that bound its socket itself, of the suite
///   systemd runs here: ``HostSuite``); or the
///   listener must be the very process a trusted supervisor runs as that vertical (its pid, from
///   `status`), or the socket file must be one only root can have placed (``RootPlacedSocket``),
///   whatever user the manifest gives the vertical. A socket someone else planted where the CLI
///   looks is held by their uid and pid, in a folder they may write, and refused.
/// - Over mutual TLS, the certificate must name the vertical (`verticals://NAME`).
/// - Over plain TCP nobody vouches for the listener: refused.
package enum TrustedCallee {
    /// The check for the CLI running as `euid`; `supervised` names the main process of each
    /// vertical a supervisor the CLI trusts runs (``SuiteVerticals/supervisedPIDs``), `rootPlaced`
    /// the verticals whose socket only root can have placed (``RootPlacedSocket``), `suite` the
    /// suite whose system users may hold a socket.
    package static func check(
        euid: UInt32 = geteuid(), supervised: [String: Int32] = [:], rootPlaced: Set<String> = [],
        suite: HostSuite = .reference
    ) -> CalleeCheck {
        CalleeCheck { service, listener in
            refusal(
                service: service, listener: listener, euid: euid, supervised: supervised, rootPlaced: rootPlaced,
                suite: suite)
        }
    }

    /// Why `listener` may not receive `service`'s secrets, for a CLI running as `euid`; nil when it may.
    package static func refusal(
        service: String, listener: CalleeCheck.Listener, euid: UInt32, supervised: [String: Int32] = [:],
        rootPlaced: Set<String> = [], suite: HostSuite = .reference
    ) -> String? {
        switch listener {
        case .unixSocket(let credentials):
            guard let credentials else { return "the kernel does not say who listens on its socket (SO_PEERCRED)" }
            let allowed = allowedUIDs(for: service, euid: euid, suite: suite)
            guard !allowed.uids.contains(credentials.uid), !rootPlaced.contains(service) else { return nil }
            let pid = supervised[service]
            // The daemon listens on the socket the supervisor handed it, so the kernel names the daemon.
            if let pid, pid > 0, credentials.pid == pid { return nil }
            return
                "its socket is held by uid \(credentials.uid)\(AccountEntry.userName(of: credentials.uid).map { " (user \($0))" } ?? ""), "
                + "pid \(credentials.pid), where only \(allowed.described)"
                + (pid.map { " or the supervisor's \(service) (pid \($0))" } ?? "")
                + " may hold it. It may have been planted "
                + "where the CLI looks: nothing was sent. Point at the suite with --run-dir or --socket-dir"
        case .certificate(let name):
            guard name != service else { return nil }
            return
                "its certificate names \(name.map { "verticals://\($0)" } ?? "no vertical"), not verticals://\(service)"
        case .unidentified:
            return "over plain TCP nobody vouches for the listener: the CLI sends a secret only over a Unix socket "
                + "or mutual TLS (unset VERTICALS_TLS=off)"
        }
    }

    /// The uids that may hold `service`'s socket, of `suite`, and how to say them.
    static func allowedUIDs(
        for service: String, euid: UInt32, suite: HostSuite = .reference
    ) -> (uids: Set<UInt32>, described: String) {
        var uids: Set<UInt32> = [0, euid]
        var names = ["root"]
        if euid != 0 { names.append("uid \(euid) (this user)") }
        let systemUser = suite.systemUser(of: service)
        if let uid = AccountEntry.userID(named: systemUser) {
            uids.insert(uid)
            names.append("\(systemUser) (uid \(uid))")
        }
        return (uids, names.joined(separator: ", "))
    }
}
