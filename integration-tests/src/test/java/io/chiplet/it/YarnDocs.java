package io.chiplet.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The YARN run that {@code docs/cluster-managers.md} shows: the fenced block after the line {@value #MARKER}, copied
 * from a capture {@link YarnSparkTest} wrote ({@code integration-tests/target/yarn-run.txt}). Pages and captures are
 * compared by {@link #shape}: the same lines in the same order, numbers aside (pids, thread counts, container
 * numbers, CPUs and sizes differ between runs and machines).
 */
final class YarnDocs
{
    static final String MARKER = "<!-- yarn-run: captured by integration-tests YarnSparkTest into integration-tests/target/yarn-run.txt -->";

    private YarnDocs() {}

    static List<String> shownRun(Path page)
            throws IOException
    {
        List<String> lines = Files.readAllLines(page);
        int marker = lines.indexOf(MARKER);
        if (marker < 0) {
            throw new AssertionError(page + " has no line " + MARKER + " before the YARN run it shows");
        }
        if (marker + 1 >= lines.size() || !lines.get(marker + 1).startsWith("```")) {
            throw new AssertionError(page + ": the line after " + MARKER + " must open a fenced block");
        }
        List<String> block = new ArrayList<>();
        for (String line : lines.subList(marker + 2, lines.size())) {
            if (line.startsWith("```")) {
                return block;
            }
            block.add(line);
        }
        throw new AssertionError(page + ": the fenced block after " + MARKER + " is not closed");
    }

    /** Each line with every run of digits as {@code N}. */
    static List<String> shape(List<String> lines)
    {
        return lines.stream().map(line -> line.strip().replaceAll("\\d+", "N")).toList();
    }
}
