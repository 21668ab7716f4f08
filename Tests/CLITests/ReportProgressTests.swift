import Foundation
import Testing

/// Progress on stderr while reading a log: shown only when stderr is a
/// terminal (a pseudo-terminal made by Python's `pty` here), never with
/// `--quiet`, never when stderr is a file.
@Suite("report and audit: progress on a terminal only")
struct ReportProgressTests {
    /// Runs the tool with stdin, stdout and stderr on a new pseudo-terminal; prints what it wrote.
    static let underTerminal = #"""
import os, pty, sys
pid, fd = pty.fork()
if pid == 0:
    os.environ["PROGRESS_LEDGER_PROGRESS_AFTER_MS"] = "0"
    os.execv(sys.argv[1], sys.argv[1:])
out = b""
while True:
    try:
        chunk = os.read(fd, 65536)
    except OSError:
        break
    if not chunk:
        break
    out += chunk
_, status = os.waitpid(pid, 0)
sys.stdout.write(out.decode("utf-8", "replace"))
sys.exit(os.waitstatus_to_exitcode(status))
"""#

    @Test("on a terminal: bytes, percent and rate; with --quiet: nothing", arguments: ["report", "audit"])
    func terminal(_ command: String) throws {
        let dir = try TemporaryDirectory()
        let log = try LogFixture.demo(in: dir, users: 10, days: 8)
        let args = command == "report" ? ["report", log, "--format", "json", "--out", dir.path("r.json")]
                                        : ["audit", log, "--user", "u-002", "--json"]
        let shown = try CLI.python(Self.underTerminal, [CLI.tool.path] + args)
        #expect(shown.status == 0, "\(shown.stdout)")
        #expect(shown.stdout.contains("reading \(log): "), "\(shown.stdout.suffix(300))")
        #expect(shown.stdout.contains(" MB of "))
        #expect(shown.stdout.contains("%), "))
        #expect(shown.stdout.contains(" MB/s"))
        let quiet = try CLI.python(Self.underTerminal, [CLI.tool.path] + args + ["--quiet"])
        #expect(quiet.status == 0)
        #expect(!quiet.stdout.contains("reading \(log): "))
        #expect(!quiet.stdout.contains(" MB/s"))
    }

    @Test("stderr not a terminal: nothing on stderr")
    func notTerminal() throws {
        let dir = try TemporaryDirectory()
        let log = try LogFixture.demo(in: dir, users: 10, days: 8)
        let r = try CLI.run(["report", log, "--format", "csv"], environment: ["PROGRESS_LEDGER_PROGRESS_AFTER_MS": "0"])
        #expect(r.status == 0)
        #expect(r.stderr.isEmpty, "\(r.stderr)")
        #expect(r.stdout.hasPrefix("day,active_users,"))
    }
}
