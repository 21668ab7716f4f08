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

    // The values the ledger names: EINTR, EIO, ENOSPC, ENOENT, EACCES, EPERM, EEXIST, EISDIR,
    // ENOTDIR, ELOOP (what `O_NOFOLLOW` reports for a symlink), EROFS, EINVAL.
    package static let interrupted = Errno(rawValue: EINTR), ioError = Errno(rawValue: EIO), noSpace = Errno(rawValue: ENOSPC),
        noEntry = Errno(rawValue: ENOENT), accessDenied = Errno(rawValue: EACCES), notPermitted = Errno(rawValue: EPERM),
        exists = Errno(rawValue: EEXIST), isDirectory = Errno(rawValue: EISDIR), notDirectory = Errno(rawValue: ENOTDIR),
        tooManySymlinks = Errno(rawValue: ELOOP), readOnlyFileSystem = Errno(rawValue: EROFS), invalidArgument = Errno(rawValue: EINVAL)
    // A server's sockets: EAGAIN/EWOULDBLOCK (a non-blocking call would block), EMFILE and ENFILE
    // (no descriptor left), ECONNABORTED (gone before `accept`), ECONNRESET, EPIPE, EADDRINUSE.
    package static let wouldBlock = Errno(rawValue: EAGAIN), tooManyFiles = Errno(rawValue: EMFILE),
        tooManyFilesInSystem = Errno(rawValue: ENFILE), connectionAborted = Errno(rawValue: ECONNABORTED),
        connectionReset = Errno(rawValue: ECONNRESET), brokenPipe = Errno(rawValue: EPIPE), addressInUse = Errno(rawValue: EADDRINUSE)

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
