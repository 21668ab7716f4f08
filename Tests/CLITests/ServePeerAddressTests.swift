import Foundation
import Testing

/// The access line names the peer as the socket gave it: an IPv4 peer is
/// checked by the hostile-client suite; this checks an IPv6 one (`::1`),
/// read from the other kind of socket address (`System+Sockets.swift`).
@Suite("serve: an IPv6 peer in the access line")
struct ServePeerAddressTests {
    @Test("serve --listen [::1]:0 answers a client on ::1 and logs it as ::1")
    func ipv6Peer() throws {
        let dir = try TemporaryDirectory()
        try Data(String(repeating: "k", count: 40).utf8).write(to: URL(fileURLWithPath: dir.path("secret")))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: dir.path("secret"))
        let process = Process()
        process.executableURL = CLI.tool
        process.arguments = ["serve", dir.path("d"), "--listen", "[::1]:0", "--secret-file", dir.path("secret")]
        let out = Pipe(), err = Pipe()
        (process.standardOutput, process.standardError) = (out, err)
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        var first: [UInt8] = []
        while !first.contains(0x0A) {
            let data = out.fileHandleForReading.availableData
            if data.isEmpty { break }
            first += data
        }
        let line = String(decoding: first.prefix { $0 != 0x0A }, as: UTF8.self)
        // A machine without IPv6 loopback cannot take this test.
        try #require(line.hasPrefix("listening on [::1]:"), "serve did not listen on ::1: \(line)")
        let port = try #require(Int(line.dropFirst("listening on [::1]:".count)))

        let fd = socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
        #expect(fd >= 0)
        defer { close(fd) }
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_port = in_port_t(UInt16(port).bigEndian)
        address.sin6_addr = in6addr_loopback
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
        }
        #expect(connected == 0)
        let request = Array("GET /v1/nothing HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8)
        #expect(write(fd, request, request.count) == request.count)
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while case let n = read(fd, &buffer, buffer.count), n > 0 { answer += buffer[..<n] }
        #expect(String(decoding: answer, as: UTF8.self).hasPrefix("HTTP/1.1 404"))

        process.terminate()
        process.waitUntilExit()
        let log = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let access = log.split(separator: "\n").first { $0.contains("GET /v1/nothing") }
        #expect(access?.split(separator: " ").dropFirst().first == "::1", "\(log)")
    }
}
