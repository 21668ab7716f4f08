import Foundation
import Testing

@Suite("docs/cli.md says what the tool says")
struct CLIDocTests {
    static let commands: [String] = {
        guard let r = try? CLI.run(["--help"]) else { return [] }
        var inList = false
        var names: [String] = []
        for line in r.stdout.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("Commands:") { inList = true; continue }
            if inList, line.hasPrefix("  "), let name = line.split(separator: " ").first { names.append(String(name)) }
            if inList, line.isEmpty, !names.isEmpty { break }
        }
        return names
    }()

    @Test("the tool lists its commands")
    func listed() {
        #expect(Self.commands.contains("append") && Self.commands.contains("verify") && Self.commands.contains("state"))
    }

    @Test("each command's --help is in docs/cli.md word for word (run scripts/make-cli-doc)", arguments: commands)
    func helpIsDocumented(_ command: String) throws {
        let doc = try String(contentsOf: CLI.packageRoot.appendingPathComponent("docs/cli.md"), encoding: .utf8)
        let help = try CLI.run([command, "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.hasPrefix("Usage: progress-ledger \(command)"))
        #expect(doc.contains("## \(command)\n\n```\n" + help.stdout + "```"), "docs/cli.md is stale for \(command)")
    }
}
