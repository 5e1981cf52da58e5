import Foundation
import HearthCore
import HearthTestSupport
import Testing

/// The users service against a real PostgreSQL, with a manual clock (no sleeps) and bcrypt at
/// its lowest cost.
@Suite struct UserServiceTests {
    static func withService(
        _ configuration: UsersConfiguration = UsersConfiguration(bcryptCost: 4),
        _ body: (UserService, ManualClock, Database) async throws -> Void
    ) async throws {
        try await withTestDatabase { database, _ in
            let clock = ManualClock()
            try await body(HearthServices(database: database, configuration: .init(users: configuration, clock: clock)).users, clock, database)
        }
    }

    static func error(_ body: () async throws -> Void) async -> ServiceError? {
        do {
            try await body()
            return nil
        } catch let error as ServiceError {
            return error
        } catch {
            Issue.record("unexpected error \(error)")
            return nil
        }
    }

    @Test func signUpNormalisesAndRefusesADuplicateEmail() async throws {
        try await Self.withService { users, _, database throws in
            let payload = try await users.signUp(
                email: "  Ada@Example.ORG ", password: "correct horse", displayName: "  Ada Lovelace ", deviceName: "Laptop")
            #expect(payload.user.email == "ada@example.org")
            #expect(payload.user.displayName == "Ada Lovelace")
            #expect(payload.token.count == 43)
            let duplicate = await Self.error {
                _ = try await users.signUp(email: "ADA@example.org", password: "another one", displayName: "Ada", deviceName: nil)
            }
            #expect(duplicate == .emailTaken)
            #expect(try await database.strings("SELECT count(*)::text FROM users") == ["1"])
            // The token itself is stored nowhere; its SHA-256 is.
            let hashes = try await database.strings("SELECT encode(token_hash, 'hex') FROM user_sessions")
            #expect(hashes == [SessionToken.hash(payload.token).map { String(format: "%02x", $0) }.joined()])
            let stored = try await database.strings("SELECT password_hash FROM users")
            #expect(stored.count == 1 && stored[0].hasPrefix("$2") && !stored[0].contains("correct horse"))
        }
    }

    @Test(arguments: [
        ("not-an-email", "long enough", "Ada", "email"),
        ("a@b", "long enough", "Ada", "email"),
        ("zoë@example.org", "long enough", "Ada", "email"),
        ("ada@example.org", "short", "Ada", "password"),
        ("ada@example.org", String(repeating: "p", count: 257), "Ada", "password"),
        ("ada@example.org", "long enough", "   ", "displayName"),
        ("ada@example.org", "long enough", String(repeating: "x", count: 81), "displayName"),
        ("ada@example.org", "long enough", "Ada\u{7}", "displayName"),
    ])
    func badSignUpInputNamesTheFieldAndWritesNothing(email: String, password: String, name: String, field: String) async throws {
        try await Self.withService { users, _, database throws in
            let error = await Self.error { _ = try await users.signUp(email: email, password: password, displayName: name, deviceName: nil) }
            guard let error, error.kind == .badUserInput, let reported = error.field else {
                Issue.record("expected invalid input, got \(String(describing: error))")
                return
            }
            #expect(reported == field)
            #expect(error.message.hasPrefix(field))
            #expect(try await database.strings("SELECT count(*)::text FROM users") == ["0"])
        }
    }

    @Test func textWithSQLMetacharactersAndNonASCIIIsStoredAsTyped() async throws {
        try await Self.withService { users, _, _ throws in
            let name = "Robert'); DROP TABLE users;-- Zoë 🏠"
            let payload = try await users.signUp(email: "o'brien@example.org", password: "pässwörd \"'%_", displayName: name, deviceName: nil)
            #expect(try await users.user(id: payload.user.id)?.displayName == name)
            #expect(try await users.user(email: "O'Brien@example.org")?.id == payload.user.id)
            _ = try await users.signIn(email: "o'brien@example.org", password: "pässwörd \"'%_", deviceName: nil, clientAddress: "::1")
        }
    }

    @Test func signInAnswersOneMessageForUnknownEmailAndWrongPassword() async throws {
        try await Self.withService { users, _, _ throws in
            _ = try await users.signUp(email: "ada@example.org", password: "correct horse", displayName: "Ada", deviceName: nil)
            let unknown = await Self.error { _ = try await users.signIn(email: "bob@example.org", password: "correct horse", deviceName: nil, clientAddress: nil) }
            let wrong = await Self.error { _ = try await users.signIn(email: "ada@example.org", password: "wrong horse", deviceName: nil, clientAddress: nil) }
            #expect(unknown == .invalidCredentials && wrong == .invalidCredentials)
            #expect(unknown?.message == "Invalid email or password")
            let payload = try await users.signIn(email: "ADA@example.org", password: "correct horse", deviceName: "Phone", clientAddress: nil)
            let signedIn = try #require(try await users.authenticate(token: payload.token))
            #expect(signedIn.user.email == "ada@example.org")
            #expect(signedIn.session.deviceName == "Phone")
        }
    }

    @Test func sessionsExpireUnlessUsedAndSlideWithUse() async throws {
        try await Self.withService { users, clock, _ throws in
            let kept = try await users.signUp(email: "ada@example.org", password: "correct horse", displayName: "Ada", deviceName: nil)
            let idle = try await users.signIn(email: "ada@example.org", password: "correct horse", deviceName: nil, clientAddress: nil)
            for _ in 0..<3 {
                clock.advance(by: 20 * 86_400)
                #expect(try await users.authenticate(token: kept.token) != nil, "used every 20 days, it slides")
            }
            #expect(try await users.authenticate(token: idle.token) == nil, "unused for 60 days, it expired")
            clock.advance(by: 30 * 86_400 + 1)
            #expect(try await users.authenticate(token: kept.token) == nil)
            #expect(try await users.authenticate(token: "garbage") == nil)
        }
    }

    @Test func revocationTakesEffectAtOnceDespiteTheCache() async throws {
        try await Self.withService { users, _, _ throws in
            let first = try await users.signUp(email: "ada@example.org", password: "correct horse", displayName: "Ada", deviceName: "Laptop")
            let second = try await users.signIn(email: "ada@example.org", password: "correct horse", deviceName: "Phone", clientAddress: nil)
            let third = try await users.signIn(email: "ada@example.org", password: "correct horse", deviceName: "Tablet", clientAddress: nil)
            for payload in [first, second, third] { #expect(try await users.authenticate(token: payload.token) != nil) }
            #expect(try await users.sessions(userID: first.user.id).count == 3)

            try await users.signOut(sessionID: second.sessionID)
            #expect(try await users.authenticate(token: second.token) == nil)
            try await users.revokeSession(id: third.sessionID, userID: first.user.id)
            #expect(try await users.authenticate(token: third.token) == nil)
            #expect(try await users.authenticate(token: first.token) != nil)

            let other = try await users.signUp(email: "bob@example.org", password: "correct horse", displayName: "Bob", deviceName: nil)
            let foreign = await Self.error { try await users.revokeSession(id: first.sessionID, userID: other.user.id) }
            #expect(foreign == .notFound("Session"))
            #expect(try await users.authenticate(token: first.token) != nil)

            #expect(try await users.signOutEverywhere(userID: first.user.id) == 1)
            #expect(try await users.authenticate(token: first.token) == nil)
            #expect(try await users.authenticate(token: other.token) != nil)
        }
    }

    @Test func changingThePasswordSignsOutEveryOtherSession() async throws {
        try await Self.withService { users, _, _ throws in
            let here = try await users.signUp(email: "ada@example.org", password: "correct horse", displayName: "Ada", deviceName: nil)
            let there = try await users.signIn(email: "ada@example.org", password: "correct horse", deviceName: nil, clientAddress: nil)
            _ = try await users.authenticate(token: there.token)
            let wrong = await Self.error {
                try await users.changePassword(userID: here.user.id, keepingSession: here.sessionID, current: "nope nope", new: "battery staple")
            }
            #expect(wrong == .wrongPassword(field: "currentPassword"))
            try await users.changePassword(userID: here.user.id, keepingSession: here.sessionID, current: "correct horse", new: "battery staple")
            #expect(try await users.authenticate(token: here.token) != nil)
            #expect(try await users.authenticate(token: there.token) == nil)
            _ = try await users.signIn(email: "ada@example.org", password: "battery staple", deviceName: nil, clientAddress: nil)
        }
    }

    @Test func failedSignInsAreLimitedPerEmailAndPerAddress() async throws {
        try await Self.withService { users, clock, _ throws in
            _ = try await users.signUp(email: "ada@example.org", password: "correct horse", displayName: "Ada", deviceName: nil)
            for attempt in 0..<10 {
                clock.advance(by: 1)
                let error = await Self.error {
                    _ = try await users.signIn(email: "ada@example.org", password: "guess \(attempt)", deviceName: nil, clientAddress: "10.0.0.\(attempt)")
                }
                #expect(error == .invalidCredentials)
            }
            // Even the right password is refused while limited, from any address.
            let limited = await Self.error {
                _ = try await users.signIn(email: "ada@example.org", password: "correct horse", deviceName: nil, clientAddress: "10.9.9.9")
            }
            #expect(limited == .tooManyPasswordAttempts(retryAfter: 15 * 60 - 9))
            clock.advance(by: 15 * 60)
            _ = try await users.signIn(email: "ada@example.org", password: "correct horse", deviceName: nil, clientAddress: "10.9.9.9")

            // One address trying many emails.
            for attempt in 0..<10 {
                _ = await Self.error {
                    _ = try await users.signIn(email: "user\(attempt)@example.org", password: "guess", deviceName: nil, clientAddress: "192.0.2.7")
                }
            }
            let byAddress = await Self.error {
                _ = try await users.signIn(email: "ada@example.org", password: "correct horse", deviceName: nil, clientAddress: "192.0.2.7")
            }
            #expect(byAddress == .tooManyPasswordAttempts(retryAfter: 15 * 60))
            _ = try await users.signIn(email: "ada@example.org", password: "correct horse", deviceName: nil, clientAddress: "192.0.2.8")
        }
    }

    @Test func profileUpdatesAndAccountDeletion() async throws {
        try await Self.withService { users, _, database throws in
            let ada = try await users.signUp(email: "ada@example.org", password: "correct horse", displayName: "Ada", deviceName: nil)
            _ = try await users.authenticate(token: ada.token)
            let updated = try await users.updateProfile(userID: ada.user.id, displayName: " Countess ", avatarURL: "https://example.org/a.png")
            #expect(updated.displayName == "Countess" && updated.avatarURL == "https://example.org/a.png")
            #expect(try await users.authenticate(token: ada.token)?.user.displayName == "Countess", "the cached user was dropped")
            let cleared = try await users.updateProfile(userID: ada.user.id, displayName: nil, avatarURL: .some(nil))
            #expect(cleared.displayName == "Countess" && cleared.avatarURL == nil)
            let bad = await Self.error { _ = try await users.updateProfile(userID: ada.user.id, displayName: nil, avatarURL: "ftp://x") }
            #expect(bad == .invalidInput(field: "avatarURL", message: "avatarURL must be an absolute http or https URL."))

            let wrong = await Self.error { try await users.deleteAccount(userID: ada.user.id, password: "nope nope") }
            #expect(wrong == .wrongPassword(field: "password"))
            try await users.deleteAccount(userID: ada.user.id, password: "correct horse")
            #expect(try await users.authenticate(token: ada.token) == nil)
            #expect(try await database.strings("SELECT count(*)::text FROM user_sessions") == ["0"])
        }
    }

    @Test func searchMatchesNamePrefixesAndExactEmailsOnly() async throws {
        try await Self.withService { users, _, _ throws in
            for (email, name) in [("ada@example.org", "Ada Lovelace"), ("adam@example.org", "adam smith"), ("bob@example.org", "Bob 100%"),
                                  ("eve@example.org", "Eve")] {
                _ = try await users.createUser(email: email, password: "correct horse", displayName: name, isAdmin: false)
            }
            #expect(try await users.searchUsers(query: "ad", first: 20).map(\.displayName) == ["Ada Lovelace", "adam smith"])
            #expect(try await users.searchUsers(query: "ADA", first: 1).map(\.displayName) == ["Ada Lovelace"])
            #expect(try await users.searchUsers(query: "EVE@example.org", first: 20).map(\.displayName) == ["Eve"])
            #expect(try await users.searchUsers(query: "eve@example", first: 20).isEmpty, "emails match exactly")
            #expect(try await users.searchUsers(query: "%", first: 20).isEmpty, "LIKE metacharacters are literal")
            #expect(try await users.searchUsers(query: "Bob 100%", first: 20).map(\.displayName) == ["Bob 100%"])
            let tooMany = await Self.error { _ = try await users.searchUsers(query: "a", first: 21) }
            #expect(tooMany == .invalidInput(field: "first", message: "first must be from 1 to 20; got 21."))
        }
    }

    @Test func preferencesUpdateExportAndImportStrictly() async throws {
        try await Self.withService { users, _, _ throws in
            let ada = try await users.signUp(email: "ada@example.org", password: "correct horse", displayName: "Ada", deviceName: nil).user
            #expect(try await users.preferences(userID: ada.id) == Preferences())
            var patch = PreferencesPatch()
            patch.theme = .dark
            patch.notifications[.outOfStock] = false
            patch.priceDropThreshold = .atLeast10Percent
            patch.timeZone = "Europe/Berlin"
            let updated = try await users.updatePreferences(userID: ada.id, patch)
            #expect(updated.theme == .dark && !updated.notifies(.outOfStock) && updated.notifies(.backInStock))
            #expect(try await users.preferences(userID: ada.id) == updated)

            let exported = updated.json
            let bob = try await users.signUp(email: "bob@example.org", password: "correct horse", displayName: "Bob", deviceName: nil).user
            #expect(try await users.importPreferences(userID: bob.id, json: exported) == updated)

            let refusals: [(String, String)] = [
                (#"{"colour":"red"}"#, "preferences.colour"),
                (#"{"notifications":{"priceDropped":1}}"#, "preferences.notifications.priceDropped"),
                (#"{"notifications":{"restocked":true}}"#, "preferences.notifications.restocked"),
                (#"{"theme":"PINK"}"#, "preferences.theme"),
                (#"{"timeZone":"CEST"}"#, "preferences.timeZone"),
                (#"{"lastHouseholdId":"nope"}"#, "preferences.lastHouseholdId"),
                (#"[1,2]"#, "preferences"),
                (#"{"theme":"DARK""#, "preferences"),
            ]
            for (json, field) in refusals {
                let error = await Self.error { _ = try await users.importPreferences(userID: bob.id, json: Data(json.utf8)) }
                guard let error, error.kind == .badUserInput, let reported = error.field else {
                    Issue.record("\(json) was accepted")
                    continue
                }
                #expect(reported == field, "\(json)")
            }
            #expect(try await users.preferences(userID: bob.id) == updated, "a refused import changes nothing")
        }
    }

    @Test func healthReportsTheCache() async throws {
        try await Self.withService { users, _, _ throws in
            let ada = try await users.signUp(email: "ada@example.org", password: "correct horse", displayName: "Ada", deviceName: nil)
            _ = try await users.authenticate(token: ada.token)
            _ = try await users.authenticate(token: ada.token)
            let health = await users.performHealthCheck()
            #expect(health.isHealthy)
            #expect(health.details["sessionCacheSize"] == .int(1))
            #expect(health.details["sessionCacheHitRate"] == .number(0.5))
        }
    }
}
