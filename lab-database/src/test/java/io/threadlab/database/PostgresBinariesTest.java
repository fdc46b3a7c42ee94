package io.threadlab.database;

import io.threadlab.database.testing.RealPostgres;
import io.threadlab.database.testing.TestPostgres;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.compressors.xz.XZCompressorOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@RealPostgres
class PostgresBinariesTest {

    @TempDir
    Path work;

    @Test
    void theBundledArchiveUnpacksIntoARunnableServerOfTheVersionThePomNames() {
        PostgresBinaries binaries = TestPostgres.binaries();
        assertThat(binaries.postgres()).isExecutable();
        assertThat(binaries.initdb()).isExecutable();
        assertThat(binaries.home().resolve("share")).isDirectory();
        // zonky's artifact 18.4.0 holds PostgreSQL 18.4: the binary's own answer is the version recorded.
        String artifact = System.getProperty("postgres-binaries.version");
        assertThat(artifact + ".").startsWith(binaries.version() + ".");
    }

    @Test
    void anArchiveThatIsNotXzIsNamedWithItsCause() throws Exception {
        Path archive = Files.writeString(work.resolve("postgres-linux-x86_64.txz"), "not an archive at all");
        assertThatThrownBy(() -> PostgresBinaries.unpack(archive, work.resolve("out")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("the PostgreSQL binaries archive " + archive + " cannot be unpacked")
                .hasMessageContaining("XZ");
    }

    @Test
    void aTruncatedArchiveIsNamedWithItsCause() throws Exception {
        byte[] whole;
        try (InputStream in = PostgresBinaries.class.getClassLoader().getResourceAsStream(PostgresBinaries.ARCHIVE)) {
            whole = in.readAllBytes();
        }
        Path archive = Files.write(work.resolve("truncated.txz"), Arrays.copyOf(whole, whole.length / 2));
        assertThatThrownBy(() -> PostgresBinaries.unpack(archive, work.resolve("out")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("the PostgreSQL binaries archive " + archive + " cannot be unpacked");
    }

    @Test
    void anArchiveWithoutAServerIsNamedAsSuch() throws Exception {
        Path archive = work.resolve("other.txz");
        try (OutputStream file = Files.newOutputStream(archive);
             TarArchiveOutputStream tar = new TarArchiveOutputStream(new XZCompressorOutputStream(file))) {
            byte[] text = "no server here\n".getBytes(StandardCharsets.UTF_8);
            TarArchiveEntry entry = new TarArchiveEntry("README");
            entry.setSize(text.length);
            tar.putArchiveEntry(entry);
            tar.write(text);
            tar.closeArchiveEntry();
        }
        assertThatThrownBy(() -> PostgresBinaries.unpack(archive, work.resolve("out")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("is not a PostgreSQL binaries archive: it has no executable bin/postgres");
    }

    @Test
    void anEntryPointingOutOfTheDirectoryIsRefused() throws Exception {
        Path archive = work.resolve("slip.txz");
        try (OutputStream file = Files.newOutputStream(archive);
             TarArchiveOutputStream tar = new TarArchiveOutputStream(new XZCompressorOutputStream(file))) {
            TarArchiveEntry entry = new TarArchiveEntry("../escaped");
            entry.setSize(0);
            tar.putArchiveEntry(entry);
            tar.closeArchiveEntry();
        }
        assertThatThrownBy(() -> PostgresBinaries.unpack(archive, work.resolve("out")))
                .hasMessageContaining("points outside the directory");
        assertThat(work.resolve("escaped")).doesNotExist();
    }

    @Test
    void aDirectoryInUseIsRefused() throws Exception {
        Files.writeString(work.resolve("something"), "x");
        assertThatThrownBy(() -> PostgresBinaries.unpack(work)).hasMessageContaining("it is not empty");
    }
}
