package dev.mnemo.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** PostgreSQL's password file, read as libpq reads it. */
class PgPassTest {

    @TempDir
    Path temp;

    @Test
    void firstMatchingLineWins_withWildcardsInAnyOfTheFirstFourFields() {
        PgPass pgpass = PgPass.parse("""
                # comment: db:5432:mnemo:reader:not-this
                db.example:5432:mnemo:reader:exact
                db.example:*:mnemo:reader:any-port
                *:*:*:reader:anywhere
                *:*:*:*:fallback
                """);

        assertThat(pgpass.password("db.example", "5432", "mnemo", "reader")).contains("exact");
        assertThat(pgpass.password("db.example", "6543", "mnemo", "reader")).contains("any-port");
        assertThat(pgpass.password("other", "5432", "other", "reader")).contains("anywhere");
        assertThat(pgpass.password("other", "5432", "other", "admin")).contains("fallback");
    }

    @Test
    void noMatchingLine_isEmpty_andCommentsAndMalformedLinesAreSkipped() {
        PgPass pgpass = PgPass.parse("""
                #db:5432:mnemo:reader:commented
                db:5432:mnemo
                
                db:5432:mnemo:writer:other-user
                """);

        assertThat(pgpass.password("db", "5432", "mnemo", "reader")).isEmpty();
        assertThat(pgpass.password("db", "5432", "mnemo", "writer")).contains("other-user");
    }

    @Test
    void backslashEscapesColonsBackslashesAndAStar() {
        PgPass pgpass = PgPass.parse("""
                db:5432:odd\\:name:re\\\\ader:pa\\:ss\\\\word
                db:5432:\\*:reader:literal-star
                db:5432:mnemo:reader:ends:at-the-next-colon
                """);

        assertThat(pgpass.password("db", "5432", "odd:name", "re\\ader")).contains("pa:ss\\word");
        assertThat(pgpass.password("db", "5432", "*", "reader")).contains("literal-star");
        assertThat(pgpass.password("db", "5432", "other", "reader")).isEmpty(); // \\* is no wildcard
        assertThat(pgpass.password("db", "5432", "mnemo", "reader")).contains("ends");
    }

    @Test
    void aStarInsideAField_isLiteral() {
        PgPass pgpass = PgPass.parse("db*:5432:mnemo:reader:starred\n");

        assertThat(pgpass.password("db*", "5432", "mnemo", "reader")).contains("starred");
        assertThat(pgpass.password("dbx", "5432", "mnemo", "reader")).isEmpty();
    }

    @Test
    void windowsLineEnds_areNotPartOfThePassword() {
        assertThat(PgPass.parse("db:5432:mnemo:reader:secret\r\nx:1:y:z:w\r\n").password("db", "5432", "mnemo",
                "reader")).contains("secret");
    }

    @Test
    void aFileOnlyItsOwnerMayRead_isRead() throws Exception {
        Path file = write("0600");
        Path readOnly = write("0400");
        List<String> warnings = new ArrayList<>();

        assertThat(PgPass.read(file, warnings::add).flatMap(p -> p.password("db", "5432", "mnemo", "reader")))
                .contains("secret");
        assertThat(PgPass.read(readOnly, warnings::add)).isPresent();
        assertThat(warnings).isEmpty();
    }

    @Test
    void aFileTheGroupOrOthersMayRead_isIgnoredWithAWarningNamingIt() throws Exception {
        for (String mode : new String[] {"0644", "0640", "0604", "0620"}) {
            Path file = write(mode);
            List<String> warnings = new ArrayList<>();

            assertThat(PgPass.read(file, warnings::add)).as(mode).isEmpty();
            assertThat(warnings).as(mode).singleElement().asString().contains(file.toString(), "chmod 0600");
        }
    }

    @Test
    void aMissingFile_isEmpty_withoutAWarning() {
        List<String> warnings = new ArrayList<>();

        assertThat(PgPass.read(temp.resolve("none"), warnings::add)).isEmpty();
        assertThat(warnings).isEmpty();
    }

    private Path write(String mode) throws Exception {
        Path file = temp.resolve("pgpass-" + mode);
        Files.writeString(file, "db:5432:mnemo:reader:secret\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(rwx(mode)));
        return file;
    }

    /** {@code 0640} as {@code rw-r-----}. */
    private static String rwx(String octal) {
        StringBuilder text = new StringBuilder();
        for (char digit : octal.substring(1).toCharArray()) {
            int bits = digit - '0';
            text.append((bits & 4) != 0 ? 'r' : '-').append((bits & 2) != 0 ? 'w' : '-').append((bits & 1) != 0 ? 'x' : '-');
        }
        return text.toString();
    }
}
