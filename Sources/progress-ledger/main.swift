#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// A closed stdout is an error the tool reports (exit 1), not a silent SIGPIPE.
signal(SIGPIPE, SIG_IGN)
exit(ProgressLedgerCLI.run(CommandLine.arguments))
