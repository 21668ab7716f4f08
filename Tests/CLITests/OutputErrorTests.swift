import Foundation
import Testing

/// Output that cannot be written (a closed stdout, a pipe nobody reads, a
/// full disk) is an error: exit 1 and a message on stderr, never dropped.
@Suite("output errors")
struct OutputErrorTests {
    /// Runs the tool with `arguments` and stdout as the shell redirection `redirect` sets it.
    static func run(_ arguments: [String], stdout redirect: String) throws -> CLIResult {
        try CLI.runTool(URL(fileURLWithPath: "/bin/sh"),
                        ["-c", "exec \"$0\" \"$@\" \(redirect)", CLI.tool.path] + arguments)
    }

    static func demoLog(_ dir: TemporaryDirectory) throws -> String {
        try LogFixture.demo(in: dir, users: 3, days: 4)
    }

    @Test("a closed stdout (>&-) and a full one (/dev/full): exit 1, saying why",
          arguments: [(">&-", "Bad file descriptor"), ("> /dev/full", "No space left on device")])
    func closedOrFull(redirect: String, why: String) throws {
        let dir = try TemporaryDirectory()
        let log = try Self.demoLog(dir)
        for args in [["report", log, "--format", "json"], ["state", log, "--user", "u-001", "--json"], ["verify", log]] {
            let r = try Self.run(args, stdout: redirect)
            #expect(r.status == 1, "\(args): \(r.stderr)")
            #expect(r.stderr.hasSuffix("progress-ledger \(args[0]): the output could not be written to stdout: \(why)\n"), "\(r.stderr)")
        }
        // The same commands with a working stdout exit 0.
        #expect(try CLI.run(["verify", log]).status == 0)
    }

    @Test("a pipe whose reader has gone: exit 0 and nothing on stderr (EPIPE), not killed by SIGPIPE")
    func brokenPipe() throws {
        let dir = try TemporaryDirectory()
        let log = try Self.demoLog(dir)
        let pipe = Pipe()
        try pipe.fileHandleForReading.close()
        let process = Process()
        process.executableURL = CLI.tool
        process.arguments = ["report", log, "--format", "json"]
        process.standardOutput = pipe.fileHandleForWriting
        let errURL = dir.url.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let err = try FileHandle(forWritingTo: errURL)
        process.standardError = err
        try process.run()
        process.waitUntilExit()
        try err.close()
        let stderr = String(decoding: try Data(contentsOf: errURL), as: UTF8.self)
        #expect(process.terminationReason == .exit && process.terminationStatus == 0, "\(stderr)")
        #expect(stderr == "")
    }

    @Test("export LOG | head -4 and report | head -1 in a shell with pipefail: every part exits 0, four lines, nothing on stderr")
    func headStopsQuietly() throws {
        let dir = try TemporaryDirectory()
        // Output well past a pipe's 64 KiB, so the reader is gone before the tool is done.
        let log = try LogFixture.demo(in: dir, users: 30, days: 14)
        #expect(try CLI.run(["export", log]).stdoutBytes.count > 1 << 19)
        for (args, lines) in [("export '\(log)' --format revlog", 4), ("export '\(log)'", 4), ("report '\(log)' --format csv", 1)] {
            let r = try CLI.runTool(URL(fileURLWithPath: "/bin/bash"), ["-c", "set -o pipefail; '\(CLI.tool.path)' \(args) | head -\(lines)"])
            #expect(r.status == 0, "\(args): \(r.stderr)")
            #expect(r.stderr == "", "\(args): \(r.stderr)")
            #expect(r.stdout.split(separator: "\n").count == lines)
        }
    }

    @Test("--out on a full device or where no file can be written: exit 1 with the file's name")
    func outFile() throws {
        let dir = try TemporaryDirectory()
        let log = try Self.demoLog(dir)
        let full = try CLI.run(["report", log, "--format", "html", "--out", "/dev/full"])
        #expect(full.status == 1 && full.stderr.hasPrefix("progress-ledger report: /dev/full: "), "\(full.stderr)")
        let missing = dir.path("no-such-folder/report.html")
        let r = try CLI.run(["report", log, "--format", "html", "--out", missing])
        #expect(r.status == 1 && r.stderr.hasPrefix("progress-ledger report: \(missing): "), "\(r.stderr)")
    }
}
