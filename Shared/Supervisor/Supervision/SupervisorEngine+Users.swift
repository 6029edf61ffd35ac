#if canImport(Glibc)
import Glibc
#endif
import VerticalsContract
import VerticalsEventLoop
import VerticalsManifest
import VerticalsSupervisorClient
import VerticalsWire

// A user per service when the supervisor runs as root (`configuration.serviceUsers`): the users
// made, the run directory opened just enough for them, what each must reach checked before
// anything starts, and who each service admits. All on the loop thread.
extension SupervisorEngine {
    /// Creates missing users (and the operator group), gives the socket folder to the operator
    /// group, and checks that every service's user can reach its executable, the run folder,
    /// the socket folder and the notify socket. Throws naming the service and the path.
    func prepareUsers(_ manifest: Manifest) throws(SupervisorError) {
        guard let users = configuration.serviceUsers else { return }
        let run = configuration.runDirectory
        let missing = manifest.services.contains { AccountDatabase.user(named: userName($0, users)) == nil }
        if missing || AccountDatabase.groupID(named: users.operatorGroup) == nil {
            guard users.createMissing else {
                throw SupervisorError(
                    .notFound, "users missing for the services of the manifest; create them with systemd-sysusers")
            }
            try UserCreation.create(users.sysusersLines(manifest), scratch: run.path)
        }
        guard let operatorGID = AccountDatabase.groupID(named: users.operatorGroup) else {
            throw SupervisorError(.notFound, "no group \(users.operatorGroup) after creating it")
        }
        // The socket folder: the operator group may enter it (each service has it as a
        // supplementary group); state/ and runtime/ only traversed, each service's folder its own.
        guard chown(run.socketDirectory, 0, operatorGID) == 0,
            chmod(run.socketDirectory, mode_t(ServiceAccounts.socketFolderMode)) == 0
        else {
            throw SupervisorError.system(
                "cannot give \(run.socketDirectory) to group \(users.operatorGroup)", path: run.socketDirectory)
        }
        for folder in ["\(run.path)/state", "\(run.path)/runtime"] { chmod(folder, 0o711) }
        for spec in manifest.services {
            let identity = try identity(of: spec, users, operatorGID: operatorGID)
            let checks: [(String, String, PathReach.Need)] = [
                ("its executable", configuration.program(spec.executable), .execute),
                ("the run folder", run.path, .search),
                ("the socket folder", run.socketDirectory, .search),
                ("the notify socket", run.notifySocket, .write),
            ]
            for (what, path, need) in checks {
                try check(spec, identity, what, path, need)
            }
            try checkWriters(spec, identity, configuration.program(spec.executable))
        }
    }

    /// Checks that each service's user can connect to its own socket, once bound. A service on a
    /// TCP `endpoint` has no socket file to reach: the port is handed over as it is.
    func checkSocketsReach(_ manifest: Manifest) throws(SupervisorError) {
        guard let users = configuration.serviceUsers,
            let operatorGID = AccountDatabase.groupID(named: users.operatorGroup)
        else { return }
        for spec in manifest.services where spec.socket && spec.endpoint == nil {
            let identity = try identity(of: spec, users, operatorGID: operatorGID)
            try check(spec, identity, "its socket", configuration.runDirectory.socket(for: spec.name), .write)
        }
    }

    /// The identity `spec` runs as, or nil when services share the supervisor's user.
    func identity(of spec: ServiceSpec) throws(SupervisorError) -> ServiceIdentity? {
        guard let users = configuration.serviceUsers else { return nil }
        guard let operatorGID = AccountDatabase.groupID(named: users.operatorGroup) else {
            throw SupervisorError(
                .notFound, "no group \(users.operatorGroup): restart svc-supervisor as root to create it")
        }
        return try identity(of: spec, users, operatorGID: operatorGID)
    }

    /// What `spec`'s process needs besides its environment to run as its user: its state and
    /// runtime folders made its own (everything in them, as systemd's StateDirectory= does, when
    /// their top is not its own yet),
    /// the access variables set. Nothing without ``EngineConfiguration/serviceUsers``.
    func applyUser(_ identity: ServiceIdentity?, to spec: ServiceSpec, environment: inout [String: String])
        throws(SupervisorError)
    {
        guard let identity, let users = configuration.serviceUsers else { return }
        let run = configuration.runDirectory
        // The walk itself ran off the loop before the spawn (``giveFolders(_:)``): here only a
        // folder just made, or one whose top changed since.
        for folder in [run.stateDirectory(for: spec.name), run.runtimeDirectory(for: spec.name)]
        where TreeOwnership.isNeeded(folder, uid: identity.user.uid, gid: identity.user.gid) {
            try TreeOwnership.give(folder, uid: identity.user.uid, gid: identity.user.gid)
        }
        for folder in [run.stateDirectory(for: spec.name), run.runtimeDirectory(for: spec.name)] {
            try TreeOwnership.makePrivate(folder)
        }
        if let key = environment[DaemonSettings.tlsKey.name] {
            // Only a key the manifest names for this service, in its env or its certificates folder.
            guard key == Self.manifestKey(of: spec) else {
                throw SupervisorError(
                    .refused,
                    "\(spec.name): its TLS key \(key) is named by neither its manifest env nor its certificates folder; "
                        + "it is not given to user \(identity.user.name)")
            }
            try giveKey(key, to: identity, of: spec)
        }
        var problems: [String] = []
        ServiceAccounts.applyAccess(
            to: &environment, for: spec, in: manifest, operatorGroup: String(identity.operatorGID)
        ) { caller in
            if let user = AccountDatabase.user(named: self.userName(caller, users)) { return String(user.uid) }
            problems.append(caller.name)
            return self.userName(caller, users)
        }
        if !problems.isEmpty {
            throw SupervisorError(
                .notFound,
                "no user for \(problems.joined(separator: ", ")): restart svc-supervisor as root to create it")
        }
    }

    /// Makes the service's TLS key its own when its user cannot read it: `svc-supervisor certs`
    /// writes each key for root alone (0600) in a 0700 folder named for the service, and the
    /// daemon reads it at start and at each rotation. That folder (when the key is in one named
    /// for the service, as `certs` lays it out) and the key become the user's, from descriptors
    /// that follow no link (``KeyHandover``); its certificate and the CA are world-readable. A key
    /// that still cannot be reached (a folder in the way) is refused, naming it.
    private func giveKey(_ key: String, to identity: ServiceIdentity, of spec: ServiceSpec) throws(SupervisorError) {
        let user = identity.user
        let groups = [identity.operatorGID]
        guard PathReach.problem(key, .read, uid: user.uid, gid: user.gid, groups: groups) != nil else { return }
        try KeyHandover.give(key, service: spec.name, uid: user.uid, gid: user.gid, userName: user.name)
        try check(spec, identity, "its TLS key", key, .read)
    }

    /// The TLS key the manifest names for `spec`: its `env`'s, else the one in its certificates folder.
    static func manifestKey(of spec: ServiceSpec) -> String? {
        spec.environment[DaemonSettings.tlsKey.name] ?? spec.certificates.map { "\($0)/\(spec.name)/tls.key" }
    }

    private func userName(_ spec: ServiceSpec, _ users: ServiceUsers) -> String {
        ServiceAccounts.userName(spec, prefix: users.prefix)
    }

    private func identity(of spec: ServiceSpec, _ users: ServiceUsers, operatorGID: UInt32) throws(SupervisorError)
        -> ServiceIdentity
    {
        let name = userName(spec, users)
        guard let user = AccountDatabase.user(named: name) else {
            throw SupervisorError(.notFound, "\(spec.name): no user \(name) to run it as (svc-supervisor runs as root)")
        }
        guard user.uid != 0 else {
            throw SupervisorError(
                .refused, "\(spec.name): user \(name) is root; a service runs as an unprivileged user")
        }
        return ServiceIdentity(user: user, operatorGID: operatorGID)
    }

    /// Throws unless only root and `spec`'s user can change the program at `path` (``ProgramWriters``).
    func checkWriters(_ spec: ServiceSpec, _ identity: ServiceIdentity, _ path: String) throws(SupervisorError) {
        if let problem = ProgramWriters.problem(path, uid: identity.user.uid) {
            throw SupervisorError(
                .notOwned,
                "\(spec.name) runs as user \(identity.user.name), and its executable \(path) is not root's alone: "
                    + "\(problem). Install it where only root writes (e.g. `make install`)",
                details: [ErrorDetail("path", path), ErrorDetail("service", spec.name)])
        }
    }

    /// Throws unless `spec`'s user can reach `path` as `need` says, naming `what` it is.
    func check(
        _ spec: ServiceSpec, _ identity: ServiceIdentity, _ what: String, _ path: String, _ need: PathReach.Need
    ) throws(SupervisorError) {
        let user = identity.user
        if let problem = PathReach.problem(path, need, uid: user.uid, gid: user.gid, groups: [identity.operatorGID]) {
            throw SupervisorError(
                .unreachable,
                "\(spec.name) runs as user \(user.name) (svc-supervisor runs as root), which cannot reach "
                    + "\(what) \(path): \(problem). Move it where that user can (e.g. `make install`, or a "
                    + "checkout outside /root), or run svc-supervisor as an ordinary user",
                details: [ErrorDetail("path", path), ErrorDetail("service", spec.name)])
        }
    }
}
