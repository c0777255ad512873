package io.chiplet.settings;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Whether a report directory (a setting's value) can take the report files, checked when the engine starts rather than when the report
 * is written at the end: a directory that cannot be written is then found while the job can still be rerun (the
 * Spark event log and Trino's JMX beans have the figures either way). Nothing is created here.
 */
public final class ReportDirectory
{
    private ReportDirectory() {}

    /**
     * Why {@code directory} cannot take the report files, in words that name it; empty when it can: it is a
     * writable directory, or does not exist yet and its nearest existing ancestor is a writable directory (the
     * report's writer creates the rest).
     */
    public static Optional<String> problem(Path directory)
    {
        requireNonNull(directory, "directory is null");
        Path absolute = directory.toAbsolutePath().normalize();
        Path existing = absolute;
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing == null) {
            return Optional.of(absolute + " cannot be created: no part of its path exists");
        }
        if (!Files.isDirectory(existing)) {
            return Optional.of(existing.equals(absolute)
                    ? absolute + " is a file, not a directory"
                    : absolute + " cannot be created: " + existing + " is a file, not a directory");
        }
        if (!Files.isWritable(existing)) {
            return Optional.of(existing.equals(absolute)
                    ? absolute + " is not writable by this process"
                    : absolute + " cannot be created: " + existing + " is not writable by this process");
        }
        return Optional.empty();
    }
}
