import Foundation
import Testing

/// Runs a program under a small Python parent that forks and execs it, and
/// reports the child's exit, signal and peak RSS (wait4's ru_maxrss).
///
/// Spawning directly from the test process would not do: a child's maxrss
/// starts from its parent's high-water mark at exec. A fork of Python starts
/// from Python's (about 10 MiB), below the CLI's own, so what is measured is
/// the CLI's peak.
struct Measured {
    var status: Int32
    var signal: Int32
    var maxRSSMiB: Double
    var stdout: String
    var stderr: String

    static let script = #"""
    import os, sys
    out, err, prog = sys.argv[1], sys.argv[2], sys.argv[3:]
    pid = os.fork()
    if pid == 0:
        os.dup2(os.open("/dev/null", os.O_RDONLY), 0)
        os.dup2(os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), 1)
        os.dup2(os.open(err, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), 2)
        os.execv(prog[0], prog)
    _, status, usage = os.wait4(pid, 0)
    code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else -1
    sig = os.WTERMSIG(status) if os.WIFSIGNALED(status) else 0
    print(code, sig, usage.ru_maxrss)
    """#

    static func run(_ arguments: [String]) throws -> Measured {
        let dir = try TemporaryDirectory()
        let r = try CLI.python(script, [dir.path("out"), dir.path("err"), CLI.tool.path] + arguments)
        let fields = r.stdout.split(separator: " ").map { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -99 }
        guard r.status == 0, fields.count == 3 else {
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "measuring failed: \(r.stdout) \(r.stderr)"])
        }
        return Measured(status: fields[0], signal: fields[1], maxRSSMiB: Double(fields[2]) / 1024,
                        stdout: String(decoding: dir.bytes("out"), as: UTF8.self),
                        stderr: String(decoding: dir.bytes("err"), as: UTF8.self))
    }
}

/// Hostile logs through `progress-ledger verify`: each refused with the first
/// problem on stdout, exit 1, no crash, and a peak RSS within a fixed bound of
/// verify's on a small log.
@Suite("Hostile input: progress-ledger verify", .serialized)
struct HostileVerifyCommandTests {
    static let boundMiB = 32.0

    /// Writes hostile files with Python (sparse where it can be).
    static let maker = #"""
    import sys
    kind, path = sys.argv[1], sys.argv[2]
    first = sys.argv[3].encode() + b"\n"
    with open(path, "wb") as f:
        if kind == "huge":                         # a 2 GiB line (sparse) after a valid line
            f.write(first + b"{")
            f.seek(len(first) + (1 << 31))
            f.write(b"\n")
        elif kind == "deep-arrays":
            f.write(b"[" * 100000 + b"]" * 100000 + b"\n")
        elif kind == "deep-objects":
            f.write(b'{"a":' * 100000 + b"1" + b"}" * 100000 + b"\n")
        elif kind == "members":                    # one object of 10,000,000 distinct members
            f.write(b"{")
            for start in range(0, 10000000, 100000):
                f.write((("," if start else "") + ",".join('"m%d":0' % i for i in range(start, start + 100000))).encode())
            f.write(b"}\n")
        elif kind == "digits":                     # seq of 10,000 digits
            f.write(sys.argv[4].replace("SEQ", "1" + "0" * 9999).encode() + b"\n")
        elif kind == "blank":
            f.write(b"\n" * 1000000)
    """#

    static let firstLine = #"{"v":1,"seq":1,"id":"ok-1","at":"2025-10-21T10:00:00Z","user":"u-1","type":"hints.granted","data":{"amount":1,"reason":"grant"},"prev":"0000000000000000000000000000000000000000000000000000000000000000"}"#

    static let baselineMiB: Double = {
        guard let dir = try? TemporaryDirectory() else { return 0 }
        try? Data((firstLine + "\n").utf8).write(to: dir.url.appendingPathComponent("small.log"))
        return (try? Measured.run(["verify", dir.path("small.log")]))?.maxRSSMiB ?? 0
    }()

    @Test(arguments: [
        ("huge", "line 2: line_too_long: the line is 2147483648 bytes; at most 1048576 are allowed"),
        ("deep-arrays", "line 1: not_json: nested deeper than 128 levels (column 129)"),
        ("deep-objects", "line 1: not_json: nested deeper than 128 levels (column 641)"),
        ("members", "line 1: line_too_long: the line is 128888891 bytes; at most 1048576 are allowed"),
        ("digits", "line 1: invalid_envelope: seq: "),
        ("blank", "line 1: blank_line: the line is empty"),
    ])
    func refusedInBoundedMemory(kind: String, expected: String) throws {
        let dir = try TemporaryDirectory()
        let log = dir.path("\(kind).log")
        let digitsLine = Self.firstLine.replacingOccurrences(of: #""seq":1"#, with: #""seq":SEQ"#)
        let made = try CLI.python(Self.maker, [kind, log, Self.firstLine, digitsLine])
        #expect(made.status == 0, "\(made.stderr)")
        let r = try Measured.run(["verify", log])
        #expect(r.signal == 0, "verify was killed by signal \(r.signal)")
        #expect(r.status == 1)
        #expect(r.stdout.hasPrefix(log + ": " + expected), "\(r.stdout)")
        #expect(r.stdout.count < 400 + log.count, "the message should stay short: \(r.stdout.count) characters")
        #expect(r.stderr.isEmpty, "\(r.stderr)")
        let baseline = Self.baselineMiB
        #expect(baseline > 0)
        #expect(r.maxRSSMiB <= baseline + Self.boundMiB, "peak RSS \(r.maxRSSMiB) MiB; a small log: \(baseline) MiB")
        print("hostile verify: \(kind): exit \(r.status), peak RSS \(String(format: "%.1f", r.maxRSSMiB)) MiB "
              + "(a one-line log: \(String(format: "%.1f", baseline)) MiB): \(r.stdout.prefix(120).trimmingCharacters(in: .whitespacesAndNewlines))")
    }
}

/// Paths and permissions through the CLI: what append (the writer) and verify
/// do with a symlink, a directory, a missing directory, a FIFO, a read-only
/// file, an immutable file, a read-only file system and an unreadable file;
/// the modes of what the ledger creates; and that data never becomes a path.
@Suite("Safety through the CLI", .serialized)
struct SafetyCommandTests {
    static let event = #"{"id":"e-1","at":"2025-10-21T08:15:00+03:00","user":"u-1","type":"hints.granted","data":{"amount":3,"reason":"seed"}}"#

    /// Runs a shell command; returns whether it succeeded.
    @discardableResult
    static func sh(_ command: String) -> Bool {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", command]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return false }
        p.waitUntilExit()
        return p.terminationStatus == 0
    }

    static func mode(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    /// Whether this machine lets the tests make a file immutable (chattr +i: root with CAP_LINUX_IMMUTABLE, a file system that supports it).
    static let canChattr: Bool = {
        guard let dir = try? TemporaryDirectory() else { return false }
        let f = dir.path("probe")
        _ = FileManager.default.createFile(atPath: f, contents: Data("x".utf8))
        let ok = sh("chattr +i '\(f)' 2>/dev/null && ! ( echo y >> '\(f)' ) 2>/dev/null")
        sh("chattr -i '\(f)'")
        return ok
    }()

    /// Whether this machine lets the tests mount a read-only bind mount (root with CAP_SYS_ADMIN).
    static let canMountReadOnly: Bool = {
        guard let dir = try? TemporaryDirectory() else { return false }
        let d = dir.path("ro")
        try? FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
        let ok = sh("mount --bind '\(d)' '\(d)' && mount -o remount,ro,bind '\(d)' && ! touch '\(d)/x' 2>/dev/null")
        sh("umount '\(d)'")
        return ok
    }()

    /// Whether the tests run as root and can run the CLI as `nobody` (setpriv).
    static let canRunAsNobody: Bool = getuid() == 0 && sh("setpriv --reuid=65534 --regid=65534 --clear-groups true")

    @Test("data never becomes a path: ids, users, devices and data with ../ and / write only the log")
    func dataNeverBecomesAPath() throws {
        let dir = try TemporaryDirectory()
        let work = dir.url.appendingPathComponent("work")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let log = work.appendingPathComponent("a.log").path
        let hostile = [
            #"{"id":"..","at":"2025-10-21T08:15:00+03:00","user":"../../escape","device":"/tmp/escape","type":"quiz.started","data":{"attempt":"../a","quiz":"../../q","questions":1}}"#,
            #"{"id":"a:..:b","at":"2025-10-21T08:15:01+03:00","user":"~root/.ssh/x","device":"..\\..\\x","type":"hints.granted","data":{"amount":1,"reason":"seed"}}"#,
        ]
        let r = try CLI.run(["append", log], stdin: Array(hostile.joined(separator: "\n").utf8), in: work)
        #expect(r.status == 0, "\(r.stderr)")
        // A torn tail holding path-like bytes: its side file is named after the log only.
        try FileHandle(forWritingTo: URL(fileURLWithPath: log)).seekToEndAndWrite(#"{"user":"../../escape","id":"/etc/x"#)
        let again = try CLI.run(["append", log], input: Self.event)
        #expect(again.status == 0, "\(again.stderr)")
        let everything = FileManager.default.enumerator(atPath: dir.url.path)?.allObjects as? [String] ?? []
        let sides = everything.filter { $0.hasPrefix("work/a.log.torn-") }
        #expect(sides.count == 1)
        #expect(sides.allSatisfy { $0.range(of: #"^work/a\.log\.torn-3-[0-9]+$"#, options: .regularExpression) != nil }, "\(sides)")
        #expect(Set(everything) == Set(["work", "work/a.log"] + sides), "\(everything.sorted())")
        #expect(!FileManager.default.fileExists(atPath: "/tmp/escape"))
    }

    @Test("the log and its side files are created 0600, even under umask 000")
    func modes() throws {
        let dir = try TemporaryDirectory()
        let log = dir.path("a.log")
        let tool = CLI.tool.path
        #expect(Self.sh("umask 000 && echo '\(Self.event)' | '\(tool)' append '\(log)'"))
        #expect(Self.mode(log) == 0o600)
        try FileHandle(forWritingTo: URL(fileURLWithPath: log)).seekToEndAndWrite("{\"torn")
        #expect(Self.sh("umask 000 && '\(tool)' append '\(log)' --event '\(Self.event.replacingOccurrences(of: "e-1", with: "e-2"))'"))
        let sides = try FileManager.default.contentsOfDirectory(atPath: dir.url.path).filter { $0.hasPrefix("a.log.torn-") }
        #expect(sides.count == 1)
        for side in sides { #expect(Self.mode(dir.path(side)) == 0o600) }
    }

    @Test("a symlink: append refuses it (even dangling, creating nothing); verify reads through it")
    func symlink() throws {
        let dir = try TemporaryDirectory()
        let real = dir.path("real.log")
        #expect(try CLI.run(["append", real], input: Self.event).status == 0)
        let before = dir.bytes("real.log")
        let link = dir.path("link.log")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real)
        let a = try CLI.run(["append", link], input: Self.event.replacingOccurrences(of: "e-1", with: "e-2"))
        #expect(a.status == 1)
        #expect(a.stderr == "progress-ledger append: \(link): symlink: is a symbolic link; the ledger does not follow links (give the real path)\n")
        #expect(dir.bytes("real.log") == before)
        let v = try CLI.run(["verify", link])
        #expect(v.status == 0 && v.stdout.hasPrefix("\(link): ok: 1 event, head 1:"), "\(v.stdout)\(v.stderr)")

        let dangling = dir.path("dangling.log")
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: dir.path("nowhere.log"))
        let d = try CLI.run(["append", dangling], input: Self.event)
        #expect(d.status == 1 && d.stderr.contains("\(dangling): symlink: is a symbolic link"))
        #expect(!FileManager.default.fileExists(atPath: dir.path("nowhere.log")))
        let dv = try CLI.run(["verify", dangling])
        #expect(dv.status == 1 && dv.stderr.contains("\(dangling): not_found: the log does not exist"), "\(dv.stderr)")
    }

    @Test("a directory, a missing directory, a FIFO: clear errors from append and verify, nothing created")
    func notALogFile() throws {
        let dir = try TemporaryDirectory()
        let missing = dir.path("no/such/dir/a.log")
        let fifo = dir.path("pipe.log")
        #expect(Self.sh("mkfifo '\(fifo)'"))
        let cases: [(String, String, String)] = [
            (dir.url.path, "is_directory: is a directory, not a log file", "is_directory: is a directory, not a log file"),
            (missing, "not_found: cannot create the log: the directory \(dir.path("no/such/dir")) does not exist", "not_found: the log does not exist"),
            (fifo, "not_regular_file: is not a regular file (a FIFO, socket or device?)", "not_regular_file: is not a regular file (a FIFO, socket or device?)"),
        ]
        for (path, appendMessage, verifyMessage) in cases {
            let a = try CLI.run(["append", path], input: Self.event)
            #expect(a.status == 1)
            #expect(a.stderr.hasPrefix("progress-ledger append: \(path): \(appendMessage)"), "\(a.stderr)")
            let v = try CLI.run(["verify", path])
            #expect(v.status == 1 && v.stdout.isEmpty)
            #expect(v.stderr.hasPrefix("progress-ledger verify: \(path): \(verifyMessage)"), "\(v.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: dir.path("no")))
    }

    @Test("a read-only file (mode 0400): append refuses it even as root; verify reads it")
    func readOnlyMode() throws {
        let dir = try TemporaryDirectory()
        let log = dir.path("a.log")
        #expect(try CLI.run(["append", log], input: Self.event).status == 0)
        try FileManager.default.setAttributes([.posixPermissions: 0o400], ofItemAtPath: log)
        let before = dir.bytes("a.log")
        let a = try CLI.run(["append", log], input: Self.event.replacingOccurrences(of: "e-1", with: "e-2"))
        #expect(a.status == 1)
        #expect(a.stderr == "progress-ledger append: \(log): permission: is read-only (mode 400); the ledger will not append to it\n")
        #expect(dir.bytes("a.log") == before)
        #expect(try CLI.run(["verify", log]).status == 0)
    }

    @Test("an immutable file (chattr +i): append refuses it with the errno; verify reads it",
          .enabled(if: SafetyCommandTests.canChattr, "needs chattr +i (root with CAP_LINUX_IMMUTABLE)"))
    func immutable() throws {
        let dir = try TemporaryDirectory()
        let log = dir.path("a.log")
        #expect(try CLI.run(["append", log], input: Self.event).status == 0)
        #expect(Self.sh("chattr +i '\(log)'"))
        defer { Self.sh("chattr -i '\(log)'") }
        let before = dir.bytes("a.log")
        let a = try CLI.run(["append", log], input: Self.event.replacingOccurrences(of: "e-1", with: "e-2"))
        #expect(a.status == 1)
        #expect(a.stderr == "progress-ledger append: \(log): may not be written (permission denied) (open: Operation not permitted (EPERM))\n")
        #expect(dir.bytes("a.log") == before)
        #expect(try CLI.run(["verify", log]).status == 0)
    }

    @Test("a read-only file system: append refuses an existing log and a new one; verify reads",
          .enabled(if: SafetyCommandTests.canMountReadOnly, "needs mount --bind -o ro (root with CAP_SYS_ADMIN)"))
    func readOnlyFileSystem() throws {
        let dir = try TemporaryDirectory()
        let mountPoint = dir.path("ro")
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
        let log = dir.path("ro/a.log")
        #expect(try CLI.run(["append", log], input: Self.event).status == 0)
        #expect(Self.sh("mount --bind '\(mountPoint)' '\(mountPoint)' && mount -o remount,ro,bind '\(mountPoint)'"))
        defer { Self.sh("umount '\(mountPoint)'") }
        let a = try CLI.run(["append", log], input: Self.event.replacingOccurrences(of: "e-1", with: "e-2"))
        #expect(a.status == 1)
        #expect(a.stderr == "progress-ledger append: \(log): permission: is on a read-only file system (open: Read-only file system (EROFS))\n")
        let n = try CLI.run(["append", dir.path("ro/new.log")], input: Self.event)
        #expect(n.status == 1 && n.stderr.contains("read-only file system"), "\(n.stderr)")
        #expect(try CLI.run(["verify", log]).status == 0)
    }

    @Test("as an unprivileged user: a log it may not write or read, a directory it may not create in",
          .enabled(if: SafetyCommandTests.canRunAsNobody, "needs root and setpriv to run the CLI as nobody"))
    func unprivilegedUser() throws {
        let dir = try TemporaryDirectory()
        let tool = dir.path("progress-ledger")
        // Copied by a child process: a descriptor this process held open for
        // writing would be inherited by any process another test starts
        // meanwhile (a server lives on), and exec of the copy then fails
        // with ETXTBSY ("Text file busy").
        #expect(Self.sh("cp '\(CLI.tool.path)' '\(tool)'"))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir.url.path)
        let log = dir.path("a.log")
        #expect(try CLI.run(["append", log], input: Self.event).status == 0)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: log)
        let asNobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", tool]
        func run(_ args: [String]) throws -> CLIResult {
            try CLI.runTool(URL(fileURLWithPath: "/usr/bin/env"), asNobody + args, stdin: Array(Self.event.replacingOccurrences(of: "e-1", with: "e-9").utf8))
        }
        let a = try run(["append", log])
        #expect(a.status == 1)
        #expect(a.stderr == "progress-ledger append: \(log): may not be written (permission denied) (open: Permission denied (EACCES))\n")
        #expect(try run(["verify", log]).status == 0)  // 0644: readable
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: log)
        let v = try run(["verify", log])
        #expect(v.status == 1)
        #expect(v.stderr == "progress-ledger verify: \(log): permission: opening the log failed: open: Permission denied (EACCES)\n")
        let c = try run(["append", dir.path("new.log")])
        #expect(c.status == 1 && c.stderr.contains("permission denied"), "\(c.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.path("new.log")))
    }
}

extension FileHandle {
    func seekToEndAndWrite(_ text: String) throws {
        try seekToEnd()
        try write(contentsOf: Data(text.utf8))
        try close()
    }
}
