import Events
import Foundation
import Ledger
import Testing

/// Logs for the report, audit and demo tests, written through the real ledger
/// writer into temporary directories.
enum LogFixture {
    /// Appends events given as append-input JSON lines (one event each) to the log at `path` (created if missing).
    static func append(_ lines: [String], to path: String) throws {
        let writer = try LedgerWriter(path: path)
        defer { writer.close() }
        let events = try lines.map { line in try LineCodec.decodeNewEvent(Array(line.utf8)) }
        try writer.append(events)
    }

    /// Writes a new log at `path` holding the events of `lines`.
    static func write(_ lines: [String], to path: String) throws {
        try? FileManager.default.removeItem(atPath: path)
        try append(lines, to: path)
    }

    /// Runs `progress-ledger demo` into `dir/name` and returns the log's path.
    static func demo(in dir: TemporaryDirectory, users: Int, days: Int, seed: Int = 42,
                     name: String = "demo") throws -> String {
        let out = dir.path(name)
        let r = try CLI.run(["demo", "--users", "\(users)", "--days", "\(days)", "--seed", "\(seed)", "--out", out, "--quiet"])
        try #require(r.status == 0, "demo failed: \(r.stderr)")
        return out + "/demo.log"
    }

    /// One append-input line: `{"id","at","user","type","data"}`.
    static func event(_ id: String, _ at: String, _ user: String, _ type: String, _ data: String) -> String {
        #"{"id":"\#(id)","at":"\#(at)","user":"\#(user)","type":"\#(type)","data":\#(data)}"#
    }
}

/// A headless Chromium, for the tests that look at the HTML report in a real browser.
enum Browser {
    /// The browser's path, if one is installed.
    static let path: String? = {
        let names = ["chromium", "chromium-browser", "google-chrome"]
        let dirs = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":").map(String.init)
        for name in names {
            for dir in dirs + ["/usr/bin"] where FileManager.default.isExecutableFile(atPath: dir + "/" + name) {
                return dir + "/" + name
            }
        }
        return nil
    }()

    /// Whether this is a CI run (`CI` set): a missing browser is then a failure, not a skip.
    static let isCI = ProcessInfo.processInfo.environment["CI"].map { !$0.isEmpty && $0 != "0" && $0 != "false" } ?? false

    /// Runs the browser headless with `arguments` and the page's URL.
    static func run(_ arguments: [String], page: String) throws -> CLIResult {
        guard let path else {
            Issue.record("chromium is not installed: CI installs it with 'apt-get install -y chromium' (see .ci/run)")
            return CLIResult(status: -1, stdout: "", stderr: "", stdoutBytes: [])
        }
        let home = try TemporaryDirectory()
        return try CLI.runTool(URL(fileURLWithPath: path),
                               ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                                "--user-data-dir=\(home.url.path)"] + arguments + ["file://" + page],
                               environment: ["HOME": home.url.path])
    }
}
