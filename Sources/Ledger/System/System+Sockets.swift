// A server's TCP sockets, through the same seam as the files: EINTR retried,
// errno typed with the call's name, the fault injector consulted. Sockets are
// non-blocking: a call that would block returns nil or 0 instead of waiting,
// and the caller polls (`System.poll`).

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A TCP endpoint as text: `127.0.0.1:8080`, `[::1]:8080`.
package struct SocketAddress: Sendable, Hashable, CustomStringConvertible {
    /// The numeric host (no brackets).
    package var host: String   // not a format string: an address
    /// The port.
    package var port: Int

    /// Makes an address.
    package init(host: String, port: Int) { self.host = host; self.port = port }

    /// `HOST:PORT`, an IPv6 host in brackets.
    package var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

/// One descriptor of a `poll`: what is asked and what came back.
package struct PollEntry: Sendable {
    /// The descriptor.
    package var fd: CInt
    /// Wake when it can be read (or a connection accepted).
    package var read: Bool
    /// Wake when it can be written.
    package var write: Bool
    /// After the poll: it can be read (or the peer closed; a read then says so).
    package var readable = false
    /// After the poll: it can be written.
    package var writable = false
    /// After the poll: an error or a hang-up (a read or write then says which).
    package var failed = false

    /// Asks about `fd`.
    package init(fd: CInt, read: Bool, write: Bool) { self.fd = fd; self.read = read; self.write = write }
}

extension System {
    /// A listening TCP socket on `host`:`port` (port 0: a free one), non-blocking,
    /// with `SO_REUSEADDR`; returns it and the address it is bound to.
    /// `host` is numeric (`127.0.0.1`, `::1`, `0.0.0.0`) or a name resolved
    /// with `getaddrinfo`; the first address that binds is taken.
    package func listen(host: String, port: Int, backlog: Int = 1024) throws(SystemCallError) -> (fd: CInt, address: SocketAddress) {
        var failure = SystemCallError(.bind, .invalidArgument)
        for candidate in try addresses(host: host, port: port, passive: true) {
            let fd: CInt
            do throws(SystemCallError) { fd = try socket(family: candidate.family) } catch { failure = error; continue }
            do throws(SystemCallError) {
                try setOption(fd, SOL_SOCKET, SO_REUSEADDR, 1)
                _ = try candidate.storage.withSockaddr { (address, length) throws(SystemCallError) in
                    try retrying(.bind) { systemBind(fd, address, length) }
                }
                _ = try retrying(.listen) { systemListen(fd, CInt(backlog)) }
                try setNonBlocking(fd)
                return (fd, try localAddress(fd))
            } catch {
                close(fd)
                failure = error
            }
        }
        throw failure
    }

    /// A blocking TCP connection to `host`:`port` with `TCP_NODELAY` (for
    /// clients, tests and benchmarks).
    package func connect(host: String, port: Int) throws(SystemCallError) -> CInt {
        var failure = SystemCallError(.connect, .invalidArgument)
        for candidate in try addresses(host: host, port: port, passive: false) {
            let fd: CInt
            do throws(SystemCallError) { fd = try socket(family: candidate.family) } catch { failure = error; continue }
            do throws(SystemCallError) {
                _ = try candidate.storage.withSockaddr { (address, length) throws(SystemCallError) in
                    try retrying(.connect) { systemConnect(fd, address, length) }
                }
                try setOption(fd, CInt(IPPROTO_TCP), TCP_NODELAY, 1)
                return fd
            } catch {
                close(fd)
                failure = error
            }
        }
        throw failure
    }

    /// Takes the next connection waiting on the listening `fd`: non-blocking,
    /// `TCP_NODELAY`, close-on-exec; nil when none waits (or one was aborted
    /// before it was taken).
    package func accept(_ fd: CInt) throws(SystemCallError) -> CInt? {
        let client: CInt
        do {
            client = try retrying(.accept) { systemAccept(fd) }
        } catch where error.errno == .wouldBlock || error.errno == .connectionAborted {
            return nil
        }
        do {
            try setNonBlocking(client)
            try setOption(client, CInt(IPPROTO_TCP), TCP_NODELAY, 1)
            #if canImport(Darwin)
            try setOption(client, SOL_SOCKET, SO_NOSIGPIPE, 1)
            #endif
        } catch {
            close(client)
            throw error
        }
        return client
    }

    /// One `recv` into `buffer`: the bytes read, 0 when the peer has closed,
    /// nil when nothing is there yet (a non-blocking socket).
    package func receive(_ fd: CInt, into buffer: UnsafeMutableRawBufferPointer) throws(SystemCallError) -> Int? {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        do {
            return try retrying(.recv) { systemRecv(fd, base, buffer.count) }
        } catch where error.errno == .wouldBlock {
            return nil
        }
    }

    /// One `send` of `bytes` (never raising `SIGPIPE`): how many were sent, 0
    /// when the socket's buffer is full (a non-blocking socket; poll for writing).
    package func send(_ fd: CInt, _ bytes: UnsafeRawBufferPointer) throws(SystemCallError) -> Int {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return 0 }
        var length = bytes.count
        do {
            return try retrying(.send, shortWrite: { length = min(length, max($0, 1)) }) { systemSend(fd, base, length) }
        } catch where error.errno == .wouldBlock {
            return 0
        }
    }

    /// Sends all of `bytes` on a blocking socket (a client's).
    package func sendAll(_ fd: CInt, _ bytes: UnsafeRawBufferPointer) throws(SystemCallError) {
        var done = 0
        while done < bytes.count {
            let n = try send(fd, UnsafeRawBufferPointer(rebasing: bytes[done...]))
            if n == 0 { _ = try poll([PollEntry(fd: fd, read: false, write: true)], timeout: -1) }
            done += n
        }
    }

    /// Waits until one of `entries` is ready or `timeout` milliseconds passed
    /// (-1: no limit); returns the entries with their results.
    package func poll(_ entries: [PollEntry], timeout: Int) throws(SystemCallError) -> [PollEntry] {
        var fds = entries.map { e in
            pollfd(fd: e.fd, events: Int16((e.read ? POLLIN : 0) | (e.write ? POLLOUT : 0)), revents: 0)
        }
        let count = fds.count
        _ = try fds.withUnsafeMutableBufferPointer { buffer in
            Result { () throws(SystemCallError) in
                try retrying(.poll) { systemPoll(buffer.baseAddress, nfds_t(count), CInt(clamping: timeout)) }
            }
        }.get()
        var out = entries
        for k in out.indices {
            let r = Int32(fds[k].revents)
            out[k].readable = r & Int32(POLLIN) != 0 || r & Int32(POLLHUP) != 0
            out[k].writable = r & Int32(POLLOUT) != 0
            out[k].failed = r & (Int32(POLLERR) | Int32(POLLHUP) | Int32(POLLNVAL)) != 0
        }
        return out
    }

    /// Ends the sending side of a connection (`shutdown(SHUT_WR)`): the peer
    /// reads the end of the stream, and can still be read from.
    package func shutdownWrite(_ fd: CInt) {
        _ = try? retrying(.shutdown) { systemShutdown(fd, CInt(SHUT_WR)) }
    }

    /// A pipe, both ends non-blocking and close-on-exec: a thread wakes a
    /// `poll` by writing a byte to the second.
    package func makePipe() throws(SystemCallError) -> (read: CInt, write: CInt) {
        var fds: [CInt] = [-1, -1]
        _ = try fds.withUnsafeMutableBufferPointer { buffer in
            Result { () throws(SystemCallError) in try retrying(.pipe) { systemPipe(buffer.baseAddress) } }
        }.get()
        do {
            for fd in fds {
                try setNonBlocking(fd)
                _ = try retrying(.fcntl) { systemFcntl(fd, F_SETFD, FD_CLOEXEC) }
            }
        } catch {
            close(fds[0]); close(fds[1])
            throw error
        }
        return (fds[0], fds[1])
    }

    /// One `read` of a non-blocking descriptor (a pipe): the bytes read, 0 at
    /// its end, nil when nothing is there yet.
    package func readAvailable(_ fd: CInt, into buffer: UnsafeMutableRawBufferPointer) throws(SystemCallError) -> Int? {
        do { return try read(fd, into: buffer) } catch where error.errno == .wouldBlock { return nil }
    }

    /// Makes `fd` non-blocking (`O_NONBLOCK`) and close-on-exec.
    package func setNonBlocking(_ fd: CInt) throws(SystemCallError) {
        let flags = try retrying(.fcntl) { systemFcntl(fd, F_GETFL, 0) }
        _ = try retrying(.fcntl) { systemFcntl(fd, F_SETFL, flags | O_NONBLOCK) }
    }

    /// Makes a connected socket blocking again, with a limit of `seconds` on
    /// each receive and send (`SO_RCVTIMEO`, `SO_SNDTIMEO`; 0: none), for a
    /// client that reads and writes in turn.
    package func setBlocking(_ fd: CInt, timeout seconds: Int) throws(SystemCallError) {
        let flags = try retrying(.fcntl) { systemFcntl(fd, F_GETFL, 0) }
        _ = try retrying(.fcntl) { systemFcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
        var limit = timeval()
        limit.tv_sec = .init(seconds)
        for option in [SO_RCVTIMEO, SO_SNDTIMEO] {
            _ = try retrying(.setsockopt) { systemSetsockopt(fd, SOL_SOCKET, option, &limit, socklen_t(MemoryLayout<timeval>.size)) }
        }
    }

    /// Where a socket is bound (`getsockname`).
    package func localAddress(_ fd: CInt) throws(SystemCallError) -> SocketAddress {
        try socketAddress(fd, .getsockname) { systemGetsockname($0, $1, $2) }
    }

    /// Where a connected socket's peer is (`getpeername`).
    package func peerAddress(_ fd: CInt) throws(SystemCallError) -> SocketAddress {
        try socketAddress(fd, .getpeername) { systemGetpeername($0, $1, $2) }
    }

    /// The address `get` (`getsockname` or `getpeername`) tells of `fd`.
    private func socketAddress(_ fd: CInt, _ call: SystemCall,
                               _ get: (CInt, UnsafeMutablePointer<sockaddr>, UnsafeMutablePointer<socklen_t>) -> CInt) throws(SystemCallError) -> SocketAddress {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = try withUnsafeMutablePointer(to: &storage) { p in
            Result { () throws(SystemCallError) in
                try retrying(call) { p.withMemoryRebound(to: sockaddr.self, capacity: 1) { get(fd, $0, &length) } }
            }
        }.get()
        return SocketAddress(storage)
    }

    /// `text` as a numeric IPv4 or IPv6 address, written as peers' addresses
    /// are (`::1`, `2001:db8::1`, `192.0.2.7`); nil when it is not one.
    package static func numericAddress(_ text: String) -> String? {
        var buffer = [UInt8](repeating: 0, count: 16)
        var out = [CChar](repeating: 0, count: 64)
        for family in [AF_INET, AF_INET6] where text.withCString({ inet_pton(family, $0, &buffer) }) == 1 {
            guard inet_ntop(family, buffer, &out, socklen_t(out.count)) != nil else { return nil }
            return string(fromC: out)
        }
        return nil
    }

    // MARK: helpers

    private func socket(family: CInt) throws(SystemCallError) -> CInt {
        let fd = try retrying(.socket) { systemSocket(family, streamSocket, 0) }
        do { _ = try retrying(.fcntl) { systemFcntl(fd, F_SETFD, FD_CLOEXEC) } } catch {
            close(fd)
            throw error
        }
        return fd
    }

    private func setOption(_ fd: CInt, _ level: CInt, _ name: CInt, _ value: CInt) throws(SystemCallError) {
        var v = value
        _ = try retrying(.setsockopt) { systemSetsockopt(fd, level, name, &v, socklen_t(MemoryLayout<CInt>.size)) }
    }

    /// The addresses `getaddrinfo` gives for a TCP `host`:`port`.
    private func addresses(host: String, port: Int, passive: Bool) throws(SystemCallError) -> [ResolvedAddress] {
        if let fault = faults?.next(.getaddrinfo), case .fail(let e) = fault { throw SystemCallError(.getaddrinfo, e) }
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = streamSocket
        hints.ai_flags = AI_NUMERICSERV | (passive ? AI_PASSIVE : 0)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = host.withCString { h in String(port).withCString { p in getaddrinfo(h, p, &hints, &list) } }
        guard status == 0, let first = list else {
            // EAI_* codes are not errnos: say the name could not be used as an address.
            throw SystemCallError(.getaddrinfo, .invalidArgument)
        }
        defer { freeaddrinfo(first) }
        var out: [ResolvedAddress] = []
        var next: UnsafeMutablePointer<addrinfo>? = first
        while let entry = next {
            if let address = entry.pointee.ai_addr {
                var storage = sockaddr_storage()
                let length = Int(entry.pointee.ai_addrlen)
                withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: UnsafeRawBufferPointer(start: address, count: length)) }
                out.append(ResolvedAddress(family: entry.pointee.ai_family, storage: storage, length: socklen_t(length)))
            }
            next = entry.pointee.ai_next
        }
        return out
    }
}

/// One address `getaddrinfo` gave.
private struct ResolvedAddress {
    var family: CInt
    var storage: sockaddr_storage
    var length: socklen_t
}

extension sockaddr_storage {
    fileprivate func withSockaddr<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) throws(SystemCallError) -> T) throws(SystemCallError) -> T {
        var copy = self
        let length = socklen_t(Int(ss_family) == Int(AF_INET6) ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)
        return try withUnsafePointer(to: &copy) { p in
            Result { () throws(SystemCallError) in
                try p.withMemoryRebound(to: sockaddr.self, capacity: 1) { (s) throws(SystemCallError) in try body(s, length) }
            }
        }.get()
    }
}

extension SocketAddress {
    /// The numeric host and port of an IPv4 or IPv6 socket address.
    fileprivate init(_ storage: sockaddr_storage) {
        if Int(storage.ss_family) == Int(AF_INET6) {
            self.init(storage, as: sockaddr_in6.self, family: AF_INET6) { ($0.sin6_addr, $0.sin6_port) }
        } else {
            self.init(storage, as: sockaddr_in.self, family: AF_INET) { ($0.sin_addr, $0.sin_port) }
        }
    }

    /// The address in `storage` read as an `Address` of `family`: its host
    /// address (`parts`' first) as `inet_ntop` writes it, and its port.
    private init<Address, Host>(_ storage: sockaddr_storage, as type: Address.Type, family: Int32,
                                _ parts: (Address) -> (host: Host, port: in_port_t)) {
        var copy = storage
        let (host, port) = withUnsafePointer(to: &copy) { p in p.withMemoryRebound(to: type, capacity: 1) { parts($0.pointee) } }
        var text = [CChar](repeating: 0, count: 64)
        _ = withUnsafeBytes(of: host) { inet_ntop(family, $0.baseAddress, &text, socklen_t(text.count)) }
        self.init(host: System.string(fromC: text), port: Int(UInt16(bigEndian: port)))
    }
}

extension System {
    /// The text of a NUL-terminated C buffer.
    fileprivate static func string(fromC buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

#if canImport(Glibc)
private let streamSocket = CInt(SOCK_STREAM.rawValue)
#else
private let streamSocket = SOCK_STREAM
#endif

#if os(Linux)
private let noSignal = CInt(MSG_NOSIGNAL)
#else
private let noSignal: CInt = 0   // SO_NOSIGPIPE is set on each accepted socket instead
#endif

@inline(__always) private func systemSocket(_ family: CInt, _ type: CInt, _ proto: CInt) -> CInt { socket(family, type, proto) }
@inline(__always) private func systemBind(_ fd: CInt, _ a: UnsafePointer<sockaddr>, _ n: socklen_t) -> CInt { bind(fd, a, n) }
@inline(__always) private func systemConnect(_ fd: CInt, _ a: UnsafePointer<sockaddr>, _ n: socklen_t) -> CInt { connect(fd, a, n) }
@inline(__always) private func systemListen(_ fd: CInt, _ backlog: CInt) -> CInt { listen(fd, backlog) }
@inline(__always) private func systemAccept(_ fd: CInt) -> CInt { accept(fd, nil, nil) }
@inline(__always) private func systemRecv(_ fd: CInt, _ p: UnsafeMutableRawPointer, _ n: Int) -> Int { recv(fd, p, n, 0) }
@inline(__always) private func systemSend(_ fd: CInt, _ p: UnsafeRawPointer, _ n: Int) -> Int { send(fd, p, n, noSignal) }
@inline(__always) private func systemShutdown(_ fd: CInt, _ how: CInt) -> CInt { shutdown(fd, how) }
@inline(__always) private func systemPipe(_ fds: UnsafeMutablePointer<CInt>?) -> CInt { pipe(fds) }
@inline(__always) private func systemFcntl(_ fd: CInt, _ cmd: CInt, _ arg: CInt) -> CInt { fcntl(fd, cmd, arg) }
@inline(__always) private func systemPoll(_ fds: UnsafeMutablePointer<pollfd>?, _ n: nfds_t, _ timeout: CInt) -> CInt { poll(fds, n, timeout) }
@inline(__always) private func systemGetpeername(_ fd: CInt, _ a: UnsafeMutablePointer<sockaddr>, _ n: UnsafeMutablePointer<socklen_t>) -> CInt {
    getpeername(fd, a, n)
}
@inline(__always) private func systemGetsockname(_ fd: CInt, _ a: UnsafeMutablePointer<sockaddr>, _ n: UnsafeMutablePointer<socklen_t>) -> CInt {
    getsockname(fd, a, n)
}
@inline(__always) private func systemSetsockopt(_ fd: CInt, _ level: CInt, _ name: CInt, _ value: UnsafeRawPointer, _ n: socklen_t) -> CInt {
    setsockopt(fd, level, name, value, n)
}
