import Foundation
import Testing

/// The layout a newcomer relies on: HearthCore's folders on floors with every reference pointing
/// down (`scripts/architecture/floors.py --check`, the order written there and drawn in
/// docs/architecture.md), and documents whose links stay inside the repository.
@Suite struct ArchitectureTests {
    static let root = DocumentationTests.root

    @Test func everyReferenceBetweenTheCoresFoldersPointsDown() async throws {
        let script = Self.root.appendingPathComponent("scripts/architecture/floors.py").path
        let run = try await ChildProcess.run("/usr/bin/env", ["python3", script, "--check", "--root", Self.root.appendingPathComponent("Sources/HearthCore").path])
        #expect(run.status == 0, "\(run.text)")
        #expect(run.text.contains("0 pairs of folders reference each other") && run.text.contains("0 references not pointing down"), "\(run.text)")
    }

    /// Every relative link of the README and the guides names a file of the repository, and none
    /// sends the reader outside it.
    @Test func documentsLinkOnlyInsideTheRepository() throws {
        let link = /\]\(([^)#\s]+)[^)]*\)/
        for (name, text) in try DocumentationTests.documents() {
            #expect(!text.contains("../shared"), "\(name) sends readers to ../shared, which is not in the repository")
            let folder = Self.root.appendingPathComponent(name).deletingLastPathComponent()
            for match in text.matches(of: link) {
                let target = String(match.1)
                guard !target.contains("://"), !target.hasPrefix("mailto:") else { continue }
                let path = folder.appendingPathComponent(target).standardizedFileURL.path
                #expect(path.hasPrefix(Self.root.standardizedFileURL.path + "/"), "\(name) links outside the repository: \(target)")
                #expect(FileManager.default.fileExists(atPath: path), "\(name) links to \(target), which does not exist")
            }
        }
    }
}
