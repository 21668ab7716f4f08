/// The versions of the log format this library knows (events-v1.md,
/// events-v2.md; docs/format.md, "How the format evolves").
///
/// A line's `v` is the version that defined its type (``EventType/version``):
/// the writer sets it, so a log of version-1 types only is byte for byte what
/// a version-1 writer writes. A reader keeps a line of a version it does not
/// know, checks its `seq`, `id` and `prev`, and skips it
/// (``Record/newer(_:)``).
public enum FormatVersion {
    /// The newest version this library writes and reads: 2.
    public static let latest = 2

    /// The highest version the readers of this process know: ``latest``
    /// unless set lower, to see logs as an older reader does (version 1: the
    /// lines of version-2 types are then kept, checked for `seq`, `id` and
    /// `prev` only, and reported as newer). It applies to every stored line
    /// read (`LineCodec.decodeRecord` and the ledger's reads), never to
    /// events being appended, which are always checked fully.
    ///
    /// Set it once, before any read starts (the CLI sets it at launch from
    /// `PROGRESS_LEDGER_READ_VERSION`); readers on other threads read it
    /// without a lock.
    package static var readable: Int {
        get { readableStorage.pointee }
        set { readableStorage.pointee = newValue }
    }

    /// Where ``readable`` is kept: a pointer's pointee, which Swift does not
    /// check for exclusive access at run time (a `static var` costs a
    /// `swift_beginAccess`, about 76 instructions, on every line decoded).
    private nonisolated(unsafe) static let readableStorage: UnsafeMutablePointer<Int> = {
        let p = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        p.initialize(to: latest)
        return p
    }()

    /// Sets ``readable`` from the text of a setting (`1` ... `latest`);
    /// returns false, leaving it as it is, for anything else.
    package static func setReadable(_ text: String) -> Bool {
        guard let v = Int(text), (1...latest).contains(v) else { return false }
        readable = v
        return true
    }
}
