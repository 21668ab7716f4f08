import Foundation
import Testing
@testable import progress_ledger

/// The synopsis, the help's defaults and the values used when an option is
/// not given all come from each option's one declaration: these tests read
/// them back from `--help` as a person would and hold the tool to them.
@Suite("Synopses and defaults made from the option declarations")
struct OptionDefaultTests {
    static let commands = ProgressLedgerCLI.commands.map { $0.name }

    /// The help's synopsis (the `Usage:` lines) as one string.
    static func synopsis(_ help: String) -> String {
        help.split(separator: "\n", omittingEmptySubsequences: false).prefix { !$0.isEmpty }
            .joined(separator: " ").split(separator: " ").joined(separator: " ")
    }

    /// The default the options block states for `label` (`--days N` → `30`), if any.
    static func statedDefault(_ help: String, _ label: String) -> String? {
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(where: { $0.hasPrefix("  " + label + " ") }) else { return nil }
        var entry = lines[start]
        for line in lines[(start + 1)...] {
            if line.hasPrefix("  -") || line.isEmpty { break }
            entry += " " + line.trimmingCharacters(in: .whitespaces)
        }
        guard let range = entry.range(of: "(default ", options: .backwards), let end = entry[range.upperBound...].firstIndex(of: ")") else {
            return nil
        }
        return String(entry[range.upperBound..<end])
    }

    @Test("every option a command declares is named in its synopsis, and only those", arguments: commands)
    func synopsisNamesEveryOption(_ name: String) throws {
        let command = try #require(ProgressLedgerCLI.commands.first { $0.name == name })
        let usage = Self.synopsis(try CLI.run([name, "--help"]).stdout)
        #expect(usage.hasPrefix("Usage: progress-ledger \(name)"))
        for option in command.options {
            #expect(usage.contains(option.name + " ") || usage.contains(option.name + "]") || usage.hasSuffix(option.name),
                    "\(name)'s synopsis leaves out \(option.name): \(usage)")
        }
        // A required option is never shown as optional.
        for option in command.options where option.isRequired {
            #expect(!usage.contains("[" + option.name), "\(name): \(option.name) is required but bracketed: \(usage)")
            #expect(option.helpLine.hasSuffix("; required"))
        }
    }

    @Test("the synopsis lines fit in 80 columns", arguments: commands)
    func synopsisWraps(_ name: String) throws {
        let help = try CLI.run([name, "--help"]).stdout
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false).prefix { !$0.isEmpty }
        #expect(lines.allSatisfy { $0.count <= HelpText.width }, "\(lines)")
    }

    @Test("the synopsis shows a choice option's values and --json beside --format")
    func synopsisText() throws {
        let usage = Self.synopsis(try CLI.run(["leaderboard", "--help"]).stdout)
        #expect(usage.contains("--period week|month --on D [--by finished|percent|streak]"), "\(usage)")
        #expect(usage.contains("[--format text|json | --json]"), "\(usage)")
        let append = Self.synopsis(try CLI.run(["append", "--help"]).stdout)
        #expect(append == "Usage: progress-ledger append LOG|DIR [--event JSON]... [--no-sync]")
    }

    @Test("a form is made from declarations: required bare, others bracketed, a repeatable one with ..., --json joined to --format")
    func formFromDeclarations() {
        enum F: String, OutputFormat { case text, json }
        let output = OutputOptions<F>(help: "h", default: .text)
        let user = Common.learner("u").required
        let event = Option("--event", value: "JSON", help: "e", repeatable: true)
        let days = Option.integer("--days", help: "d", range: 1...9).defaulting(to: 3)
        let form = Form("LOG", options: [user, event, days] + output.options)
        #expect(Usage.text(form.items) == "LOG --user U [--event JSON]... [--days N] [--format text|json | --json] [--out FILE]")
        #expect(form.lines(width: 42, indent: 10) == ["LOG --user U [--event JSON]...", "  [--days N]",
                                                      "  [--format text|json | --json]", "  [--out FILE]"])
        #expect(days.helpLine == "d (default 3)" && user.helpLine == "u; required")
        #expect(Usage.text([.note("sat-attempts", [.option(days)]), .value(output.format, "json")]) == "(sat-attempts: --days N) --format json")
    }

    @Test("state and explain: giving an option its stated default prints what not giving it prints; another value changes it")
    func statedDefaultsAreTheDefaults() throws {
        let dir = try TemporaryDirectory()
        let demo = try CLI.run(["demo", "--users", "3", "--days", "35", "--seed", "5", "--out", dir.path("d"), "--quiet"])
        #expect(demo.status == 0, "\(demo.stderr)")
        let log = dir.path("d/demo.log")
        let user = try #require(demo.stdout.split(separator: "\n").first { $0.hasPrefix("$ progress-ledger state ") }?
            .split(separator: " ").last.map(String.init))
        let help = try CLI.run(["state", "--help"]).stdout
        let base = try CLI.run(["state", log, "--user", user, "--json"])
        #expect(base.status == 0)
        let changed = ["--days N": "3", "--retry-limit N": "0", "--streak-on M": "any", "--retention R": "0.7", "--budget N|all": "1"]
        for (label, other) in changed {
            let name = String(label.split(separator: " ")[0])
            let stated = try #require(Self.statedDefault(help, label), "state --help states no default for \(label)")
            let same = try CLI.run(["state", log, "--user", user, "--json", name, stated])
            #expect(same.status == 0 && same.stdout == base.stdout, "\(name) \(stated) is not the default: \(same.stderr)")
            let different = try CLI.run(["state", log, "--user", user, "--json", name, other])
            #expect(different.status == 0 && different.stdout != base.stdout, "\(name) \(other) changed nothing")
        }
        let explainHelp = try CLI.run(["explain", "--help"]).stdout
        #expect(Self.statedDefault(explainHelp, "--days N") == Self.statedDefault(help, "--days N"))
    }

    @Test("leaderboard --by and export --after: the stated default is the one used")
    func otherDefaults() throws {
        let dir = try TemporaryDirectory()
        let demo = try CLI.run(["demo", "--users", "4", "--days", "9", "--out", dir.path("d"), "--quiet"])
        #expect(demo.status == 0, "\(demo.stderr)")
        let log = dir.path("d/demo.log")
        let by = try #require(Self.statedDefault(try CLI.run(["leaderboard", "--help"]).stdout, "--by M"))
        let board = ["leaderboard", log, "--period", "month", "--on", "2025-10-10", "--json"]
        #expect(try CLI.run(board).stdout == CLI.run(board + ["--by", by]).stdout)
        let after = try #require(Self.statedDefault(try CLI.run(["export", "--help"]).stdout, "--after SEQ"))
        #expect(after.hasPrefix("0"))
        let export = try CLI.run(["export", log])
        #expect(export.status == 0 && !export.stdout.isEmpty)
        #expect(try CLI.run(["export", log, "--after", String(after.prefix { $0.isNumber })]).stdout == export.stdout)
    }

    @Test("every example in a command's help parses with the options the commands declare", arguments: commands)
    func examplesParse(_ name: String) throws {
        let command = try #require(ProgressLedgerCLI.commands.first { $0.name == name })
        // An example over several lines is one command line: `\` and a line that starts with a space continue it.
        let text = command.examples.replacingOccurrences(of: " \\\n", with: " ").replacingOccurrences(of: "\n ", with: " ")
        for line in text.split(separator: "\n") {
            for call in line.components(separatedBy: "progress-ledger ").dropFirst() {
                var words = call.split(separator: " ").map { $0.hasPrefix("'") && $0.hasSuffix("'") ? String($0.dropFirst().dropLast()) : String($0) }
                if let end = words.firstIndex(where: { $0 == "|" || $0 == ">" }) { words = Array(words[..<end]) }
                let sub = try #require(ProgressLedgerCLI.commands.first { $0.name == words.first }, "\(name): \(line)")
                #expect(throws: Never.self, "\(name): \(line)") { _ = try ParsedArguments(Array(words.dropFirst()), options: sub.options) }
            }
        }
    }

    @Test("the day range is one group: report, items and audit refuse --to before --from the same way, naming both")
    func dayRangeGroup() throws {
        for arguments in [["report", "x.log"], ["items", "x.log"], ["audit", "x.log", "--user", "u"]] {
            let r = try CLI.run(arguments + ["--from", "2025-10-05", "--to", "2025-10-01"])
            #expect(r.status == 64, "\(arguments)")
            #expect(r.stderr.contains("--to 2025-10-01 is before --from 2025-10-05"), "\(arguments): \(r.stderr)")
            let bad = try CLI.run(arguments + ["--from", "2025-02-30"])
            #expect(bad.status == 64 && bad.stderr.contains("--from takes a date YYYY-MM-DD that exists (got '2025-02-30')"), "\(bad.stderr)")
        }
    }

    @Test("a required option left out is a usage error naming it, exit 64")
    func requiredOptions() throws {
        let cases: [([String], String)] = [
            (["state", "x.log"], "missing --user U"),
            (["leaderboard", "x.log", "--on", "2025-10-01"], "missing --period P"),
            (["keygen", "name"], "missing --out KEYFILE"),
            (["pending", "outbox.log"], "missing --replica REPLICA"),
        ]
        for (arguments, message) in cases {
            let r = try CLI.run(arguments)
            #expect(r.status == 64, "\(arguments)")
            #expect(r.stderr.contains(message), "\(arguments): \(r.stderr)")
        }
    }
}
