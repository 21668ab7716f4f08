import Foundation
import Testing

/// The README's install step: `scripts/install` puts `progress-ledger` in
/// PREFIX/bin, and with that on PATH the README's commands run as written.
@Suite("scripts/install")
struct InstallTests {
    @Test("installed into a temporary prefix and found on PATH: --version, and the README's command-line example prints what the README shows")
    func installThenRunTheReadme() throws {
        let dir = try TemporaryDirectory()
        let prefix = dir.path("prefix")
        // --from: the binary this test run built (a build inside `swift test` would wait for its lock on .build).
        let install = try CLI.runTool(CLI.packageRoot.appendingPathComponent("scripts/install"),
                                      ["--prefix", prefix, "--from", CLI.productsDirectory.path])
        #expect(install.status == 0, "\(install.stderr)")
        #expect(install.stdout.contains("installed \(prefix)/bin/progress-ledger"))
        #expect(install.stdout.contains("add it to your PATH"))
        let path = "\(prefix)/bin:/usr/bin:/bin"
        let shell = URL(fileURLWithPath: "/bin/sh")

        let version = try CLI.runTool(shell, ["-c", "command -v progress-ledger && progress-ledger --version"], environment: ["PATH": path])
        #expect(version.status == 0, "\(version.stderr)")
        #expect(version.stdout.hasPrefix("\(prefix)/bin/progress-ledger\n"))
        #expect(version.stdout == "\(prefix)/bin/progress-ledger\n" + (try CLI.run(["--version"]).stdout))

        // The README's "A short example" block, as written, in a folder of its own.
        let readme = try String(contentsOf: CLI.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex(of: "cat > events.jsonl <<'JSON'"))
        let script = lines[start...].prefix { $0 != "```" }.joined(separator: "\n") + "\n"
        #expect(script.contains("\nprogress-ledger state learner.log --user u-42\n"))
        let work = dir.url.appendingPathComponent("work")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let run = try CLI.runTool(shell, ["-e", "-c", script], environment: ["PATH": path], in: work)
        #expect(run.status == 0, "\(run.stderr)")
        let shown = try #require(lines.firstIndex { $0.hasSuffix("`state` prints what the app shows:") })
        let open = try #require(lines[shown...].firstIndex(of: "```"))
        let expected = lines[(open + 1)...].prefix { $0 != "```" }.joined(separator: "\n") + "\n"
        #expect(run.stdout.hasSuffix(expected), "\(run.stdout)")
        #expect(run.stdout.hasPrefix("1 e-1\n2 e-2\n3 e-3\n4 e-4\n"), "\(run.stdout)")
    }
}
