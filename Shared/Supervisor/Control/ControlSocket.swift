#if canImport(Glibc)
import Glibc
#endif

/// Who may ask the supervisor anything: its control socket's mode.
///
/// The supervisor's own user alone, root under a user per vertical: starting, stopping,
/// restoring, upgrading and reloading are root's, as `systemctl` is. The operator group calls the
/// verticals' operations (its members are admitted to every vertical's socket) but never drives
/// the process that runs them as root, so no path it names reaches root. Whatever path root is
/// given (`restore`, `upgrade --executable`) is still taken through the owner checks a vertical's
/// path would be.
public enum ControlSocket {
    /// `<run>/supervisor.sock`'s mode: read and write for its owner alone.
    public static let mode: mode_t = 0o600
}
