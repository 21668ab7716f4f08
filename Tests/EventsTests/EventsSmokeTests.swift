import Testing
@testable import Events
