#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A POSIX error number, kept typed.
package struct Errno: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The raw `errno` value.
    package var rawValue: CInt

    /// Wraps a raw `errno` value.
    package init(rawValue: CInt) { self.rawValue = rawValue }

    /// Interrupted system call.
    package static var interrupted: Errno { Errno(rawValue: EINTR) }
    /// Input/output error.
    package static var ioError: Errno { Errno(rawValue: EIO) }
    /// No space left on device.
    package static var noSpace: Errno { Errno(rawValue: ENOSPC) }
    /// No such file or directory.
    package static var noEntry: Errno { Errno(rawValue: ENOENT) }
    /// Permission denied.
    package static var accessDenied: Errno { Errno(rawValue: EACCES) }
    /// Operation not permitted.
    package static var notPermitted: Errno { Errno(rawValue: EPERM) }
    /// File exists.
    package static var exists: Errno { Errno(rawValue: EEXIST) }
    /// Is a directory.
    package static var isDirectory: Errno { Errno(rawValue: EISDIR) }
    /// Not a directory.
    package static var notDirectory: Errno { Errno(rawValue: ENOTDIR) }
    /// Too many levels of symbolic links (what `O_NOFOLLOW` reports for a symlink).
    package static var tooManySymlinks: Errno { Errno(rawValue: ELOOP) }
    /// Read-only file system.
    package static var readOnlyFileSystem: Errno { Errno(rawValue: EROFS) }
    /// Invalid argument.
    package static var invalidArgument: Errno { Errno(rawValue: EINVAL) }
    /// Resource temporarily unavailable: a non-blocking call would block (`EAGAIN`, `EWOULDBLOCK`).
    package static var wouldBlock: Errno { Errno(rawValue: EAGAIN) }
    /// Too many open files in this process.
    package static var tooManyFiles: Errno { Errno(rawValue: EMFILE) }
    /// Too many open files in the system.
    package static var tooManyFilesInSystem: Errno { Errno(rawValue: ENFILE) }
    /// A connection was aborted before `accept` took it.
    package static var connectionAborted: Errno { Errno(rawValue: ECONNABORTED) }
    /// The peer reset the connection.
    package static var connectionReset: Errno { Errno(rawValue: ECONNRESET) }
    /// Writing to a connection the peer closed.
    package static var brokenPipe: Errno { Errno(rawValue: EPIPE) }
    /// The address is already in use.
    package static var addressInUse: Errno { Errno(rawValue: EADDRINUSE) }

    /// The symbolic name, e.g. `EIO`, or `errno N` for one not listed.
    package var name: String { Errno.names[rawValue] ?? "errno \(rawValue)" }

    private static let names: [CInt: String] = [
        EINTR: "EINTR", EIO: "EIO", ENOSPC: "ENOSPC", ENOENT: "ENOENT", EACCES: "EACCES", EPERM: "EPERM",
        EEXIST: "EEXIST", EISDIR: "EISDIR", ENOTDIR: "ENOTDIR", ELOOP: "ELOOP", EROFS: "EROFS", EINVAL: "EINVAL",
        EDQUOT: "EDQUOT", EBADF: "EBADF", EAGAIN: "EAGAIN", ENOLCK: "ENOLCK", EFBIG: "EFBIG",
        ENAMETOOLONG: "ENAMETOOLONG", EMFILE: "EMFILE", ENFILE: "ENFILE", ECONNABORTED: "ECONNABORTED",
        ECONNRESET: "ECONNRESET", EPIPE: "EPIPE", EADDRINUSE: "EADDRINUSE", ECONNREFUSED: "ECONNREFUSED",
        EADDRNOTAVAIL: "EADDRNOTAVAIL", ETIMEDOUT: "ETIMEDOUT", ENOTCONN: "ENOTCONN",
    ]

    /// `strerror` text and the name, e.g. `Input/output error (EIO)`.
    package var description: String { "\(System.errorText(self)) (\(name))" }
}
