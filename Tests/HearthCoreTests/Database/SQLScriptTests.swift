import Testing
@testable import HearthCore

@Suite struct SQLScriptTests {
    @Test func splitsOnSemicolonsOutsideQuotesAndComments() {
        let script = SQLScript("""
            -- a comment; not a statement
            CREATE TABLE a (x text DEFAULT 'semi;colon', "we;ird" int);
            /* block; /* nested; */ still comment; */
            INSERT INTO a VALUES (E'it\\'s; fine', 1);
            CREATE FUNCTION f() RETURNS int AS $body$ SELECT 1; $body$ LANGUAGE sql;
            DO $$ BEGIN PERFORM 1; END $$;
            SELECT 'it''s;'
            """)
        #expect(script.statements.map(\.line) == [2, 4, 5, 6, 7])
        #expect(script.statements[0].sql.hasSuffix(#""we;ird" int)"#))
        #expect(script.statements[1].sql.hasSuffix("*/\nINSERT INTO a VALUES (E'it\\'s; fine', 1)"))
        #expect(script.statements[2].sql.hasSuffix("$body$ LANGUAGE sql"))
        #expect(script.statements[3].sql == "DO $$ BEGIN PERFORM 1; END $$")
        #expect(script.statements[4].sql == "SELECT 'it''s;'")
    }

    @Test func commentOnlyAndEmptyScriptsHaveNoStatements() {
        #expect(SQLScript("").statements.isEmpty)
        #expect(SQLScript("-- nothing\n;;\n/* here */").statements.isEmpty)
    }

    @Test func positionalParametersAreNotDollarQuotes() {
        let script = SQLScript("SELECT $1; SELECT 2")
        #expect(script.statements.map(\.sql) == ["SELECT $1", "SELECT 2"])
    }
}
