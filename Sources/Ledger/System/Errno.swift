#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A POSIX error number, kept typed.
public struct Errno: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The raw `errno` value.
    public var rawValue: CInt

    /// Wraps a raw `errno` value.
    public init(rawValue: CInt) { self.rawValue = rawValue }

    /// Interrupted system call.
    public static var interrupted: Errno { Errno(rawValue: EINTR) }
    /// Input/output error.
    public static var ioError: Errno { Errno(rawValue: EIO) }
    /// No space left on device.
    public static var noSpace: Errno { Errno(rawValue: ENOSPC) }
    /// No such file or directory.
    public static var noEntry: Errno { Errno(rawValue: ENOENT) }
    /// Permission denied.
    public static var accessDenied: Errno { Errno(rawValue: EACCES) }
    /// Operation not permitted.
    public static var notPermitted: Errno { Errno(rawValue: EPERM) }
    /// File exists.
    public static var exists: Errno { Errno(rawValue: EEXIST) }
    /// Is a directory.
    public static var isDirectory: Errno { Errno(rawValue: EISDIR) }
    /// Not a directory.
    public static var notDirectory: Errno { Errno(rawValue: ENOTDIR) }
    /// Too many levels of symbolic links (what `O_NOFOLLOW` reports for a symlink).
    public static var tooManySymlinks: Errno { Errno(rawValue: ELOOP) }
    /// Read-only file system.
    public static var readOnlyFileSystem: Errno { Errno(rawValue: EROFS) }
    /// Invalid argument.
    public static var invalidArgument: Errno { Errno(rawValue: EINVAL) }
    /// Disk quota exceeded.
    public static var quotaExceeded: Errno { Errno(rawValue: EDQUOT) }

    /// The symbolic name, e.g. `EIO`, or `errno N` for one not listed.
    public var name: String {
        switch rawValue {
        case EINTR: "EINTR"
        case EIO: "EIO"
        case ENOSPC: "ENOSPC"
        case ENOENT: "ENOENT"
        case EACCES: "EACCES"
        case EPERM: "EPERM"
        case EEXIST: "EEXIST"
        case EISDIR: "EISDIR"
        case ENOTDIR: "ENOTDIR"
        case ELOOP: "ELOOP"
        case EROFS: "EROFS"
        case EINVAL: "EINVAL"
        case EDQUOT: "EDQUOT"
        case EBADF: "EBADF"
        case EAGAIN: "EAGAIN"
        case ENOLCK: "ENOLCK"
        case EFBIG: "EFBIG"
        case ENAMETOOLONG: "ENAMETOOLONG"
        default: "errno \(rawValue)"
        }
    }

    /// `strerror` text and the name, e.g. `Input/output error (EIO)`.
    public var description: String { "\(System.errorText(self)) (\(name))" }
}
