import Testing
@testable import progress_ledger

/// Each option is declared once (its name, value name and help line), and
/// the parser, the help's options block and the typed lookup come from that
/// declaration: so the help lists exactly what the parser accepts.
@Suite("Each option declared once: the help lists what the parser accepts")
struct OptionDeclarationTests {
    static let commands = ProgressLedgerCLI.commands.map { $0.name }

    /// The labels of the help's options block (`--user U`, `-h, --help`), in order.
    static func optionLabels(_ help: String) -> [String] {
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(of: "Options:") else { return [] }
        var labels: [String] = []
        for line in lines[(start + 1)...] {
            if line.isEmpty { break }
            guard line.hasPrefix("  -") else { continue }
            let entry = line.dropFirst(2)
            let end = entry.range(of: "  ")?.lowerBound ?? entry.endIndex
            labels.append(String(entry[..<end]))
        }
        return labels
    }

    /// The `--options` named in the help's synopsis (the `Usage:` lines).
    static func synopsisOptions(_ help: String) -> Set<String> {
        let usage = help.split(separator: "\n", omittingEmptySubsequences: false).prefix { !$0.isEmpty }.joined(separator: " ")
        var names: Set<String> = []
        for word in usage.split(whereSeparator: { " []|()".contains($0) }) where word.hasPrefix("--") {
            names.insert(String(word.prefix { $0 == "-" || $0.isLetter }))
        }
        return names
    }

    @Test("every command's --help exits 0 and lists each declared option once, then -h, --help", arguments: commands)
    func helpListsTheDeclaredOptions(_ name: String) throws {
        let command = try #require(ProgressLedgerCLI.commands.first { $0.name == name })
        let r = try CLI.run([name, "--help"])
        #expect(r.status == 0)
        #expect(r.stderr.isEmpty)
        #expect(r.stdout.hasPrefix("Usage: progress-ledger \(name) "))
        let declared = command.options.map { $0.label }
        #expect(Set(command.options.map { $0.name }).count == declared.count, "an option declared twice in \(name)")
        #expect(Self.optionLabels(r.stdout) == declared + ["-h, --help"])
        // And the synopsis names no option the parser would refuse.
        let names = Set(command.options.map { $0.name })
        #expect(Self.synopsisOptions(r.stdout).subtracting(names).isEmpty, "\(name)'s synopsis names undeclared options")
        #expect(try CLI.run(["help", name]).stdout == r.stdout)
    }

    @Test("an option a command does not declare is a usage error naming it, exit 64", arguments: commands)
    func undeclaredOptionIsRefused(_ name: String) throws {
        let r = try CLI.run([name, "x.log", "--no-such-option"])
        #expect(r.status == 64)
        #expect(r.stderr.contains("progress-ledger \(name): unknown option '--no-such-option'"))
        #expect(r.stdout.isEmpty)
    }

    @Test("explain lists --quiet, which it accepts (the help once left it out)")
    func explainListsQuiet() throws {
        let r = try CLI.run(["explain", "--help"])
        #expect(Self.optionLabels(r.stdout).contains("--quiet"))
        #expect(Self.optionLabels(r.stdout).contains("--retry-limit N"))
    }

    @Test("the options block is aligned and wrapped at 80 columns")
    func optionsBlockLayout() {
        let block = HelpText.optionsBlock([Common.user, Common.out, Flag("--x", help: "short")])
        let lines = block.split(separator: "\n").map(String.init)
        #expect(lines.allSatisfy { $0.count <= HelpText.width })
        #expect(lines.first == "  --user U     the learner (exact match, case-sensitive); required")
        #expect(lines.last == "  -h, --help   show this help")
        #expect(lines.filter { !$0.hasPrefix("  -") }.allSatisfy { $0.hasPrefix(String(repeating: " ", count: 15)) })
    }

    @Test("option relations: one that needs another, and two that do not go together, are usage errors")
    func relations() throws {
        let state = try CLI.run(["export", "x.log", "--state"])
        #expect(state.status == 64 && state.stderr.contains("--state needs --user U"), "\(state.stderr)")
        let both = try CLI.run(["state", "x.log", "--user", "u-1", "--snapshot", "s", "--outbox", "o"])
        #expect(both.status == 64 && both.stderr.contains("--snapshot and --outbox do not go together"), "\(both.stderr)")
        let after = try CLI.run(["export", "x.log", "--user", "u-1", "--after", "3"])
        #expect(after.status == 64 && after.stderr.contains("--after and --user do not go together"), "\(after.stderr)")
    }

    @Test("a typed value is checked when parsed: a bad one is a usage error naming the option and the rule")
    func typedValues() throws {
        let cases: [([String], String)] = [
            (["leaderboard", "x.log", "--period", "year", "--on", "2025-10-21"], "--period takes one of week, month (got 'year')"),
            (["leaderboard", "x.log", "--period", "week", "--on", "2025-02-30"], "--on takes a date YYYY-MM-DD that exists (got '2025-02-30')"),
            (["leaderboard", "x.log", "--period", "week", "--on", "2025-10-21", "--top", "0"], "--top takes a whole number from 1"),
            (["verify", "x.log", "--expect-head", "3:zz"], "--expect-head takes SEQ:SHA256"),
            (["import", "x.log", "f", "--from", "palm-pilot", "--user", "u"], "--from takes one of "),
            (["append", "x.log", "--no-sync=yes"], "option '--no-sync' takes no value"),
        ]
        for (arguments, message) in cases {
            let r = try CLI.run(arguments)
            #expect(r.status == 64, "\(arguments)")
            #expect(r.stderr.contains(message), "\(arguments): \(r.stderr)")
        }
    }

    @Test("an option for some values of another names a declared option and values it accepts; its help line says them",
          arguments: commands)
    func onlyRelationsAreDeclared(_ name: String) throws {
        let command = try #require(ProgressLedgerCLI.commands.first { $0.name == name })
        for option in command.options {
            guard let only = option.onlyFor else { continue }
            let other = try #require(command.options.first { $0.name == only.option }, "\(name) \(option.name) names \(only.option)")
            for value in only.values { #expect(throws: Never.self, "\(name) \(option.name): \(value)") { _ = try other.value(of: value) } }
            #expect(option.helpLine.hasPrefix(only.values.joined(separator: ", ") + ": "))
        }
    }

    @Test("the parser refuses an option given with a value of another it is not for, using that option's default and --json")
    func onlyRelationParsing() throws {
        enum F: String, OutputFormat { case text, json, csv }
        let output = OutputOptions<F>(help: "h", default: .text)
        let csvOnly = Flag("--bom", help: "a byte order mark").only(with: output.format, .csv)
        let options = output.options + [csvOnly]
        #expect(throws: Never.self) { _ = try ParsedArguments(["--format", "csv", "--bom"], options: options) }
        for refused in [["--bom"], ["--bom", "--json"], ["--format", "json", "--bom"]] {
            do {
                _ = try ParsedArguments(refused, options: options)
                Issue.record("\(refused) was accepted")
            } catch {
                guard case .usage(let message) = error else { Issue.record("\(error)"); continue }
                #expect(message.hasPrefix("--bom is for --format csv only (the format here is "), "\(message)")
            }
        }
    }
}
