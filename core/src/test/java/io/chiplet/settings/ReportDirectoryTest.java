package io.chiplet.settings;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

class ReportDirectoryTest
{
    @Test
    void aWritableDirectoryOrOneThatCanBeMadeHasNoProblem(@TempDir Path temp)
    {
        assertThat(ReportDirectory.problem(temp)).isEmpty();
        assertThat(ReportDirectory.problem(temp.resolve("a/b/c"))).isEmpty();
        // Nothing was created by the check.
        assertThat(temp.resolve("a")).doesNotExist();
    }

    @Test
    void aFileInThePathIsNamed(@TempDir Path temp)
            throws IOException
    {
        Path file = Files.writeString(temp.resolve("taken"), "x");
        assertThat(ReportDirectory.problem(file)).hasValue(file + " is a file, not a directory");
        assertThat(ReportDirectory.problem(file.resolve("reports"))).hasValue(file.resolve("reports") + " cannot be created: " + file + " is a file, not a directory");
    }

    @Test
    void aReadOnlyDirectoryIsNamed(@TempDir Path temp)
            throws IOException
    {
        Path readOnly = Files.createDirectory(temp.resolve("read-only"));
        Files.setPosixFilePermissions(readOnly, PosixFilePermissions.fromString("r-xr-xr-x"));
        // root may write anywhere: there the directory is writable indeed.
        assumeThat(Files.isWritable(readOnly)).as("this process can write a read-only directory (root)").isFalse();
        assertThat(ReportDirectory.problem(readOnly.resolve("reports"))).hasValue(readOnly.resolve("reports") + " cannot be created: " + readOnly + " is not writable by this process");
    }
}
