import Foundation
@testable import HearthPostgres
import HearthTestSupport
import Testing
@testable import HearthCore

@Suite struct PostgresBinariesTests {
    @Test func missingBinariesNameThePackageAndTheAlternative() async throws {
        try await withTemporaryDirectory { empty throws in
            let search = PostgresBinarySearch(path: empty, pgConfig: empty + "/pg_config", versionedRoot: empty)
            let error = #expect(throws: EmbeddedPostgresError.self) { try PostgresBinaries.locate(search) }
            let failure = try #require(error)
            let message = failure.description
            #expect(message.contains("apt-get install -y postgresql"))
            #expect(message.contains("DATABASE_URL="))
            #expect(message.contains("PATH"))
            #expect(message.contains("\(empty)/*/bin"))
        }
    }

    @Test func explicitDirectoryWithoutProgramsIsRefused() async throws {
        try await withTemporaryDirectory { empty throws in
            let error = #expect(throws: EmbeddedPostgresError.self) {
                try PostgresBinaries.locate(PostgresBinarySearch(explicitDirectory: empty))
            }
            let failure = try #require(error)
            #expect(failure.description.contains("\(empty) (from --pg-bindir"))
        }
    }

    @Test func findsTheInstalledServerInTheVersionedRoot() throws {
        let binaries = try PostgresBinaries.locate(PostgresBinarySearch(path: "", pgConfig: "/nonexistent"))
        #expect(binaries.majorVersion >= 12)
        #expect(FileManager.default.isExecutableFile(atPath: binaries.postgres))
        #expect(binaries.directory.hasPrefix("/usr/lib/postgresql/\(binaries.majorVersion)"))
        // The folder's name is the version the program reports (read without running it).
        #expect(PostgresBinaries.majorVersion(of: binaries.postgres) == binaries.majorVersion)
        #expect(PostgresBinaries.candidate(binaries.directory)?.majorVersion == binaries.majorVersion)
    }

    @Test func parsesVersionOutput() {
        #expect(PostgresBinaries.parseMajorVersion("postgres (PostgreSQL) 15.18 (Debian 15.18-0+deb12u1)") == 15)
        #expect(PostgresBinaries.parseMajorVersion("postgres (PostgreSQL) 17beta1") == 17)
        #expect(PostgresBinaries.parseMajorVersion("something else") == nil)
    }
}
