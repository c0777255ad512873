package io.chiplet.jmh.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static java.util.Objects.requireNonNull;

/**
 * {@code docs/performance.md} as a document of named sections, each between two marker comments: a section is
 * replaced in place by a run of the same name and added after the others otherwise. Every benchmark writes its own
 * section through this class.
 */
public final class ReportDocument
{
    private static final String TITLE = "# Performance";

    private ReportDocument() {}

    /** Merges section {@code name} into the report file; a missing file is created with the introduction first. */
    public static void writeSection(Path report, String name, String body)
    {
        requireNonNull(report, "report is null");
        try {
            Optional<String> existing = Files.exists(report) ? Optional.of(Files.readString(report)) : Optional.empty();
            Files.createDirectories(report.toAbsolutePath().getParent());
            Files.writeString(report, merge(existing, name, body));
        }
        catch (IOException e) {
            throw new UncheckedIOException("cannot write the report to " + report + ": " + e.getMessage(), e);
        }
    }

    /**
     * Puts {@code body} into the report as section {@code name}: in place of a section of that name, else after
     * the existing ones; a new file gets the report's introduction first.
     */
    public static String merge(Optional<String> existing, String name, String body)
    {
        String slug = slug(name);
        String begin = "<!-- section: " + slug + " -->";
        String end = "<!-- /section: " + slug + " -->";
        String block = begin + "\n" + body.strip() + "\n" + end + "\n";
        String document = existing.filter(text -> !text.isBlank()).orElseGet(ReportDocument::introduction);
        Matcher matcher = Pattern.compile(Pattern.quote(begin) + ".*?" + Pattern.quote(end) + "\\n?", Pattern.DOTALL).matcher(document);
        if (matcher.find()) {
            return document.substring(0, matcher.start()) + block + document.substring(matcher.end());
        }
        return document.stripTrailing() + "\n\n" + block;
    }

    static String introduction()
    {
        return TITLE + "\n\n"
                + "Chiplet-sensitive kernels run with their worker threads bound as `chiplet plan` prints for each policy (the\n"
                + "plugins' binding: a whole chiplet under the chiplet policies, its NUMA node where there are several), at working\n"
                + "sets below one chiplet's L3, between that and the sum of all L3s, and beyond; each policy's throughput is shown\n"
                + "relative to `wim` (one worker instance per machine: workers unbound, floating over all CPUs). Regenerate with\n"
                + "`bin/chiplet bench [--quick]`; a run on another machine adds its own section with `--section NAME`.\n"
                + "The kernels follow Fogli et al., *OLAP on Modern Chiplet-Based Processors* (PVLDB 17(11), 2024: STREAM §2.5/§4.4,\n"
                + "core-to-core latency §2.3) and Fogli et al., *CHARM: Chiplet Heterogeneity-Aware Runtime Mapping System*\n"
                + "(EuroSys 2026, Fig. 5).\n";
    }

    static String slug(String name)
    {
        String slug = name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-|-$", "");
        if (slug.isEmpty()) {
            throw new IllegalArgumentException("section name \"" + name + "\" needs at least one letter or digit");
        }
        return slug;
    }
}
