import CLibUV

/// Calls back on the loop thread when something changes in a folder (`uv_fs_event_t`, inotify
/// on Linux); loop-confined.
///
/// Watch the *folder* that holds a file, not the file: a file replaced by rename (an editor, an
/// `mv` of a new certificate into place) or reached through a symlink that is swapped (a
/// Kubernetes Secret volume's `..data`, which cert-manager's rotations go through) is a new
/// inode, and an inotify watch on the old one would never fire again. The callback only says
/// that the folder changed; the owner looks at what it cares about (a stat, a reload), so
/// bursts of events for one rotation cost a few cheap looks, and nothing wakes while nothing
/// changes: no timer, no polling.
///
/// ```swift
/// let watch = try FileWatch(folder: "/etc/verticals/tls", on: loop) { reloadIfChanged() }
/// …
/// watch.close()
/// ```
///
/// The handle keeps the watch alive until ``close()`` or loop shutdown.
public final class FileWatch: @unchecked Sendable {
    // @unchecked Sendable: loop-confined. init and close() start with
    // `loop.preconditionInEventLoop()` and libuv runs the callbacks on the loop thread, so
    // `callback` and `isClosing` are only touched on that thread.

    /// The loop this watch lives on.
    public let loop: EventLoop
    /// The folder watched.
    public let folder: String
    let handle: UnsafeMutablePointer<uv_fs_event_t> // freed in the close callback
    var callback: (() -> Void)?
    var isClosing = false

    /// Starts watching `folder`. Call on the loop thread.
    ///
    /// - Throws: ``EventLoopError/notFound`` when the folder does not exist, and
    ///   ``EventLoopError/system(operation:code:)`` when it cannot be watched otherwise (the
    ///   user's inotify watches are used up: `UV_ENOSPC`); the caller may then fall back to
    ///   looking on a timer.
    public init(folder: String, on loop: EventLoop, onChange: @escaping () -> Void) throws(EventLoopError) {
        loop.preconditionInEventLoop()
        if loop.isShuttingDown { throw .closed }
        self.loop = loop
        self.folder = folder
        handle = .allocate(capacity: 1)
        var status = uv_fs_event_init(loop.loop, handle)
        guard status == 0 else {
            handle.deallocate() // a failed init leaves no handle in the loop
            throw .uv("uv_fs_event_init", status)
        }
        callback = onChange
        HandleData.retain(self, into: handle.asHandle)
        status = uv_fs_event_start(handle, FileWatch.onEvent, folder, 0)
        guard status == 0 else {
            close()
            throw .uv("uv_fs_event_start", status)
        }
    }

    /// Stops watching. Idempotent.
    public func close() {
        loop.preconditionInEventLoop()
        guard !isClosing else { return }
        isClosing = true
        uv_close(handle.asHandle, FileWatch.onClosed)
    }

    private static let onEvent: uv_fs_event_cb = { handle, _, _, _ in
        let watch = HandleData.owner(of: handle?.asHandle, as: FileWatch.self)
        guard !watch.isClosing else { return }
        // An error status (the folder removed, say) is passed on as a change too: the owner's
        // look finds out what is there now.
        watch.callback?()
    }

    private static let onClosed: uv_close_cb = { handle in
        let watch = HandleData.releaseOwner(of: handle, as: FileWatch.self)
        watch.callback = nil
        watch.handle.deallocate()
    }
}

extension FileWatch: ClosedAtShutdown {}
