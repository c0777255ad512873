package io.chiplet.trino.measure;

import io.chiplet.measure.MeasureReport;
import org.slf4j.Logger;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.function.Supplier;

import static java.util.Objects.requireNonNull;

/**
 * A catalog's measurement report files in the operator's directory: {@code chiplet-measure-trino-<catalog>.json} and
 * {@code .html}, each replaced whole (written beside it, then moved), so a reader never sees half a file. The first
 * failure logs one warning; later ones are silent. Not thread-safe.
 */
final class MeasureReportFiles
{
    private final Path directory;
    private final String base;
    private final Logger log;
    private boolean failed;

    MeasureReportFiles(Path directory, String catalog, Logger log)
    {
        this.directory = requireNonNull(directory, "directory is null");
        this.base = "chiplet-measure-trino-" + requireNonNull(catalog, "catalog is null").replaceAll("[^A-Za-z0-9_.-]", "_");
        this.log = requireNonNull(log, "log is null");
    }

    /** Writes the report {@code report} makes; returns whether it wrote. Making the report may fail too: one warning. */
    boolean write(Supplier<MeasureReport> report)
    {
        try {
            MeasureReport made = report.get();
            Files.createDirectories(directory);
            write(directory.resolve(base + ".json"), made.json());
            write(directory.resolve(base + ".html"), made.html());
            return true;
        }
        catch (IOException | RuntimeException e) {
            if (!failed) {
                failed = true;
                log.warn("Chiplet measurement cannot write its report to {}={}: {}", MeasureKeys.REPORT_DIR, directory, e.toString());
            }
            return false;
        }
    }

    private static void write(Path target, String text)
            throws IOException
    {
        Path temporary = target.resolveSibling(target.getFileName() + ".tmp");
        Files.writeString(temporary, text, StandardCharsets.UTF_8);
        Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
