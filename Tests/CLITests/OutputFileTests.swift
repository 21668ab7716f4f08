import Foundation
import Testing

/// The files the CLI writes besides the log: `report --out FILE` and the demo's
/// report.html. They hold learners' activity, so they are 0600 like the log,
/// whatever the umask; they are written whole through a temporary file renamed
/// over the target; a symlink, a directory, a log or a read-only file at the
/// target is refused and left as it was.
@Suite("output files: mode 0600, written whole by rename, never through a link or over a log")
struct OutputFileTests {
    /// Runs `progress-ledger` under `umask 022` (what most shells have), so a
    /// file created with the process umask would come out 0644.
    static func runUnderUmask022(_ arguments: [String], in directory: URL? = nil) throws -> CLIResult {
        try CLI.runTool(URL(fileURLWithPath: "/bin/sh"),
                        ["-c", #"umask 022 && exec "$0" "$@""#, CLI.tool.path] + arguments, in: directory)
    }

    static func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return try #require(attributes[.posixPermissions] as? Int)
    }

    /// A small log and the report `report --format F` prints for it on stdout.
    static func logAndReport(_ dir: TemporaryDirectory, format: String = "json") throws -> (log: String, report: [UInt8]) {
        let log = dir.path("l.log")
        try LogFixture.write(ReportTests.midnightLog, to: log)
        let printed = try CLI.run(["report", log, "--format", format])
        try #require(printed.status == 0, "\(printed.stderr)")
        return (log, printed.stdoutBytes)
    }

    /// The names in `dir` (to show no temporary file is left behind).
    static func names(_ dir: TemporaryDirectory) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir.url.path).sorted()
    }

    @Test("report --out writes exactly what stdout shows, mode 0600 under umask 022", arguments: ["json", "csv", "text", "html"])
    func reportOut(format: String) throws {
        let dir = try TemporaryDirectory()
        let (log, report) = try Self.logAndReport(dir, format: format)
        let out = dir.path("r.\(format)")
        let r = try Self.runUnderUmask022(["report", log, "--format", format, "--out", out])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.isEmpty)
        #expect(dir.bytes("r.\(format)") == report)
        #expect(try Self.mode(out) == 0o600)
        #expect(try Self.names(dir) == ["l.log", "r.\(format)"])
    }

    @Test("demo writes demo.log and report.html 0600 under umask 022")
    func demoFiles() throws {
        let dir = try TemporaryDirectory()
        let r = try Self.runUnderUmask022(["demo", "--users", "3", "--days", "2", "--out", dir.path("d"), "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try Self.mode(dir.path("d/demo.log")) == 0o600)
        #expect(try Self.mode(dir.path("d/report.html")) == 0o600)
        let page = try CLI.run(["report", dir.path("d/demo.log"), "--format", "html"])
        #expect(dir.bytes("d/report.html") == page.stdoutBytes)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path("d")).sorted() == ["demo.log", "report.html", "sync"])
        for name in try FileManager.default.contentsOfDirectory(atPath: dir.path("d/sync")) {
            #expect(try Self.mode(dir.path("d/sync/" + name)) == 0o600, "\(name)")
        }
    }

    @Test("an existing 0644 file is replaced by a new 0600 file (renamed over it, so a hard link keeps the old bytes)")
    func replacesByRename() throws {
        let dir = try TemporaryDirectory()
        let (log, report) = try Self.logAndReport(dir)
        let out = dir.path("r.json")
        let old = Array("an older report\n".utf8)
        try Data(old).write(to: URL(fileURLWithPath: out))
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: out)
        try FileManager.default.linkItem(atPath: out, toPath: dir.path("kept.json"))
        let r = try CLI.run(["report", log, "--format", "json", "--out", out])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(dir.bytes("r.json") == report)
        #expect(try Self.mode(out) == 0o600)
        // Written in place, the other name would show the new bytes too.
        #expect(dir.bytes("kept.json") == old)
        #expect(try Self.mode(dir.path("kept.json")) == 0o644)
    }

    @Test("a symlink at --out is refused and neither it nor its target changes; a dangling one too")
    func symlinkRefused() throws {
        let dir = try TemporaryDirectory()
        let (log, _) = try Self.logAndReport(dir)
        let target = dir.path("precious.txt")
        try Data("keep me\n".utf8).write(to: URL(fileURLWithPath: target))
        try FileManager.default.createSymbolicLink(atPath: dir.path("link.json"), withDestinationPath: target)
        try FileManager.default.createSymbolicLink(atPath: dir.path("dangling.json"), withDestinationPath: dir.path("nowhere.json"))
        for name in ["link.json", "dangling.json"] {
            let r = try CLI.run(["report", log, "--format", "json", "--out", dir.path(name)])
            #expect(r.status == 1)
            #expect(r.stderr == "progress-ledger report: \(dir.path(name)): symlink: is a symbolic link; an output file is never written through a link (give the real path)\n")
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: dir.path(name)).hasSuffix(name == "link.json" ? "precious.txt" : "nowhere.json"))
        }
        #expect(dir.bytes("precious.txt") == Array("keep me\n".utf8))
        #expect(try Self.names(dir) == ["dangling.json", "l.log", "link.json", "precious.txt"])
    }

    @Test("--out naming the input log is refused and the log is left byte for byte")
    func logRefused() throws {
        let dir = try TemporaryDirectory()
        let (log, _) = try Self.logAndReport(dir)
        let before = dir.bytes("l.log")
        let r = try CLI.run(["report", log, "--format", "json", "--out", log])
        #expect(r.status == 1)
        #expect(r.stderr == "progress-ledger report: \(log): permission: holds ledger events (it starts like a log line), so it is not replaced (give another file name)\n")
        #expect(dir.bytes("l.log") == before)
        #expect(try Self.mode(log) == 0o600)
        #expect(try Self.names(dir) == ["l.log"])
    }

    @Test("a read-only file, a directory, or a missing folder at --out: exit 1, a message naming the path, nothing written")
    func otherRefusals() throws {
        let dir = try TemporaryDirectory()
        let (log, _) = try Self.logAndReport(dir)
        let readOnly = dir.path("ro.json")
        try Data("old\n".utf8).write(to: URL(fileURLWithPath: readOnly))
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: readOnly)
        try FileManager.default.createDirectory(atPath: dir.path("folder"), withIntermediateDirectories: false)

        let ro = try CLI.run(["report", log, "--format", "json", "--out", readOnly])
        #expect(ro.status == 1)
        #expect(ro.stderr == "progress-ledger report: \(readOnly): permission: is read-only (its mode has no owner-write bit), so it is not replaced\n")
        #expect(dir.bytes("ro.json") == Array("old\n".utf8))

        let folder = try CLI.run(["report", log, "--format", "json", "--out", dir.path("folder")])
        #expect(folder.status == 1)
        #expect(folder.stderr == "progress-ledger report: \(dir.path("folder")): is_directory: is a directory, not a file\n")

        let missing = dir.path("no-such-folder/r.json")
        let r = try CLI.run(["report", log, "--format", "json", "--out", missing])
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("progress-ledger report: \(missing): not_found: creating the new output file beside it (\(missing).tmp-"))
        #expect(r.stderr.hasSuffix("failed: open: No such file or directory (ENOENT)\n"))
        #expect(try Self.names(dir) == ["folder", "l.log", "ro.json"])
    }
}
