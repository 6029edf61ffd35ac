import Foundation
import Testing
import VerticalsDeploy
import VerticalsSupervisor
import VerticalsTesting

/// One manifest, several hosts: `export systemd --host` writes only the units of the services
/// placed on that host, with TCP sockets, TLS files as credentials, and remote peers as endpoints.
struct SystemdPlacementTests {
    /// ledger on host a (with `ledger`'s extra lines), catalog calling it from host b.
    static func catalogOnB(ledger: String) throws -> Manifest {
        try DeployFixture.manifest(
            """
            [services.ledger]
            executable = "svc-ledger"
            host = "a"
            \(ledger)
            [services.catalog]
            executable = "svc-catalog"
            host = "b"
            depends_on = ["ledger"]
            """)
    }

    /// ledger, declared by `ledger`'s lines, and catalog calling it, nothing placed.
    static func catalogCalling(ledger: String) throws -> Manifest {
        try DeployFixture.manifest(
            """
            [services.ledger]
            \(ledger)
            [services.catalog]
            executable = "svc-catalog"
            depends_on = ["ledger"]
            """)
    }

    @Test func eachHost_getsUnitsForItsOwnServicesOnly() throws {
        let a = try SystemdHostsFixture.files(host: "a")
        let b = try SystemdHostsFixture.files(host: "b")
        let units: ([String: String]) -> [String] = { files in
            files.keys.filter { $0.hasPrefix("verticals-") && $0.hasSuffix(".service") }.sorted()
        }
        #expect(units(a) == ["verticals-catalog.service", "verticals-ledger.service"])
        #expect(
            units(b) == ["verticals-archive.service", "verticals-bookings.service", "verticals-mailer.service"])
        // The target and the users are this host's only.
        let target = try #require(b["verticals.target"])
        #expect(!target.contains("verticals-ledger") && target.contains("verticals-archive.service"))
        #expect(!(b["sysusers.d/verticals.conf"] ?? "").contains("verticals-catalog"))
    }

    @Test func aRemotePeer_isAnEndpoint_neverAUnitOrAnOrderingDependency() throws {
        let b = try SystemdHostsFixture.files(host: "b")
        let archive = try #require(b["verticals-archive.service"])
        let environment = SystemdHostsFixture.environment(archive)
        #expect(environment["VERTICALS_ENDPOINT_LEDGER"] == "tcp:10.232.45.10:7001")
        #expect(environment["VERTICALS_ENDPOINT_CATALOG"] == "tcp:10.232.45.10:7002")
        #expect(DeployFixture.values("Wants", in: archive).isEmpty, "\(archive)")
        let bookings = try #require(b["verticals-bookings.service"])
        // mailer runs on b too: ordered after its socket, and reached at its endpoint.
        #expect(DeployFixture.values("Wants", in: bookings) == ["verticals-mailer.socket"])
        #expect(SystemdHostsFixture.environment(bookings)["VERTICALS_ENDPOINT_MAILER"] == "tcp:10.232.45.11:7003")
        for (path, text) in b where path.hasSuffix(".service") {
            #expect(!text.contains("\nExecStart=\n"), "\(path) has an empty ExecStart=")
        }
    }

    @Test func aTCPService_listensOnItsAddress_withFreeBind_andOnlyItsPeersAllowed() throws {
        let a = try SystemdHostsFixture.files(host: "a")
        let socket = try #require(a["verticals-catalog.socket"])
        #expect(DeployFixture.values("ListenStream", in: socket) == ["10.232.45.10:7002"])
        #expect(DeployFixture.values("FreeBind", in: socket) == ["yes"])
        #expect(DeployFixture.values("IPAddressDeny", in: socket) == ["any"])
        // Its own host (its operator) and b, where archive and bookings call it from.
        #expect(SystemdHostsFixture.words("IPAddressAllow", in: socket) == ["10.232.45.10", "10.232.45.11"])
        #expect(DeployFixture.values("SocketMode", in: socket).isEmpty)
    }

    @Test func theSupervisorsUnit_opensTheNetworkToItsVerticalsAddresses_onlyWhereTheyUseTCP() throws {
        // Its verticals run in its cgroup and sandbox: with PrivateNetwork= they could not listen on TCP.
        let a = try #require(try SystemdHostsFixture.files(host: "a")["svc-supervisor.service"])
        #expect(DeployFixture.values("PrivateNetwork", in: a).isEmpty)
        #expect(SystemdHostsFixture.words("RestrictAddressFamilies", in: a) == ["AF_UNIX", "AF_INET", "AF_INET6"])
        #expect(DeployFixture.values("IPAddressDeny", in: a) == ["any"])
        #expect(SystemdHostsFixture.words("IPAddressAllow", in: a) == ["10.232.45.10", "10.232.45.11"])
        // A suite on Unix sockets alone keeps no network at all.
        let manifest = try Self.catalogCalling(ledger: #"executable = "svc-ledger""#)
        let alone = try #require(try SystemdExport.files(for: manifest)["svc-supervisor.service"])
        #expect(DeployFixture.values("PrivateNetwork", in: alone) == ["yes"])
        #expect(DeployFixture.values("RestrictAddressFamilies", in: alone) == ["AF_UNIX"])
        #expect(DeployFixture.values("IPAddressAllow", in: alone).isEmpty)
    }

    @Test func tlsFiles_comeAsCredentials_neverAsPathsToTheKey() throws {
        let a = try SystemdHostsFixture.files(host: "a")
        let catalog = try #require(a["verticals-catalog.service"])
        #expect(
            DeployFixture.values("LoadCredential", in: catalog) == [
                "tls.crt:/etc/verticals/certs/catalog/tls.crt", "tls.key:/etc/verticals/certs/catalog/tls.key",
                "ca.crt:/etc/verticals/certs/catalog/ca.crt",
            ])
        let environment = SystemdHostsFixture.environment(catalog)
        #expect(environment["VERTICALS_TLS_KEY"] == "%d/tls.key")
        #expect(environment["VERTICALS_TLS_CERT"] == "%d/tls.crt")
        #expect(environment["VERTICALS_TLS_CA"] == "%d/ca.crt")
        // Its callers on b are its peers by certificate, not users of this host.
        #expect(environment["VERTICALS_ALLOWED_PEERS"] == "archive,bookings,operator")
        #expect(environment["VERTICALS_ALLOWED_UIDS"] == nil)
    }

    @Test func aTCPService_hasTheNetwork_butNoPrivateNetwork_andHidesOtherUsers() throws {
        let a = try SystemdHostsFixture.files(host: "a")
        let catalog = try #require(a["verticals-catalog.service"])
        #expect(DeployFixture.values("PrivateNetwork", in: catalog).isEmpty)
        #expect(
            SystemdHostsFixture.words("RestrictAddressFamilies", in: catalog) == ["AF_UNIX", "AF_INET", "AF_INET6"])
        #expect(DeployFixture.values("PrivateUsers", in: catalog) == ["yes"])
        #expect(DeployFixture.values("SupplementaryGroups", in: catalog).isEmpty)
        // The one-host suite keeps no network at all.
        let unix = try #require(
            try SystemdExport.files(for: DeployFixture.suiteManifest())["verticals-catalog.service"])
        #expect(DeployFixture.values("PrivateNetwork", in: unix) == ["yes"])
        #expect(DeployFixture.values("RestrictAddressFamilies", in: unix) == ["AF_UNIX"])
        #expect(DeployFixture.values("IPAddressAllow", in: unix).isEmpty)
    }

    @Test func aPlacedManifest_withoutHost_isRefused_namingTheHosts() throws {
        #expect {
            _ = try SystemdExport.files(for: SystemdHostsFixture.manifest())
        } throws: { error in
            "\(error)".contains("--host") && "\(error)".contains("a, b")
        }
        #expect {
            _ = try SystemdExport.files(for: SystemdHostsFixture.manifest(), host: "c")
        } throws: { error in
            (error as? ExportError)?.code == .placement
        }
    }

    @Test func anEndpointNamedByHostName_isRefused_sayingAddressesAreNeeded() throws {
        let manifest = try Self.catalogOnB(ledger: "endpoint = \"tcp:ledger.internal:7001\"")
        #expect {
            _ = try SystemdExport.files(for: manifest, host: "b")
        } throws: { error in
            let text = "\(error)"
            return text.contains("services.catalog") && text.contains("ledger.internal")
                && text.contains("take addresses")
        }
    }

    @Test func aRemotePeerWithoutAnEndpoint_isRefused() throws {
        let manifest = try Self.catalogOnB(ledger: "")
        #expect {
            _ = try SystemdExport.files(for: manifest, host: "b")
        } throws: { error in
            (error as? ExportError).map { $0.code == .placement && $0.service == "catalog" } == true
        }
    }

    @Test func aRemoteServiceWithoutExecutable_getsNoUnit() throws {
        let manifest = try Self.catalogCalling(ledger: #"endpoint = "tcp:10.0.0.2:7001""#)
        let files = try SystemdExport.files(for: manifest)
        #expect(files["verticals-ledger.service"] == nil && files["verticals-ledger.socket"] == nil)
        let catalog = try #require(files["verticals-catalog.service"])
        #expect(SystemdHostsFixture.environment(catalog)["VERTICALS_ENDPOINT_LEDGER"] == "tcp:10.0.0.2:7001")
        #expect(SystemdHostsFixture.words("IPAddressAllow", in: catalog) == ["10.0.0.2"])
        #expect(DeployFixture.values("Wants", in: catalog).isEmpty)
    }

    @Test func anOTLPCollector_isAllowed_byAddress_andRefusedByName() throws {
        let text = """
            [services.catalog]
            executable = "svc-catalog"
            env = { OTEL_EXPORTER_OTLP_ENDPOINT = "COLLECTOR" }
            """
        let byAddress = try DeployFixture.manifest(
            text.replacingOccurrences(of: "COLLECTOR", with: "http://[fd00::5]:4318"))
        let catalog = try #require(try SystemdExport.files(for: byAddress)["verticals-catalog.service"])
        #expect(SystemdHostsFixture.words("IPAddressAllow", in: catalog) == ["fd00::5"])
        #expect(DeployFixture.values("PrivateNetwork", in: catalog).isEmpty)
        let byName = try DeployFixture.manifest(text.replacingOccurrences(of: "COLLECTOR", with: "http://otel:4318"))
        #expect {
            _ = try SystemdExport.files(for: byName)
        } throws: { error in
            "\(error)".contains("OTEL_EXPORTER_OTLP_ENDPOINT") && "\(error)".contains("collector's address")
        }
    }
}
