// Every C call of the Ledger module lives in this folder: the files and the
// directories here, the sockets, threads, clock and signals of a server in
// `System+Sockets.swift`, `System+Threads.swift` and `System+Signals.swift`.
//
// Rules (as in swift-system): EINTR is retried, short writes are looped,
// close is never retried, errno is kept typed (`Errno`) together with the
// name of the call that failed. A fault-injection seam (`FaultInjector`) lets
// tests make a named call fail with any errno, write short, or report EINTR.

import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("The Ledger module needs Glibc, Musl or Darwin")
#endif

/// The system calls the ledger makes, by name (used in errors and by the fault seam).
package enum SystemCall: String, Sendable, Hashable, CaseIterable {
    case open, pread, read, write, fsync, ftruncate, flock, fstat, lstat, stat, close, rename, unlink, mkdir, rmdir, readdir
    // A server's sockets (`System+Sockets.swift`).
    case socket, setsockopt, getaddrinfo, bind, listen, getsockname, accept, connect, recv, send, poll, shutdown, pipe, fcntl
    case getpeername
}

/// A failed system call: which call and its errno.
package struct SystemCallError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The name of the call, e.g. `fsync`.
    package var call: String   // not a format string: a C function name
    /// The error number it returned.
    package var errno: Errno

    /// Makes the error of `call` failing with `errno`.
    package init(call: String, errno: Errno) { self.call = call; self.errno = errno }

    package init(_ call: SystemCall, _ errno: Errno) { self.init(call: call.rawValue, errno: errno) }

    /// `fsync: Input/output error (EIO)`.
    package var description: String { "\(call): \(errno)" }
}

/// Makes named system calls misbehave, for tests.
///
/// A rule applies to one call name: it lets the next `skip` calls of that name
/// through (counted from when the rule is added), then injects its fault into
/// the following `times` calls. Thread-safe: a store's commit thread and its
/// fsync threads share one (the rules and counts are kept under a lock).
package final class FaultInjector: @unchecked Sendable {
    /// What to do to a call.
    package enum Fault: Sendable, Hashable {
        /// Fail with this errno (nothing is done).
        case fail(Errno)
        /// For `write`: write at most this many bytes in this call.
        case shortWrite(Int)
        /// Report EINTR once (nothing is done); the wrapper must retry.
        case interrupt
        /// Wait this many microseconds, then make the call (a disk of a known
        /// speed: `store-bench --fsync-delay-us` on a memory file system).
        case delay(Int)
    }

    private struct Rule {
        var call: SystemCall
        var fault: Fault
        /// The first attempt number (of this call) the rule applies to.
        var from: Int
        var remaining: Int
    }

    /// `@unchecked Sendable`: these three are read and written only while `lock` is held.
    private var rules: [Rule] = []
    private var injectedFaults: [(call: SystemCall, fault: Fault)] = []
    private var attemptCounts: [SystemCall: Int] = [:]
    private let lock = DispatchSemaphore(value: 1)
    /// Called, outside the lock, before each attempt of a call (tests: hold a call until they let it go).
    private var hooks: [SystemCall: @Sendable () -> Void] = [:]

    /// Makes an injector with no rules.
    package init() {}

    /// Every fault injected so far, in order.
    package var injected: [(call: SystemCall, fault: Fault)] { locked { injectedFaults } }
    /// How many times each call was attempted (injected faults included).
    package var attempts: [SystemCall: Int] { locked { attemptCounts } }

    /// Injects `fault` into `call` after letting the next `skip` calls through, `times` times.
    package func inject(_ fault: Fault, into call: SystemCall, after skip: Int = 0, times: Int = 1) {
        locked { rules.append(Rule(call: call, fault: fault, from: attemptCounts[call, default: 0] + skip + 1, remaining: times)) }
    }

    /// Runs `hook` before every attempt of `call` from now on (nil: no more), on the calling thread.
    package func before(_ call: SystemCall, _ hook: (@Sendable () -> Void)?) {
        locked { hooks[call] = hook }
    }

    /// Removes every rule.
    package func clear() { locked { rules.removeAll() } }

    /// How many faults were injected into `call`.
    package func injectedCount(_ call: SystemCall) -> Int { locked { injectedFaults.filter { $0.call == call }.count } }

    func next(_ call: SystemCall) -> Fault? {
        locked { hooks[call] }?()
        return locked {
            let n = attemptCounts[call, default: 0] + 1
            attemptCounts[call] = n
            for k in rules.indices where rules[k].call == call && rules[k].remaining > 0 && n >= rules[k].from {
                rules[k].remaining -= 1
                injectedFaults.append((call, rules[k].fault))
                return rules[k].fault
            }
            return nil
        }
    }

    private func locked<T>(_ body: () -> T) -> T {
        lock.wait()
        defer { lock.signal() }
        return body()
    }
}

/// What `fstat`/`lstat` tell the ledger about a file.
package struct FileStatus: Sendable, Hashable {
    /// What is at the path.
    package enum Kind: Sendable, Hashable { case regular, directory, symlink, other }
    /// What is at the path.
    package var kind: Kind
    var size: Int
    /// Permission bits (e.g. 0o600).
    package var permissions: UInt32
    var device: UInt64
    var inode: UInt64
    /// Whether the owner may write (the ledger respects a chmod even when run as root).
    var ownerWritable: Bool { permissions & 0o200 != 0 }
}

/// The system calls, with the fault seam. A value type holding an optional injector.
///
/// The one place the package calls C: the CLI's streams and folders go through it too.
package struct System {
    var faults: FaultInjector?

    /// The system calls, with `faults` injected when given (tests).
    package init(faults: FaultInjector? = nil) { self.faults = faults }

    // MARK: errno

    static func lastErrno() -> Errno {
        #if canImport(Darwin)
        return Errno(rawValue: Darwin.errno)
        #elseif canImport(Glibc)
        return Errno(rawValue: Glibc.errno)
        #else
        return Errno(rawValue: Musl.errno)
        #endif
    }

    /// The C library's text for an errno.
    package static func errorText(_ e: Errno) -> String {
        guard let p = strerror(e.rawValue) else { return "error \(e.rawValue)" }
        return String(cString: p)
    }

    /// Runs `body` (a call returning -1 on error), retrying EINTR, honouring the fault seam.
    ///
    /// The one place a call is retried: an injected `.interrupt` or a real EINTR
    /// runs `body` again; an injected `.fail` throws without running it; an
    /// injected `.shortWrite(n)` is handed to `shortWrite` (for `write`, to
    /// write at most `n` bytes) before `body` runs.
    @inline(__always)
    func retrying<T: BinaryInteger>(_ call: SystemCall, shortWrite: (Int) -> Void = { _ in },
                                            _ body: () -> T) throws(SystemCallError) -> T {
        while true {
            if let fault = faults?.next(call) {
                switch fault {
                case .fail(let e): throw SystemCallError(call, e)
                case .interrupt: continue
                case .shortWrite(let n): shortWrite(n)
                case .delay(let microseconds):
                    var wait = timespec(tv_sec: microseconds / 1_000_000, tv_nsec: (microseconds % 1_000_000) * 1000)
                    var left = timespec()
                    while nanosleep(&wait, &left) == -1, System.lastErrno() == .interrupted { wait = left }
                }
            }
            let r = body()
            if r == -1 {
                let e = System.lastErrno()
                if e == .interrupted { continue }
                throw SystemCallError(call, e)
            }
            return r
        }
    }

    // MARK: opening

    /// How to open a file.
    enum OpenMode {
        /// Read only, non-blocking (so a FIFO at the path never blocks the open: the
        /// caller's fstat then refuses it; reads of a regular file ignore the flag);
        /// follows symlinks (readers may read through a link).
        case read
        /// Read and append; never follows a symlink; creates nothing.
        case appendExisting
        /// Create a new file (0600) for read and append; fails with EEXIST if it exists; never follows a symlink.
        case appendCreateNew
        /// Create a new file (0600) for writing; fails with EEXIST if it exists; never follows a symlink.
        case writeCreateNew
        /// A directory, read only (to fsync it).
        case directory
    }

    func open(_ path: String, _ mode: OpenMode) throws(SystemCallError) -> CInt {
        var flags: CInt = O_CLOEXEC
        switch mode {
        case .read: flags |= O_RDONLY | O_NONBLOCK
        case .appendExisting: flags |= O_RDWR | O_APPEND | O_NOFOLLOW
        case .appendCreateNew: flags |= O_RDWR | O_APPEND | O_NOFOLLOW | O_CREAT | O_EXCL
        case .writeCreateNew: flags |= O_WRONLY | O_NOFOLLOW | O_CREAT | O_EXCL
        case .directory: flags |= O_RDONLY | O_DIRECTORY
        }
        let permissions = mode_t(0o600)
        return try retrying(.open) { path.withCString { cOpen($0, flags, permissions) } }
    }

    // MARK: reading and writing

    /// One `pread` into `buffer` at `offset`; returns the bytes read (0 at end of file).
    func pread(_ fd: CInt, into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(SystemCallError) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        return try retrying(.pread) { systemPread(fd, base, buffer.count, off_t(offset)) }
    }

    /// One `read` into `buffer` at the descriptor's position (a pipe, a terminal); returns the bytes read (0 at the end).
    func read(_ fd: CInt, into buffer: UnsafeMutableRawBufferPointer) throws(SystemCallError) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        return try retrying(.read) { systemRead(fd, base, buffer.count) }
    }

    /// Writes all of `bytes` (looping over short writes, retrying EINTR).
    ///
    /// On failure the error says how many bytes were written before it.
    package func writeAll(_ fd: CInt, _ bytes: UnsafeRawBufferPointer) throws(PartialWriteError) {
        guard let base = bytes.baseAddress else { return }
        var done = 0
        while done < bytes.count {
            var length = bytes.count - done
            let r: Int
            do {
                r = try retrying(.write, shortWrite: { length = min(length, max($0, 1)) }) { systemWrite(fd, base + done, length) }
            } catch {
                throw PartialWriteError(written: done, cause: error)
            }
            // A regular file never writes nothing; refuse to spin.
            guard r > 0 else { throw PartialWriteError(written: done, cause: SystemCallError(.write, .ioError)) }
            done += r
        }
    }

    /// Flushes the file's data and metadata to stable storage (`F_FULLFSYNC` on Apple platforms).
    package func fsync(_ fd: CInt) throws(SystemCallError) {
        _ = try retrying(.fsync) { systemFsync(fd) }
    }

    func ftruncate(_ fd: CInt, to size: Int) throws(SystemCallError) {
        _ = try retrying(.ftruncate) { systemFtruncate(fd, off_t(size)) }
    }

    // MARK: locking

    /// Takes the exclusive `flock` on `fd`, waiting for it.
    func lockExclusive(_ fd: CInt) throws(SystemCallError) {
        _ = try retrying(.flock) { systemFlock(fd, LOCK_EX) }
    }

    /// Releases the `flock` on `fd`.
    func unlock(_ fd: CInt) throws(SystemCallError) {
        _ = try retrying(.flock) { systemFlock(fd, LOCK_UN) }
    }

    // MARK: status

    func fstat(_ fd: CInt) throws(SystemCallError) -> FileStatus {
        var st = stat()
        _ = try retrying(.fstat) { systemFstat(fd, &st) }
        return FileStatus(st)
    }

    /// The status of `path` itself (a symlink is not followed).
    func lstat(_ path: String) throws(SystemCallError) -> FileStatus {
        var st = stat()
        _ = try retrying(.lstat) { path.withCString { systemLstat($0, &st) } }
        return FileStatus(st)
    }

    /// The status of what `path` names, a symbolic link followed (`stat(2)`).
    package func status(of path: String) throws(SystemCallError) -> FileStatus {
        var st = stat()
        _ = try retrying(.stat) { path.withCString { systemStat($0, &st) } }
        return FileStatus(st)
    }

    // MARK: names

    /// Renames `from` to `to` atomically, replacing `to` if it exists (`rename(2)`).
    func rename(_ from: String, to: String) throws(SystemCallError) {
        _ = try retrying(.rename) { from.withCString { f in to.withCString { t in systemRename(f, t) } } }
    }

    /// Removes the name `path` (`unlink(2)`).
    func unlink(_ path: String) throws(SystemCallError) {
        _ = try retrying(.unlink) { path.withCString { systemUnlink($0) } }
    }

    /// Removes the empty directory `path` (`rmdir(2)`).
    func rmdir(_ path: String) throws(SystemCallError) {
        _ = try retrying(.rmdir) { path.withCString { systemRmdir($0) } }
    }

    /// Makes the directory `path` (mode 0700, or `permissions` less the umask); EEXIST is the caller's to judge.
    package func mkdir(_ path: String, permissions: UInt32 = 0o700) throws(SystemCallError) {
        _ = try retrying(.mkdir) { path.withCString { systemMkdir($0, mode_t(permissions)) } }
    }

    /// The names in the directory `path`, without `.` and `..` (`opendir`,
    /// `readdir`, `closedir`; one `readdir` fault fails the whole listing).
    func listDirectory(_ path: String) throws(SystemCallError) -> [String] {
        if let fault = faults?.next(.readdir), case .fail(let e) = fault { throw SystemCallError(.readdir, e) }
        guard let dir = path.withCString({ systemOpendir($0) }) else { throw SystemCallError(.readdir, System.lastErrno()) }
        defer { systemClosedir(dir) }
        var names: [String] = []
        while let name = systemReaddirName(dir) {
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    // MARK: closing

    /// Closes `fd` once. Never retried: after EINTR the descriptor is gone on Linux.
    @discardableResult
    package func close(_ fd: CInt) -> SystemCallError? {
        if let fault = faults?.next(.close), case .fail(let e) = fault { _ = systemClose(fd); return SystemCallError(.close, e) }
        if systemClose(fd) == -1 { return SystemCallError(.close, System.lastErrno()) }
        return nil
    }

    // MARK: helpers that are C calls but not system calls

    /// The index of the first `byte` in `buffer[from...]`, or nil.
    @inline(__always)
    static func firstIndex(of byte: UInt8, in buffer: UnsafeRawBufferPointer, from: Int) -> Int? {
        guard let base = buffer.baseAddress, from < buffer.count else { return nil }
        guard let hit = memchr(base + from, CInt(byte), buffer.count - from) else { return nil }
        return UnsafeRawPointer(hit) - base
    }

    /// Seconds since 1970-01-01 UTC, for side-file names.
    static func now() -> Int { Int(time(nil)) }

    /// The process id, for side-file names and messages.
    static func processID() -> Int { Int(getpid()) }

    /// The processors online (at least 1), for work spread over all cores.
    static func processorCount() -> Int { max(1, Int(sysconf(CInt(_SC_NPROCESSORS_ONLN)))) }

    /// Whether `fd` is a terminal (`isatty`).
    package static func isTerminal(_ fd: CInt) -> Bool { isatty(fd) == 1 }

    /// The environment variable `name`, or nil when unset.
    package static func environment(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }

    /// Makes a write to a closed pipe fail with EPIPE instead of killing the process (SIGPIPE ignored).
    package static func ignoreBrokenPipe() { _ = signal(SIGPIPE, SIG_IGN) }

    /// Ends the process with `code`.
    package static func exit(_ code: Int32) -> Never { systemExit(code) }
}

/// A write that failed after `written` bytes.
package struct PartialWriteError: Error {
    /// The bytes written before the failure.
    package var written: Int
    /// The call that failed.
    package var cause: SystemCallError
}

extension FileStatus {
    fileprivate init(_ st: stat) {
        let format = UInt32(st.st_mode) & UInt32(S_IFMT)
        if format == UInt32(S_IFREG) { kind = .regular }
        else if format == UInt32(S_IFDIR) { kind = .directory }
        else if format == UInt32(S_IFLNK) { kind = .symlink }
        else { kind = .other }
        size = Int(st.st_size)
        permissions = UInt32(st.st_mode) & 0o7777
        device = UInt64(truncatingIfNeeded: st.st_dev)
        inode = UInt64(truncatingIfNeeded: st.st_ino)
    }
}

// The C functions under names that do not clash with System's methods (inside
// `System`, `fsync` would name the method). At file scope the unqualified names
// are the C library's: exactly one of Glibc, Musl and Darwin is imported above.
@inline(__always) private func cOpen(_ p: UnsafePointer<CChar>, _ flags: CInt, _ mode: mode_t) -> CInt { open(p, flags, mode) }
@inline(__always) private func systemPread(_ fd: CInt, _ p: UnsafeMutableRawPointer, _ n: Int, _ o: off_t) -> Int { pread(fd, p, n, o) }
@inline(__always) private func systemRead(_ fd: CInt, _ p: UnsafeMutableRawPointer, _ n: Int) -> Int { read(fd, p, n) }
@inline(__always) private func systemWrite(_ fd: CInt, _ p: UnsafeRawPointer, _ n: Int) -> Int { write(fd, p, n) }
@inline(__always) private func systemFtruncate(_ fd: CInt, _ size: off_t) -> CInt { ftruncate(fd, size) }
@inline(__always) private func systemFlock(_ fd: CInt, _ op: CInt) -> CInt { flock(fd, op) }
@inline(__always) private func systemFstat(_ fd: CInt, _ st: UnsafeMutablePointer<stat>) -> CInt { fstat(fd, st) }
@inline(__always) private func systemStat(_ p: UnsafePointer<CChar>, _ st: UnsafeMutablePointer<stat>) -> CInt { stat(p, st) }
@inline(__always) private func systemLstat(_ p: UnsafePointer<CChar>, _ st: UnsafeMutablePointer<stat>) -> CInt { lstat(p, st) }
@inline(__always) private func systemRename(_ from: UnsafePointer<CChar>, _ to: UnsafePointer<CChar>) -> CInt { rename(from, to) }
@inline(__always) private func systemUnlink(_ p: UnsafePointer<CChar>) -> CInt { unlink(p) }
@inline(__always) private func systemExit(_ code: Int32) -> Never { exit(code) }
@inline(__always) private func systemClose(_ fd: CInt) -> CInt { close(fd) }
@inline(__always) private func systemRmdir(_ p: UnsafePointer<CChar>) -> CInt { rmdir(p) }
@inline(__always) private func systemMkdir(_ p: UnsafePointer<CChar>, _ mode: mode_t) -> CInt { mkdir(p, mode) }
#if canImport(Darwin)
private typealias DirectoryStream = UnsafeMutablePointer<DIR>
#else
private typealias DirectoryStream = OpaquePointer
#endif
@inline(__always) private func systemOpendir(_ p: UnsafePointer<CChar>) -> DirectoryStream? { opendir(p) }
@inline(__always) private func systemClosedir(_ d: DirectoryStream) { _ = closedir(d) }
/// The next entry's name, or nil at the end (or on an error, which readdir does not tell apart cheaply).
private func systemReaddirName(_ d: DirectoryStream) -> String? {
    guard let entry = readdir(d) else { return nil }
    return withUnsafePointer(to: &entry.pointee.d_name) { p in
        p.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: entry.pointee.d_name)) { String(cString: $0) }
    }
}

/// `fsync`; on Apple platforms `fcntl(F_FULLFSYNC)` first (plain `fsync` there does
/// not flush the drive's cache), falling back to `fsync` where the file system
/// does not support it. An interrupted `F_FULLFSYNC` returns -1 with EINTR: retried.
@inline(__always) private func systemFsync(_ fd: CInt) -> CInt {
    #if canImport(Darwin)
    let r = fcntl(fd, F_FULLFSYNC)
    if r != -1 || errno == EINTR { return r }
    #endif
    return fsync(fd)
}
