package io.chiplet.cli;

import picocli.CommandLine;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code chiplet advise} run in-process, as a user runs it, for tests that compare it with what the plugins apply;
 * and the topology fixtures those tests read (this module's test resources, on every test class path that has
 * core's test jar).
 */
public final class AdviseRun
{
    /** hwloc XML of a dual EPYC 7763 (Milan, 16 CCDs of 32 MiB L3), a dual Sapphire Rapids 8480 in SNC4, and a Raptor Lake hybrid laptop. */
    public static final List<String> MACHINES = List.of(
            "/hwloc-xml/AMD-Zen3-2xEpyc-7763.xml",
            "/snapshots/2xspr8480-snc4.lstopo.xml",
            "/hwloc-xml/20em64t-hybrid-1p6c2t+2ca4co1t.xml");

    private AdviseRun() {}

    /** {@link #MACHINES}, for {@code @MethodSource("io.chiplet.cli.AdviseRun#machines")}. */
    public static List<String> machines()
    {
        return MACHINES;
    }

    /**
     * The file of a test resource such as {@code /hwloc-xml/AMD-Zen3-2xEpyc-7763.xml}: the resource itself when it is a
     * file, else (read from core's test jar by the plugins' tests) a copy in a temporary file.
     */
    public static Path fixture(String resource)
    {
        URL url = AdviseRun.class.getResource(resource);
        if (url == null) {
            throw new IllegalArgumentException("no test resource " + resource + " on the class path (core's test jar)");
        }
        try {
            if (url.getProtocol().equals("file")) {
                return Path.of(url.toURI());
            }
            String name = resource.substring(resource.lastIndexOf('/') + 1);
            Path copy = Files.createTempFile("chiplet-fixture-", "-" + name);
            copy.toFile().deleteOnExit();
            try (InputStream in = url.openStream()) {
                Files.copy(in, copy, StandardCopyOption.REPLACE_EXISTING);
            }
            return copy;
        }
        catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        catch (IOException e) {
            throw new UncheckedIOException("cannot copy test resource " + resource + " to a temporary file", e);
        }
    }

    /**
     * Runs {@code chiplet advise ARGS} (text output) and returns its settings, key to value, in order.
     *
     * @throws AssertionError with the error output when the command does not exit 0
     */
    public static Map<String, String> settings(String... args)
    {
        Output run = run(args);
        if (run.status() != 0) {
            throw new AssertionError("chiplet advise " + String.join(" ", args) + " exited " + run.status() + ": " + run.err());
        }
        Map<String, String> settings = new LinkedHashMap<>();
        for (String line : run.out().split("\\R")) {
            int equals = line.indexOf('=');
            if (!line.isBlank() && !Character.isWhitespace(line.charAt(0)) && equals > 0) {
                settings.put(line.substring(0, equals), line.substring(equals + 1));
            }
        }
        return settings;
    }

    /** What {@code chiplet advise} printed and how it exited. */
    public record Output(int status, String out, String err) {}

    /** Runs {@code chiplet advise ARGS} as the launcher does, capturing what it prints. */
    public static Output run(String... args)
    {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine command = new CommandLine(new AdviseCommand());
        command.setOut(new PrintWriter(out));
        command.setErr(new PrintWriter(err));
        int status = command.execute(args);
        return new Output(status, out.toString(), err.toString());
    }
}
