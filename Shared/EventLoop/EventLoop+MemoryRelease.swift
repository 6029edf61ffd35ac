import CLibUV
import CSpawn

/// Long frames, and the memory they leave free.
///
/// A frame longer than ``VerticalsWire/FrameDecoder``'s gathering threshold (64 KiB) is received,
/// decoded and answered in arrays of its own. With glibc's default policy, four such frames of
/// 4 MiB in flight cost more in page faults than in everything else: glibc hands the top of a
/// heap back to the kernel once more than its trim threshold is free there (which grows only to
/// twice the largest block it ever mapped), so every long array's pages were returned on free
/// and faulted in, zeroed, for the next one.
///
/// The first long frame a process reads or writes therefore has glibc keep what it frees: blocks
/// below 32 MiB come from its heaps (`M_MMAP_THRESHOLD`, the most glibc's own adjustment ever
/// reaches), and up to 32 MiB free at a heap's top stays there (`M_TRIM_THRESHOLD`: eight frames
/// at the default limit, four requests and four answers). What is kept is handed back once the
/// traffic stops: a loop that moved a long frame hands back the free memory of every heap
/// (`vt_memory_release`: `malloc_trim`, and its own heap's free top, which `malloc_trim` leaves)
/// after ``memoryReleaseDelay`` with no further long frame, then not again until the next one.
/// That also returns free pages in the middle of a heap, which glibc's own trimming never does.
/// An idle daemon so holds no more than it did, wakes once after a burst of long frames, and
/// never while it is idle; a process that moves only short frames keeps glibc's defaults. A
/// `GLIBC_TUNABLES` that sets any `glibc.malloc.` tunable is the operator's policy and is left
/// alone (the release after a burst still runs).
extension EventLoop {
    /// How long after its last long frame a loop hands its free memory back.
    package static let memoryReleaseDelay: Duration = .seconds(2)

    /// Whether this loop will hand free memory back once long frames stop. On the loop thread.
    package var isMemoryReleaseArmed: Bool {
        preconditionInEventLoop()
        return memoryRelease?.isActive ?? false
    }

    /// The thresholds, set once a process (see the extension's comment).
    private static let keepsFreedMemory: Void = { _ = vt_memory_keep_freed() }()

    /// Notes that a connection on this loop moved a long frame: keeps freed memory from now on,
    /// and (re)arms the release. Called on the loop thread for each read into a long frame being
    /// gathered and each long frame written, so frames of 64 KiB or less never pay for it. (A
    /// frame read whole at once, which only a read buffer set above 64 KiB allows, is not noted.)
    func movedLongFrame() {
        _ = Self.keepsFreedMemory
        if let memoryRelease, memoryRelease.isActive {
            longFrameSinceArmed = true
            return
        }
        guard !isShuttingDown else { return }
        if memoryRelease == nil {
            let timer = LoopTimer(loop: self)
            uv_unref(timer.timer.asHandle) // never what keeps the loop running
            memoryRelease = timer
        }
        armMemoryRelease()
    }

    /// Starts the release's delay afresh.
    private func armMemoryRelease() {
        longFrameSinceArmed = false
        memoryRelease?.start(after: Self.memoryReleaseDelay) { [unowned self] in releaseMemoryIfQuiet() }
    }

    /// The bytes malloc has handed out and not taken back, in the whole process: the live heap,
    /// without the free memory kept for long frames (`mallinfo2`'s `uordblks` and `hblkhd`). It
    /// walks each heap's free lists, so it is read when asked (`daemon.metrics`), never per request.
    package static var heapInUseBytes: Int { Int(clamping: vt_memory_in_use()) }

    /// The release timer fired: waits another delay if a long frame came meanwhile, else hands
    /// the free memory back.
    private func releaseMemoryIfQuiet() {
        guard !longFrameSinceArmed else { return armMemoryRelease() }
        vt_memory_release()
        memoryReleaseCount += 1
    }
}
