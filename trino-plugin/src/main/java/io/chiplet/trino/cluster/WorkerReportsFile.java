package io.chiplet.trino.cluster;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import static java.util.Objects.requireNonNull;

/**
 * The workers' last reports on disk, as a properties file: {@code saved} (an ISO-8601 instant) and, per worker
 * {@code i} from 0, {@code worker.i.node}, {@code worker.i.host}, {@code worker.i.chiplets}, {@code worker.i.cores}.
 * Written whole to a temporary file and moved over the old one, so a reader never sees half a file.
 */
public final class WorkerReportsFile
{
    public static final String FILE_NAME = "worker-reports.properties";

    private WorkerReportsFile() {}

    /** The reports and when they were saved. */
    public record Saved(List<WorkerReport> reports, Instant saved)
    {
        public Saved
        {
            reports = List.copyOf(reports);
            requireNonNull(saved, "saved is null");
        }
    }

    /**
     * @throws IOException when the file cannot be read
     * @throws IllegalArgumentException naming the entry that is not what was expected (the caller names the file)
     */
    public static Saved read(Path file)
            throws IOException
    {
        requireNonNull(file, "file is null");
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        }
        Instant saved;
        try {
            saved = Instant.parse(required(file, properties, "saved"));
        }
        catch (DateTimeParseException e) {
            throw bad(file, "saved", properties.getProperty("saved"), "an ISO-8601 instant such as 2026-01-31T12:00:00Z");
        }
        List<WorkerReport> reports = new ArrayList<>();
        for (int i = 0; properties.containsKey("worker." + i + ".node"); i++) {
            String prefix = "worker." + i + ".";
            try {
                reports.add(new WorkerReport(required(file, properties, prefix + "node"), required(file, properties, prefix + "host"),
                        count(file, properties, prefix + "chiplets"), count(file, properties, prefix + "cores")));
            }
            catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("worker " + i + ": " + e.getMessage(), e);
            }
        }
        return new Saved(reports, saved);
    }

    public static void write(Path file, List<WorkerReport> reports, Instant saved)
            throws IOException
    {
        requireNonNull(file, "file is null");
        requireNonNull(reports, "reports is null");
        requireNonNull(saved, "saved is null");
        Properties properties = new Properties();
        properties.setProperty("saved", saved.toString());
        for (int i = 0; i < reports.size(); i++) {
            WorkerReport report = reports.get(i);
            String prefix = "worker." + i + ".";
            properties.setProperty(prefix + "node", report.node());
            properties.setProperty(prefix + "host", report.host());
            properties.setProperty(prefix + "chiplets", Integer.toString(report.chiplets()));
            properties.setProperty(prefix + "cores", Integer.toString(report.cores()));
        }
        Files.createDirectories(file.toAbsolutePath().getParent());
        Path temporary = Files.createTempFile(file.toAbsolutePath().getParent(), FILE_NAME, ".tmp");
        try {
            try (Writer writer = Files.newBufferedWriter(temporary, StandardCharsets.UTF_8)) {
                properties.store(writer, "The chiplet plugin's worker reports, kept over coordinator restarts; safe to delete");
            }
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
        finally {
            Files.deleteIfExists(temporary);
        }
    }

    private static String required(Path file, Properties properties, String key)
    {
        String value = properties.getProperty(key);
        if (value == null || value.isBlank()) {
            throw bad(file, key, value, "a value");
        }
        return value.strip();
    }

    private static int count(Path file, Properties properties, String key)
    {
        String value = required(file, properties, key);
        try {
            return Integer.parseInt(value);
        }
        catch (NumberFormatException e) {
            throw bad(file, key, value, "a whole number");
        }
    }

    private static IllegalArgumentException bad(Path file, String key, String value, String expected)
    {
        return new IllegalArgumentException("%s=%s is not usable: expected %s".formatted(key, value, expected));
    }
}
