package io.chiplet.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** {@code chiplet advise}, run as users run it: the CLI's main class in a JVM of its own, its output parsed. */
final class Advice
{
    private Advice() {}

    /**
     * The {@code spark.*} lines of {@code chiplet advise --engine spark --cluster-manager yarn --fs-root <fsRoot>}, in
     * the order printed: the {@code spark-defaults.conf} fragment (the settings list above it repeats them with comments).
     */
    static Map<String, String> sparkOnYarn(Path fsRoot)
            throws IOException, InterruptedException
    {
        String output = run("advise", "--engine", "spark", "--cluster-manager", "yarn", "--fs-root", fsRoot.toString());
        Map<String, String> settings = new LinkedHashMap<>();
        for (String line : output.split("\n")) {
            if (line.startsWith("spark.") && line.contains("=")) {
                String key = line.substring(0, line.indexOf('='));
                String value = line.substring(line.indexOf('=') + 1);
                String earlier = settings.put(key, value);
                if (earlier != null && !earlier.equals(value)) {
                    throw new AssertionError("chiplet advise printed " + key + " twice with different values: " + earlier + " and " + value + ":\n" + output);
                }
            }
        }
        if (settings.isEmpty()) {
            throw new AssertionError("chiplet advise printed no spark.* line:\n" + output);
        }
        return settings;
    }

    /** Runs the CLI with {@code arguments}; its stdout, or an error with its output when it fails. */
    static String run(String... arguments)
            throws IOException, InterruptedException
    {
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> command = new java.util.ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-cp", classPath, "io.chiplet.cli.ChipletCli"));
        command.addAll(List.of(arguments));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(2, TimeUnit.MINUTES) || process.exitValue() != 0) {
            process.destroyForcibly();
            throw new AssertionError("'chiplet " + String.join(" ", arguments) + "' failed:\n" + output);
        }
        return output;
    }
}
