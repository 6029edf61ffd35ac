import Glibc
import Testing
import VerticalsDeploy
import VerticalsSupervisor
import VerticalsSupervisorClient
import VerticalsTesting

/// Nothing the project ships grants a role by e-mail address: anyone may register any address, so
/// such a setting makes its first registrant an admin. `make install` installs deploy/ (the
/// manifest and the units exported from it); scripts/ and the Makefile start suites too.
@Suite struct NoRoleByEmailTests {
    /// The shipped folders and files, relative to the repository's root.
    static let shipped = ["deploy", "scripts", "Makefile"]

    @Test func shippedFiles_nameNoAdminByEmailSetting() throws {
        let root = SuiteDeployFixture.repositoryRoot
        let files = Self.shipped.flatMap { Self.files(under: "\(root)/\($0)") }
        #expect(files.count > 10, "the walk found the shipped files: \(files)")
        for file in files {
            let text = readFile(file) ?? ""
            #expect(!text.contains("ADMIN_EMAILS"), "\(file) brings back the admin-by-e-mail bootstrap")
        }
    }

    @Test func shippedManifest_andItsExport_setNoAdminVariable() throws {
        let manifest = try SuiteDeployFixture.suiteManifest()
        for service in manifest.services {
            let admin = service.environment.keys.filter { $0.uppercased().contains("ADMIN") }
            #expect(admin.isEmpty, "deploy/suite.toml gives \(service.name) \(admin)")
        }
        for (path, text) in try SystemdExport.files(for: manifest) {
            let lines = text.split(separator: "\n").filter {
                $0.hasPrefix("Environment") && $0.uppercased().contains("ADMIN")
            }
            #expect(lines.isEmpty, "the exported \(path) sets an admin variable: \(lines)")
        }
    }

    /// Every regular file below `path` (or `path` itself, when it is a file).
    static func files(under path: String) -> [String] {
        var info = stat()
        guard lstat(path, &info) == 0 else { return [] }
        guard info.st_mode & S_IFMT == S_IFDIR else { return info.st_mode & S_IFMT == S_IFREG ? [path] : [] }
        return FolderEntries.names(in: path).flatMap { files(under: "\(path)/\($0)") }
    }
}
